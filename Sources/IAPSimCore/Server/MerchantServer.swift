/// An order on the merchant server.
package struct Order: Sendable, Hashable, Identifiable {
    package enum State: String, Sendable, Hashable { case created, credited }
    package var id: String
    package var user: String
    package var productId: String
    package var token: String
    package var createdBy: Sender
    package var state: State
    package var transactionId: String?
    package var createdAt: VirtualTime
}

/// One credit the server granted.
package struct CreditEntry: Sendable, Hashable {
    package var transactionId: String
    package var orderId: String?
    package var user: String
    package var productId: String
    package var coins: Int
    package var at: VirtualTime
    package var sender: Sender
    /// The receipt the accepted request carried (what a proxy would have captured).
    package var receipt: Receipt?
    /// StoreKit 2: the `jwsRepresentation` the accepted request carried.
    package var signed: SignedTransaction? = nil
}

/// What the server side adds to the server: coins spent and clawed back, refunds heard,
/// transactions the App Store told of, history lookups in flight.
struct ServerSideRecords: Sendable, Hashable {
    var debits: [Debit] = []
    var refundsHeard: [String] = []
    private(set) var toldOf: [String] = []
    /// `toldOf` as a set (what `tell` asks: a notification's retry or a refund tells of a
    /// transaction again); read by nothing else, so left out of `==` and `hash`.
    private var toldOfSet: Set<String> = []
    var historyLookups: [HistoryLookup] = []
    /// `appTransactionId`s the app reported at login, with the account that reported each.
    var appTransactions: [(user: String, id: String)] = []
    /// `server-refund-order signed-date`: the newest `signedDate` of refund news applied, by transaction.
    var refundNewsSigned: [String: VirtualTime] = [:]

    /// Adds `txn` to `toldOf` unless it is there.
    mutating func tell(_ txn: String) {
        if toldOfSet.insert(txn).inserted { toldOf.append(txn) }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.debits == b.debits && a.refundsHeard == b.refundsHeard && a.toldOf == b.toldOf
            && a.historyLookups == b.historyLookups && a.appTransactions.elementsEqual(b.appTransactions, by: ==)
            && a.refundNewsSigned == b.refundNewsSigned
    }

    func hash(into h: inout Hasher) {
        h.combine(debits)
        h.combine(refundsHeard)
        h.combine(toldOf)
    }
}

/// A Get Transaction History request waiting for its answer: its exchange, and the
/// transaction id it looked up.
struct HistoryLookup: Sendable, Hashable {
    var exchange: Int
    var txn: String
}

/// A recharge waiting for the App Store's verification.
struct PendingVerification: Sendable, Hashable {
    var request: RechargeRequest
    var appExchange: Int
    var sender: Sender
    /// False when the App Store told the server (a notification, reconciliation): nobody
    /// waits for a recharge answer.
    var replies = true
}

/// Coins taken from an account: spent in the app, or clawed back for a refunded charge.
package struct Debit: Sendable, Hashable {
    package var user: String
    package var coins: Int
    /// The refunded transaction for a clawback; nil for spending.
    var clawedBackFor: String?
    package var at: VirtualTime
}

