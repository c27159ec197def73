import Testing

@testable import IAPSimCore

/// The merchant server on its own: requests handed to it by hand, the App Store's answer
/// too; what it sends back is read from the outbox.
@Suite struct MerchantServerTests {
    struct Desk {
        var server = MerchantServer(users: ["alice", "bob"], rng: SplitMix64(seed: 1))
        var out: Outbox

        init(_ policy: Policy) {
            out = Outbox(now: 0, policy: policy, nextMessageId: 0, nextExchange: 0)
        }

        mutating func order(for user: String, _ product: String = "coins_100") -> Order {
            server.createOrder(user: user, product: product, sender: .app, exchange: out.newExchange(), &out)
            return server.orders[server.orders.count - 1]
        }

        /// Sends `POST /recharge` and lets the App Store answer `status` with a receipt that
        /// holds `entries`; returns the server's answer.
        mutating func recharge(
            _ txn: String, uid: String, order: Order?, entries: [ReceiptEntry],
            status: Int = VerifyStatus.valid, sender: Sender = .app
        ) -> RechargeAnswer? {
            let receipt = Receipt(serial: 1, entries: entries, signature: Receipt.sign(serial: 1, entries: entries))
            let request = RechargeRequest(
                transactionId: txn, productId: entries.first?.productId ?? "coins_100",
                uid: uid, orderId: order?.id, orderToken: order?.token,
                receipt: receipt, reason: .firstDelivery)
            server.receiveRecharge(request, sender: sender, exchange: out.newExchange(), catalog: .standard, &out)
            let verifyExchange = out.nextExchange
            server.verified(
                exchange: verifyExchange, status: status, receipt: status == VerifyStatus.valid ? receipt : nil,
                catalog: .standard, &out)
            return lastAnswer
        }

        var lastAnswer: RechargeAnswer? {
            guard case .rechargeResponse(let answer, _)? = out.sends.last?.payload else { return nil }
            return answer
        }
    }

    static func entry(_ txn: String, _ product: String = "coins_100", token: String?) -> ReceiptEntry {
        ReceiptEntry(
            transactionId: txn, originalTransactionId: txn, productId: product,
            purchaseDateMs: 0, appAccountToken: token)
    }

    static func policy(_ preset: PolicyPreset, _ changes: (PolicyKey, String)...) throws -> Policy {
        var p = preset.policy
        for (key, value) in changes { try p.set(key, to: value) }
        return p
    }

