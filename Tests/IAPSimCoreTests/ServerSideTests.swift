import Testing

@testable import IAPSimCore

/// The server side's rules (docs/world.md, "The server side") that no shipped
/// scenario pins down on its own.
@Suite struct ServerSideTests {
    static let hour: VirtualTime = 3_600_000

    static func sent(_ sim: Simulation) -> [ServerNotification] {
        sim.log.compactMap { e -> ServerNotification? in
            if case .notificationSent(let n) = e.fact { return n } else { return nil }
        }
    }

    static func times(_ sim: Simulation, where match: (Fact) -> Bool) -> [VirtualTime] {
        sim.log.filter { match($0.fact) }.map(\.time)
    }

    /// Not answered with 200, a notification is retried 1h, 12h, 24h, 48h and 72h after the
    /// previous attempt (+1h, +13h, +37h, +85h, +157h from the first), then dropped; every
    /// attempt carries the same notificationUUID and is signed anew.
    @Test func aNotificationNobodyAnswersIsRetriedFiveTimesThenDropped() {
        var h = Harness(weakened(.sk2Hardened, [(.serverReconcile, "off")]))
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.serverOutage(on: true), .wait(200 * Self.hour))
        let attempts = Self.sent(h.sim)
        #expect(attempts.map(\.attempt) == [1, 2, 3, 4, 5, 6])
        #expect(Set(attempts.map(\.uuid)).count == 1)
        let first = attempts[0].signedDate
        #expect(attempts.map { $0.signedDate - first } == [0, 1, 13, 37, 85, 157].map { $0 * Self.hour })
        #expect(attempts.map(\.transaction.signedDate) == attempts.map(\.signedDate))
        let dropped = Self.times(h.sim) { if case .notificationDropped = $0 { true } else { false } }
        #expect(dropped == [first + 157 * Self.hour + AppStore.notificationTimeoutMs])
        #expect(h.sim.store.pendingNotifications.isEmpty)
        #expect(h.sim.network.totals(for: .notify).messages == 12, "six requests, six 503 answers")
        #expect(h.balance("alice") == 0)
    }

    /// The notification's first answer that is 200 ends the retries; the server credits the
    /// order its appAccountToken names, and the app's own recharge is then a duplicate.
    @Test func aNotificationAnswered200IsNotSentAgain() {
        var h = Harness(weakened(.sk2Hardened, [(.serverReconcile, "off")]))
        h.run(.buy(product: "coins_100"))
        h.run(.wait(100 * Self.hour))
        #expect(Self.sent(h.sim).count == 1)
        #expect(h.balance("alice") == 100)
        #expect(h.sim.server.credits.map(\.transactionId) == ["1000000000001"])
    }

    /// Without appAccountToken (StoreKit 2 without `account-token`), a notification cannot
    /// name the order: the server credits nobody rather than guess.
    @Test func aNotificationWithoutATokenCreditsNobody() {
        var h = Harness(weakened(.sk2Naive, [(.serverNotifications, "true")]))
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash)
        h.settle()
        #expect(h.balance("alice") == 0)
        #expect(h.logText.contains("1000000000001 not credited: no appAccountToken names its order"))
    }

    /// The new keys off: no notify or server-api traffic, no notification, no reconciliation
    /// timer: the StoreKit 1 run is the one it always was.
    @Test func withTheKeysOffNothingOfTheServerSideRuns() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.when("credited")
        h.run(.refund(txn: nil))
        h.settle()
        #expect(h.sim.network.totals(for: .notify).messages == 0)
        #expect(h.sim.network.totals(for: .serverAPI).messages == 0)
        #expect(Self.sent(h.sim).isEmpty && !h.sim.server.jobs.reconcileArmed)
        #expect(h.summary == ["refund-unclawed:permanent"])
    }

    @Test func spendingIsRefusedBeyondTheBalanceAndAClawbackMakesDebt() {
        var h = Harness(.sk2Hardened)
        h.run(.buy(product: "coins_100"))
        h.when("credited")
        h.run(.spend(user: "alice", coins: 101))
        #expect(StoreKit2Tests.ignored(h.sim) == "alice has 100 coins, not 101")
        h.run(.spend(user: "alice", coins: 60), .refund(txn: "999"))
        #expect(StoreKit2Tests.ignored(h.sim)?.hasPrefix("999 is no charge that can be refunded") == true)
        h.run(.refund(txn: "1000000000001"))
        h.when("clawed-back")
        #expect(h.balance("alice") == -60)
        #expect(h.sim.server.spent(by: "alice") == 60)
        #expect(h.sim.invariantViolations.isEmpty)
        h.run(.refund(txn: nil))
        #expect(StoreKit2Tests.ignored(h.sim) == "no charge to refund")
        #expect(h.summary == ["refund-unclawed:resolved"])
        #expect(h.sim.auditor.grantedNotPaidCents == 0 && h.sim.auditor.paidNotDeliveredCents == 0)
    }

    /// A refund the server kept the coins of counts as granted without payment; heard but
    /// with `server-clawback off` it is permanent at once.
    @Test func aRefundHeardButNotClawedBackIsPermanent() {
        var h = Harness(weakened(.sk2Hardened, [(.serverClawback, "off")]))
        h.run(.buy(product: "coins_100"))
        h.when("credited")
        h.run(.refund(txn: nil))
        h.settle()
        #expect(h.summary == ["refund-unclawed:permanent"])
        #expect(
            h.anomalies[0].mechanism == "the server hears of the refund but keeps the coins (server-clawback off)")
        #expect(h.sim.auditor.grantedNotPaidCents == 99)
        #expect(h.balance("alice") == 100)
    }

    /// A refund before the server credited: the server that heard of it refuses the credit,
    /// and the charge owes nobody anything.
    @Test func aChargeRefundedBeforeItsCreditIsNeverCreditedAndOwesNothing() {
        var h = Harness(weakened(.sk2Hardened, [(.serverReconcile, "off")]))
        h.run(.dropNextRequest(.notify), .dropNextRequest(.recharge), .buy(product: "coins_100"))
        h.when("charged")
        h.run(.refund(txn: nil))
        h.settle()
        #expect(h.balance("alice") == 0)
        #expect(h.sim.auditor.unresolved.isEmpty, "\(h.summary)")
        #expect(h.logText.contains("recharge 1000000000001 refused: transaction 1000000000001 was refunded"))
    }

    /// Reconciliation needs an id of the customer's to look up: without the appTransactionId
    /// (`report-app-transaction false`), a customer whose first purchase never reached the
    /// server cannot be found.
    @Test func reconciliationCannotFindACustomerTheServerNeverHeardOf() {
        var h = Harness(weakened(.sk2Hardened, [(.serverNotifications, "false"), (.reportAppTransaction, "false")]))
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash)
        h.settle()
        #expect(h.balance("alice") == 0)
        #expect(h.sim.network.totals(for: .serverAPI).messages == 0)
        #expect(!h.sim.server.jobs.reconcileArmed && h.summary == ["lost-order:open"], "only a launch can recover it")
    }

    /// With the appTransactionId the app reported at login, the same customer is looked up by
    /// it (Get Transaction History accepts one since 2025) and the first charge is credited.
    @Test func reconciliationFindsAFirstPurchaseByTheAppTransactionId() {
        var h = Harness(weakened(.sk2Hardened, [(.serverNotifications, "false")]))
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash)
        h.run(.wait(2 * Self.hour))
        #expect(h.balance("alice") == 100)
        #expect(h.logText.contains("GET /inApps/v2/history/\(AppStore.appTransactionId): 1 transaction"))
        #expect(h.summary == ["lost-order:resolved"], "\(h.summary)")
    }

    /// Get Transaction History v1 omits finished consumables: the same lost request after a
    /// finish is never found by a job on v1.
    @Test func historyV1MissesAFinishedConsumable() {
        var p = weakened(.sk2Naive, [(.accountToken, "true"), (.serverReconcile, "1h"), (.serverHistory, "v1")])
        p.serverDedup = true
        var h = Harness(p)
        h.run(.buy(product: "coins_100"))
        h.when("credited")
        h.run(.wait(10_000), .dropNextRequest(.recharge), .buy(product: "coins_550"))
        h.when("finished")
        h.run(.wait(2 * Self.hour))
        #expect(h.balance("alice") == 100)
        // Both purchases are finished consumables: v1 lists neither, v2 both.
        #expect(h.sim.store.historyList(h.sim.policy).list.isEmpty)
        p.serverHistory = .v2
        #expect(h.sim.store.historyList(p).list.map(\.id) == ["1000000000001", "1000000000002"])
        #expect(h.summary == ["missed-order:permanent"] || h.summary == ["missed-order:open"], "\(h.summary)")
    }

    /// Get Transaction History lists finished consumables too: a charge the app finished
    /// before its recharge was lost is found and credited to the order its token names;
    /// a refund nobody notified is found and clawed back.
    @Test func reconciliationFindsAFinishedUncreditedChargeAndAnUnheardRefund() {
        var p = weakened(
            .sk2Naive,
            [(.accountToken, "true"), (.serverReconcile, "1h"), (.serverClawback, "full"), (.serverHistory, "v2")])
        p.serverDedup = true
        var h = Harness(p)
        h.run(.buy(product: "coins_100"))
        h.when("credited")
        h.run(.wait(10_000), .dropNextRequest(.recharge), .buy(product: "coins_550"))
        h.when("finished")
        h.run(.wait(60_000))
        #expect(h.sim.store.transaction("1000000000002")?.finished == true && h.balance("alice") == 100)
        h.run(.refund(txn: "1000000000001"))
        h.run(.wait(2 * Self.hour))
        #expect(h.balance("alice") == 550)
        #expect(h.sim.server.credits.last?.transactionId == "1000000000002")
        #expect(h.sim.server.isClawedBack("1000000000001"))
        #expect(h.sim.network.totals(for: .serverAPI).messages == 2, "one lookup, one answer")
        #expect(h.summary == ["missed-order:resolved", "refund-unclawed:resolved"], "\(h.summary)")
    }

    /// Explore's StoreKit 1 schedules are the ones they always were, with the server's faults
    /// added from their own generator: the refund loop adds steps only to the worlds that have it.
    @Test func exploreAddsRefundsOnlyWhereTheServerSideIsInPlay() {
        let sk1 = Explorer(policy: PolicyPreset.naive.policy, seed: 1)
        for i in 0..<50 {
            let s = sk1.schedule(i)
            var expected = Schedule.random(seed: sk1.runSeed(i), count: 24)
            expected.addServerFaultSteps(seed: sk1.runSeed(i), policy: sk1.policy, catalog: .standard)
            #expect(s == expected)
            #expect(!s.steps.contains { if case .refundLoop(.refund) = $0.command { true } else { false } })
        }
        let sk2 = Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 1)
        let refunds = (0..<50).filter { i in
            sk2.schedule(i).steps.contains { if case .refundLoop(.refund) = $0.command { true } else { false } }
        }
        #expect(refunds.count > 10)
    }
}