/// The merchant server: orders with UUID tokens, receipt verification with the App Store,
/// the coin ledger. Its three rules are policy keys: `server-dedup`, `server-bind-order`,
/// `credit-to`. It survives everything.
package struct MerchantServer: Sendable, Hashable {
    /// Its own timers: whether its reconciliation and status poll are scheduled.
    var jobs = ServerJobs()
    package internal(set) var orders: [Order] = []
    /// When `server-bind-order` was switched on while the world ran (-1: from the start): a
    /// purchase made by then that carries no token is accepted unbound, as a server that
    /// starts binding honours the purchases its app made before it asked for a token.
    var bindsPurchasesFrom: VirtualTime = -1
    package internal(set) var credits: [CreditEntry] = []
    /// Coin balance per account, in the order accounts first appeared.
    package internal(set) var balances: [(user: String, coins: Int)] = []
    package internal(set) var entitlements: [(user: String, product: String)] = []
    var verifying = SmallMap<Int, PendingVerification>()
    var rng: SplitMix64
    /// Where each order id, each order token and each credited transaction id first is
    /// (indexes once the lists are long; derived, so not part of equality).
    var orderPositions = KeyPositions<String>()
    var tokenPositions = KeyPositions<String>()
    var creditPositions = KeyPositions<String>()
    // The server side (docs/world.md, "The server side").
    /// `server-outage on`: every request is answered with HTTP 503.
    package internal(set) var outage = false
    /// The server side's records, nil until the first one: a world without them (every
    /// StoreKit 1 preset) copies the server as cheaply as before.
    var sideRecords: ServerSideRecords?
    /// The access granted to each subscriber (`Subscriptions/MerchantServer+Subscriptions.swift`).
    package internal(set) var subscriberAccess: [SubscriberAccess] = []
    /// The subscription transactions (a purchase, each renewal) through which the server
    /// granted access, oldest first: what it credited for subscriptions.
    package internal(set) var subscriptionCredits: [String] = []
    static let verifyTimeoutMs: VirtualTime = 5_000

    package init(users: [String], rng: SplitMix64) {
        balances = users.map { ($0, 0) }
        self.rng = rng
    }

    package static func == (a: MerchantServer, b: MerchantServer) -> Bool {
        a.orders == b.orders && a.credits == b.credits
            && a.balances.elementsEqual(b.balances, by: ==)
            && a.entitlements.elementsEqual(b.entitlements, by: ==) && a.verifying == b.verifying
            && a.outage == b.outage && a.debits == b.debits && a.refundsHeard == b.refundsHeard
            && a.subscriberAccess == b.subscriberAccess
    }

    package func hash(into h: inout Hasher) {
        h.combine(orders)
        h.combine(credits)
    }

    package func balance(of user: String) -> Int {
        balances.first { $0.user == user }?.coins ?? 0
    }

    package func order(_ id: String) -> Order? { orderIndex(id).map { orders[$0] } }

    package func order(token: String) -> Order? {
        let i = tokenPositions.firstIndex(of: token, count: orders.count) {
            orders.indices.first { orders[$0].token == token }
        }
        return i.map { orders[$0] }
    }

    func orderIndex(_ id: String) -> Int? {
        orderPositions.firstIndex(of: id, count: orders.count) {
            orders.indices.first { orders[$0].id == id }
        }
    }

    /// Transaction ids credited at least once, oldest first.
    var creditedTransactionIds: [String] {
        var seen: [String] = []
        for c in credits where !seen.contains(c.transactionId) { seen.append(c.transactionId) }
        return seen
    }

    func isCredited(_ txn: String) -> Bool {
        creditPositions.firstIndex(of: txn, count: credits.count) {
            credits.indices.first { credits[$0].transactionId == txn }
        } != nil
    }

    /// Verifications in flight, for the auditor's "can this still be made right?".
    var verifyingTransactions: [String] {
        verifying.values.map(\.request.transactionId).sorted()
    }

    /// True while the App Store is verifying a recharge of `txn`.
    func isVerifying(_ txn: String) -> Bool {
        verifying.containsValue { $0.request.transactionId == txn }
    }

    /// `POST /orders`.
    mutating func createOrder(
        user: String, product: String, sender: Sender, exchange: Int,
        _ out: inout Outbox
    ) {
        let order = Order(
            id: decimalString(orders.count + 1, prefix: UInt8(ascii: "o")), user: user, productId: product,
            token: rng.uuid(), createdBy: sender, state: .created,
            transactionId: nil, createdAt: out.now)
        orders.append(order)
        orderPositions.appended(to: orders, \.id)
        tokenPositions.appended(to: orders, \.token)
        out.log(
            .server,
            .orderCreated(
                order: order.id, user: user, product: product,
                token: order.token, sender: sender))
        out.send(
            .order, .response, sender, exchange: exchange,
            .orderResponse(order: order.id, token: order.token, product: product))
    }

    /// `POST /recharge`: ask the App Store first (StoreKit 2: check the JWS here).
    mutating func receiveRecharge(
        _ r: RechargeRequest, sender: Sender, exchange: Int,
        catalog: Catalog, _ out: inout Outbox
    ) {
        let p = PendingVerification(request: r, appExchange: exchange, sender: sender)
        if out.policy.storekit == .two { return receiveSigned(p, catalog: catalog, &out) }
        askAppStore(p, &out)
    }

    /// StoreKit 2 (docs/world.md): no `verify` route. With `server-verify` the server
    /// checks the signature, the chain to Apple's root, bundleId and environment itself;
    /// without it, it decodes the payload and believes it.
    mutating func receiveSigned(_ p: PendingVerification, catalog: Catalog, _ out: inout Outbox) {
        guard let signed = p.request.signed else {
            return refuse(p, "the request carries no jwsRepresentation", out: &out)
        }
        // Apple's verifier checks no signature for Xcode or LocalTesting: one built for the
        // environment the object claims accepts anything that claims those.
        let unchecked =
            out.policy.serverVerify == .claimedEnvironment
            && (signed.environment == "Xcode" || signed.environment == "LocalTesting")
        let checks = out.policy.serverVerify != .no && !unchecked
        if unchecked {
            out.log(
                .server,
                .noted(
                    "JWS of \(signed.transactionId) claims environment \(signed.environment): a verifier built for"
                        + " the claimed environment checks no signature"))
        } else {
            out.log(.server, .jwsChecked(txn: signed.transactionId, signer: signed.signer, verified: checks))
        }
        if checks && signed.signer != .appStore {
            return refuse(p, "the JWS signature does not chain to Apple's root certificate", out: &out)
        }
        decide(p, receipt: Receipt(serial: 0, entries: [signed.entry], signature: 0), catalog: catalog, &out)
    }

    /// `verifyReceipt` for a recharge waiting for the answer.
    mutating func askAppStore(_ p: PendingVerification, _ out: inout Outbox) {
        let verifyExchange = out.newExchange()
        verifying[verifyExchange] = p
        out.send(.verify, .request, .app, exchange: verifyExchange, .verifyRequest(p.request.receipt))
        out.after(MerchantServer.verifyTimeoutMs, .serverVerifyTimeout(exchange: verifyExchange))
    }

    /// The App Store did not answer in time.
    mutating func verifyTimedOut(exchange: Int, _ out: inout Outbox) -> Bool {
        guard let p = verifying.removeValue(forKey: exchange) else { return false }
        answer(p, .retryLater("App Store did not answer"), out: &out)
        return true
    }

    /// Sends the answer to a recharge, built only when somebody waits for it (the server's own
    /// crediting of a notification answers nobody, and lists nothing).
    func answer(_ p: PendingVerification, _ a: @autoclosure () -> RechargeAnswer, out: inout Outbox) {
        guard p.replies else { return }
        out.send(
            .recharge, .response, p.sender, exchange: p.appExchange,
            .rechargeResponse(a(), transactionId: p.request.transactionId))
    }
}