    @Test func anOrderCarriesAFreshUUIDTokenAndIsAnswered() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let first = desk.order(for: "alice"), second = desk.order(for: "bob")
        #expect(first.id == "o1" && second.id == "o2" && first.user == "alice" && first.state == .created)
        #expect(isUUID(first.token) && first.token != second.token)
        #expect(desk.out.sends.last?.payload == .orderResponse(order: "o2", token: second.token, product: "coins_100"))
        #expect(desk.out.sends.last?.route == .order && desk.out.sends.last?.direction == .response)
    }

    @Test func aRechargeWaitsForTheAppStoreUnderATimeout() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let order = desk.order(for: "alice")
        let request = RechargeRequest(
            transactionId: "t1", productId: "coins_100", uid: "alice", orderId: order.id,
            orderToken: order.token, receipt: nil, reason: .firstDelivery)
        desk.server.receiveRecharge(request, sender: .app, exchange: 7, catalog: .standard, &desk.out)
        #expect(desk.server.isVerifying("t1") && desk.server.verifyingTransactions == ["t1"])
        #expect(desk.out.sends.last?.route == .verify && desk.out.sends.last?.payload == .verifyRequest(nil))
        let verifyExchange = desk.out.nextExchange
        #expect(desk.out.pending.contains(.serverVerifyTimeout(exchange: verifyExchange)))
        #expect(desk.server.verifyTimedOut(exchange: verifyExchange, &desk.out))
        #expect(desk.lastAnswer == .retryLater("App Store did not answer"))
        #expect(desk.out.sends.last?.exchange == 7, "the answer goes back on the app's exchange")
        #expect(!desk.server.verifyTimedOut(exchange: verifyExchange, &desk.out), "answered once")
        #expect(!desk.server.isVerifying("t1"))
    }

    @Test func hardenedCreditsTheOrderOwnerWhoeverIsLoggedIn() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let order = desk.order(for: "alice")
        let answer = desk.recharge("t1", uid: "bob", order: order, entries: [Self.entry("t1", token: order.token)])
        #expect(answer == .credited(["t1"]))
        #expect(desk.server.balance(of: "alice") == 100 && desk.server.balance(of: "bob") == 0)
        #expect(desk.server.order("o1")?.state == .credited && desk.server.order("o1")?.transactionId == "t1")
        #expect(desk.server.creditedTransactionIds == ["t1"] && desk.server.newestAccepted?.user == "alice")
    }

    @Test func naiveCreditsTheAccountTheRequestNames() {
        var desk = Desk(PolicyPreset.naive.policy)
        let order = desk.order(for: "alice")
        _ = desk.recharge("t1", uid: "bob", order: order, entries: [Self.entry("t1", token: nil)])
        #expect(desk.server.balance(of: "bob") == 100 && desk.server.balance(of: "alice") == 0)
    }

    @Test func withDedupASecondRechargeOfTheSameTransactionAddsNothing() throws {
        var desk = Desk(try Self.policy(.hardened, (.serverBindOrder, "false")))
        let entries = [Self.entry("t1", token: nil)]
        #expect(desk.recharge("t1", uid: "alice", order: nil, entries: entries) == .credited(["t1"]))
        #expect(desk.recharge("t1", uid: "alice", order: nil, entries: entries) == .alreadyCredited(["t1"]))
        #expect(desk.server.credits.count == 1 && desk.server.balance(of: "alice") == 100)
    }

    @Test func withoutDedupTheSameTransactionIsCreditedAgain() {
        var desk = Desk(PolicyPreset.naive.policy)
        let entries = [Self.entry("t1", token: nil)]
        _ = desk.recharge("t1", uid: "alice", order: desk.order(for: "alice"), entries: entries)
        #expect(
            desk.recharge("t1", uid: "alice", order: desk.order(for: "alice"), entries: entries) == .credited(["t1"]))
        #expect(desk.server.credits.count == 2 && desk.server.balance(of: "alice") == 200)
        #expect(desk.server.creditedTransactionIds == ["t1"])
    }

    @Test func orderBindingRefusesAReceiptThatDoesNotCarryTheOrdersToken() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let order = desk.order(for: "alice")
        #expect(
            desk.recharge("t1", uid: "alice", order: order, entries: [Self.entry("t1", token: nil)])
                == .refused("the receipt carries no app_account_token to bind an order"))
        let other = desk.order(for: "bob")
        #expect(
            desk.recharge("t1", uid: "alice", order: order, entries: [Self.entry("t1", token: other.token)])
                == .refused("order o1 token does not match the receipt's app_account_token"))
        #expect(desk.server.credits.isEmpty && desk.server.balance(of: "alice") == 0)
    }

    @Test func aReplayOfACreditedTransactionOnAFreshOrderCreditsNothing() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let order = desk.order(for: "alice")
        let entries = [Self.entry("t1", token: order.token)]
        _ = desk.recharge("t1", uid: "alice", order: order, entries: entries)
        let fresh = desk.order(for: "bob")
        let replay = desk.recharge("t1", uid: "bob", order: fresh, entries: entries, sender: .attacker)
        #expect(replay == .alreadyCredited(["t1"]), "server-dedup answers before the order check")
        #expect(desk.server.balance(of: "bob") == 0 && desk.server.credits.count == 1)
    }

    @Test func anUnavailableAppStoreMeansRetryLaterAndABadReceiptARefusal() {
        var desk = Desk(PolicyPreset.hardened.policy)
        let order = desk.order(for: "alice")
        let entries = [Self.entry("t1", token: order.token)]
        #expect(
            desk.recharge("t1", uid: "alice", order: order, entries: entries, status: VerifyStatus.unavailable)
                == .retryLater("\(VerifyStatus.words(VerifyStatus.unavailable)) (21005)"))
        #expect(
            desk.recharge("t1", uid: "alice", order: order, entries: entries, status: VerifyStatus.notAuthentic)
                == .refused("\(VerifyStatus.words(VerifyStatus.notAuthentic)) (21003)"))
        #expect(
            desk.recharge("t2", uid: "alice", order: order, entries: entries)
                == .refused("transaction t2 is not in the receipt"))
        #expect(desk.server.credits.isEmpty && desk.server.order("o1")?.state == .created)
    }

    @Test func aNonConsumableGrantsItsEntitlementOnce() {
        var desk = Desk(PolicyPreset.naive.policy)
        let entries = [Self.entry("t1", "no_ads", token: nil)]
        _ = desk.recharge("t1", uid: "alice", order: nil, entries: entries)
        _ = desk.recharge("t1", uid: "alice", order: nil, entries: entries)
        #expect(desk.server.entitlements.map { "\($0.user) \($0.product)" } == ["alice no_ads"])
        // Granted once, keyed by the original transaction: even without server-dedup the
        // second delivery of the same purchase grants nothing more (docs/world.md, "The rules").
        #expect(desk.server.balance(of: "alice") == 0 && desk.server.credits.count == 1)
    }
}
