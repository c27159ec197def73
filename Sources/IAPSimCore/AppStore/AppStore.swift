/// What the purchase sheet will do with a payment.
enum PlannedOutcome: Sendable, Hashable {
    case charge, fail(PaymentFailure), interrupt, askToBuy
}

/// The App Store: charges the Apple ID, keeps the payment queue of unfinished
/// transactions (it survives app crashes and uninstalls), writes the receipt and answers
/// verification. One device, one Apple ID.
package struct AppStore: Sendable, Hashable {
    package var catalog: Catalog
    /// Every transaction ever created, oldest first. Added only by `newTransaction` and
    /// changed only through `update`: they keep `positions` and `open` up to date.
    package internal(set) var transactions: [StoreTransaction] = []
    /// Where each transaction id is in `transactions` (an index once there are many).
    var positions = KeyPositions<String>()
    /// Where each `appAccountToken` is in `transactions` (set at creation, never changed).
    var tokenPositions = KeyLists<String>()
    /// The indices of the transactions the queue or the receipt may still show, ascending:
    /// every one but those finished for good (consumables and failures; a non-consumable
    /// stays in the receipt). Finishing cannot be undone, so an index that leaves never comes
    /// back, and a receipt read costs the same at the ten-thousandth purchase as at the first.
    var open: [Int] = []
    /// How many transactions `open` describes (fewer: a list changed behind its back).
    var openCovers = 0
    package var outage = false
    /// `server-api-fail`, `-slow`, `-outage`: what the App Store Server API's callers meet.
    package var apiFaults = ServerAPIFaultState()
    /// The status the next verification answers (`store-status`), then normal answers.
    package internal(set) var nextStatus: Int?
    package var askToBuy = false
    var nextFailure: PaymentFailure?
    var interruptNext = false
    var nextTransactionNumber = 1_000_000_000_001
    var receiptSerial = 0
    /// Set when a payment made more than `unfinishedLimit` transactions unfinished at once:
    /// the world stops there (`Simulation.nextEventTime` is nil from then on).
    package internal(set) var overLimit = false
    /// Counts the changes to `transactions` made through `update` and `newTransaction` (the
    /// only writers): equal revisions, same transactions.
    private(set) var revision = 0
    /// How many transactions have a refund in effect (`refundedAt` set), kept by `update`:
    /// the merchant's reconciliation asks it after every event instead of reading them all.
    private(set) var refundsInEffect = 0
    var rng: SplitMix64
    /// Production or sandbox: whether notifications are retried, what payloads say.
    package internal(set) var environment: StoreEnvironment
    /// Notifications V2 being delivered to the merchant server (`server-notifications`);
    /// nil while there is none, so that a world without them copies nothing more.
    var deliveries: [NotificationDelivery]?
    /// Interrupted payments waiting for their separate charge, with who added them and for
    /// which order: the charge that follows belongs to the same buyer and order.
    var interrupted: [InterruptedPayment] = []
    /// The unfinished transaction a blocked re-buy delivers again (StoreKit 1), until the
    /// app has been handed it: its send says why it went again.
    var rebuyDelivery: String?
    /// Auto-renewable subscriptions (`Subscriptions/AppStore+Subscriptions.swift`), nil
    /// until the first is sold or a subscription command runs.
    var subscriptionBook: SubscriptionBook?
    /// Family Sharing (`Subscriptions/FamilySharing.swift`), nil until a family command runs.
    var familyBook: FamilyBook?
    /// The app's billing grace period (`grace-period`: 3, 16 or 28 days), if it has one.
    package internal(set) var gracePeriodMs: VirtualTime?
    /// The transactions whose refund the customer asked for and Apple has not yet decided
    /// (refunded or declined), oldest first.
    package internal(set) var pendingRefundRequests: [String] = []

    struct InterruptedPayment: Sendable, Hashable {
        var txn: String
        var user: String
        var order: String?
    }

    /// The most transactions the simulator holds unfinished at once. Every receipt lists
    /// every unfinished transaction and every answer the credited ones, so the work of a
    /// purchase grows with all those waiting: past this a run is a flood, not a purchase flow,
    /// and it would take minutes and gigabytes to say nothing more.
    package static let unfinishedLimit = 1_000

    /// The Apple ID's `AppTransaction.appTransactionID` for this app: one customer per
    /// device, so one for every world (it exists before any purchase).
    package static let appTransactionId = "705000000000000001"

    /// Timings of docs/world.md.
    static let purchaseSheetMs: VirtualTime = 2_000
    static let verificationMs: VirtualTime = 300
    static let interruptedChargeMs: VirtualTime = 30_000
    static let askToBuyExpiryMs: VirtualTime = 24 * 3_600_000

    package init(
        catalog: Catalog, rng: SplitMix64, environment: StoreEnvironment = .production,
        gracePeriodMs: VirtualTime? = nil
    ) {
        self.catalog = catalog
        self.rng = rng
        self.environment = environment
        self.gracePeriodMs = gracePeriodMs
        // The StoreKit configuration file's switches, on from the start (docs/storekit.md).
        askToBuy = catalog.settings.askToBuy
        if catalog.settings.billingIssues { subscriptionBook = SubscriptionBook(billingFails: true) }
    }

    /// `SKPaymentQueue.default().transactions`: unfinished transactions, oldest first.
    package var queue: [StoreTransaction] {
        openIndices.compactMap { transactions[$0].finished ? nil : transactions[$0] }
    }

    /// The indices of the transactions that are not finished for good, ascending: `open`, or
    /// every index when `transactions` was changed behind its back.
    var openIndices: [Int] { openCovers == transactions.count ? open : Array(transactions.indices) }

    /// The oldest unfinished transaction (`SKPaymentQueue.default().transactions.first`).
    var firstUnfinished: StoreTransaction? {
        openIndices.first { !transactions[$0].finished }.map { transactions[$0] }
    }

    package func transaction(_ id: String) -> StoreTransaction? {
        index(of: id).map { transactions[$0] }
    }

    /// The index of the first transaction with this id (indexed once the list is long).
    func index(of id: String) -> Int? {
        positions.firstIndex(of: id, count: transactions.count) {
            transactions.indices.first { transactions[$0].id == id }
        }
    }

    /// The positions in `transactions` of those whose `appAccountToken` is one of `tokens`;
    /// nil while the list is short (not indexed: scan it).
    func positions(withTokens tokens: [String]) -> [Int]? {
        var found: [Int] = []
        for token in tokens {
            guard let positions = tokenPositions.positions(of: token, count: transactions.count) else { return nil }
            found += positions
        }
        return found
    }

    mutating func update(_ id: String, _ change: (inout StoreTransaction) -> Void) {
        guard let i = index(of: id) else { return }
        revision &+= 1
        let wasFinished = transactions[i].finished
        let wasRefunded = transactions[i].refundedAt != nil
        change(&transactions[i])
        if !wasFinished && transactions[i].finished { finishedForGood(i) }
        if wasRefunded != (transactions[i].refundedAt != nil) { refundsInEffect += wasRefunded ? -1 : 1 }
    }

    /// Transaction `i` was just finished: it leaves `open` unless a receipt still lists it
    /// (a purchased non-consumable or non-renewing subscription, forever).
    mutating func finishedForGood(_ i: Int) {
        let owned = transactions[i].state == .purchased || transactions[i].state == .restored
        let kind = catalog.kind(of: transactions[i].productId)
        if owned, kind == .nonConsumable || kind == .nonRenewing { return }
        if openCovers == transactions.count, let k = open.firstIndex(of: i) { open.remove(at: k) }
    }

    /// A new transaction, purchasing; its `appAccountToken` is its username's (a UUID), or
    /// `token` for a subscription's period (the subscription's token: its latest purchase's).
    mutating func newTransaction(
        product: String, username: String?, now: VirtualTime,
        outcome: PlannedOutcome, token: SubscriptionToken? = nil
    ) -> StoreTransaction {
        var t = StoreTransaction(
            id: decimalString(nextTransactionNumber), productId: product,
            state: .purchasing, applicationUsername: username,
            finished: false, createdAt: now, chargedAt: nil,
            originalId: nil, outcome: outcome, failure: nil)
        if let token { t.setAppAccountToken(token.value) }
        nextTransactionNumber += 1
        revision &+= 1
        transactions.append(t)
        positions.appended(to: transactions, \.id)
        tokenPositions.appended(to: transactions, \.appAccountToken)
        if openCovers == transactions.count - 1 {
            open.append(transactions.count - 1)
            openCovers = transactions.count
        }
        if !overLimit && openIndices.count > Self.unfinishedLimit {
            var unfinished = 0
            for i in openIndices where !transactions[i].finished { unfinished += 1 }
            overLimit = unfinished > Self.unfinishedLimit
        }
        return t
    }

    /// What the next payment will do, from the faults armed (a one-shot fault is used up).
    mutating func plannedOutcome(_ policy: Policy) -> PlannedOutcome {
        if policy.storekit == .two && outage {
            // StoreKit 2: no verify route, so an outage blocks purchases, not crediting.
            return .fail(.network)
        }
        if interruptNext {
            interruptNext = false
            return .interrupt
        }
        if let failure = nextFailure {
            nextFailure = nil
            return .fail(failure)
        }
        // The StoreKit configuration file's `_failTransactionsEnabled` or Purchase error.
        if let configured = catalog.settings.purchaseFailure { return .fail(configured) }
        return askToBuy ? .askToBuy : .charge
    }

    /// `SKPaymentQueue.add(SKPayment)`: the purchase sheet opens; the outcome comes later.
    mutating func addPayment(
        product: String, applicationUsername: String?, user: String,
        order: String?, promotional: IntroductoryOffer? = nil, _ out: inout Outbox
    ) -> String {
        let outcome = plannedOutcome(out.policy)
        if let unfinished = blockedByUnfinished(product, &out) { return unfinished }
        if outcome == .askToBuy, let pending = pendingAskToBuy(product) {
            // TN2259: a request repeated while one waits for the parent is the same request.
            if out.policy.storekit == .two {
                out.log(.storeKit, .noted("Ask to Buy: the request for \(product) is merged into the one waiting"))
            } else {
                out.log(.storeKit, .askToBuyMerged(txn: pending, product: product))
            }
            return pending
        }
        let t = newTransaction(
            product: product, username: applicationUsername,
            now: out.now, outcome: outcome)
        if catalog.isSubscription(product) { noteSubscriptionBuyer(t.id, user: user, promotional: promotional) }
        if out.policy.storekit == .two {
            out.log(
                .app,
                .purchaseStarted(
                    txn: t.id, product: product, appAccountToken: t.appAccountToken,
                    user: user, order: order))
        } else {
            out.log(
                .app,
                .paymentAdded(
                    txn: t.id, product: product,
                    applicationUsername: applicationUsername,
                    user: user, order: order))
        }
        // StoreKit 2 has no transaction states: an Ask to Buy request makes no Transaction
        // until the parent approves, so the transcript shows no id for it (docs/world.md).
        if out.policy.storekit == .one || outcome != .askToBuy {
            out.log(.storeKit, .transactionUpdated(txn: t.id, product: product, state: .purchasing))
        }
        if outcome == .interrupt {
            // The user must act outside the app: a failed transaction at once.
            interrupted.append(InterruptedPayment(txn: t.id, user: user, order: order))
            resolve(t.id, as: .fail(.cancelled), out: &out)
            out.narrate(.fault, .faultFired("interrupted purchase: \(t.id) failed; a separate purchase follows in 30s"))
            out.after(AppStore.interruptedChargeMs, .storeInterruptedCharge(origin: t.id))
        } else {
            out.after(AppStore.purchaseSheetMs, .storeResolvePayment(txn: t.id))
        }
        return t.id
    }

    /// An Ask to Buy request for `product` that still waits for the parent.
    func pendingAskToBuy(_ product: String) -> String? {
        transactions.last { t in
            !t.finished && t.productId == product
                && (t.state == .deferred || t.state == .purchasing && t.outcome == .askToBuy)
        }?.id
    }

    /// The purchase sheet is done: charge, fail or defer, as planned.
    mutating func resolvePayment(_ id: String, _ out: inout Outbox) {
        guard let t = transaction(id), t.state == .purchasing, !t.finished else { return }
        resolve(id, as: t.outcome, out: &out)
    }

    mutating func resolve(_ id: String, as outcome: PlannedOutcome, out: inout Outbox) {
        guard let t = transaction(id) else { return }
        switch outcome {
        case .charge, .interrupt:
            charge(id, out: &out)
        case .fail(let reason) where out.policy.storekit == .two:
            // StoreKit 2 keeps no failed transaction: the error goes to the purchase call
            // only, and nothing is left in `Transaction.unfinished`.
            update(id) {
                $0.state = .failed; $0.failure = reason; $0.finished = true
            }
            if case .fail = t.outcome {
                out.narrate(.fault, .faultFired("purchase \(id) failed: \(reason.storeKit2Error)"))
            }
            out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
        case .fail(let reason):
            update(id) {
                $0.state = .failed; $0.failure = reason
            }
            if case .fail = t.outcome {
                out.narrate(.fault, .faultFired("payment \(id) failed: \(reason.skError)"))
            }
            out.log(.storeKit, .transactionUpdated(txn: id, product: t.productId, state: .failed))
            out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
        case .askToBuy:
            update(id) { $0.state = .deferred }
            if out.policy.storekit == .one {
                out.log(.storeKit, .transactionUpdated(txn: id, product: t.productId, state: .deferred))
            }
            out.after(AppStore.askToBuyExpiryMs, .storeDeferredExpired(txn: id))
            // StoreKit 2: the purchase call returns `.pending`.
            if out.policy.storekit == .two {
                out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
            }
        }
    }

    mutating func charge(_ id: String, out: inout Outbox) {
        guard let t = transaction(id), let product = catalog.product(t.productId) else { return }
        if let terms = product.subscription { return startSubscription(id, product: product, terms: terms, &out) }
        if product.kind == .nonConsumable, let original = owner(of: product.id) {
            // Apple does not charge a non-consumable twice: a purchased transaction with a
            // new id, the original's original_transaction_id, and no money taken.
            update(id) {
                $0.state = .purchased; $0.chargedAt = out.now; $0.originalId = original
            }
            out.log(.appStore, .ownedProductNotCharged(txn: id, product: t.productId, original: original))
            out.log(.storeKit, .transactionUpdated(txn: id, product: t.productId, state: .purchased))
            out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
            return
        }
        update(id) {
            $0.state = .purchased; $0.chargedAt = out.now
        }
        out.log(.appStore, .paymentCharged(txn: id, product: t.productId, priceCents: product.priceCents))
        out.log(.storeKit, .transactionUpdated(txn: id, product: t.productId, state: .purchased))
        out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
        if out.policy.serverNotifications { notify(.oneTimeCharge, id, &out) }
    }

    /// The transaction that first bought a product the Apple ID owns, if it does.
    func owner(of product: String) -> String? {
        // A refunded purchase (its revocationDate set, whole or prorated) owns nothing: the
        // Apple ID buys it again, and is charged again.
        transactions.first { t in
            t.productId == product && t.originalId == nil && t.chargedAt != nil && t.refundedAt == nil
                && (t.state == .purchased || t.state == .restored)
        }?.id
    }

    /// 30s after an interrupted purchase: a separate `purchased` transaction that charges.
    mutating func interruptedCharge(origin: String, _ out: inout Outbox) {
        guard let first = transaction(origin),
            let k = interrupted.firstIndex(where: { $0.txn == origin })
        else { return }
        let payer = interrupted.remove(at: k)
        let t = newTransaction(
            product: first.productId, username: first.applicationUsername,
            now: out.now, outcome: .charge)
        if out.policy.storekit == .two {
            out.log(
                .storeKit,
                .purchaseCompletedOutsideApp(
                    txn: t.id, product: t.productId,
                    user: payer.user, order: payer.order))
        } else {
            out.log(
                .storeKit,
                .paymentAdded(
                    txn: t.id, product: t.productId,
                    applicationUsername: t.applicationUsername,
                    user: payer.user, order: payer.order))
        }
        if catalog.isSubscription(first.productId) { noteSubscriptionBuyer(t.id, user: payer.user) }
        charge(t.id, out: &out)
    }
}
