/// One thing that happened, named as a fact in the past tense. The event log is a list of
/// these with their virtual time; scenario triggers, the UI and exports all read it.
package enum Fact: Sendable, Hashable {
    // Commands and faults.
    case commandIssued(Command)
    case commandIgnored(Command, reason: String)
    case faultArmed(String)
    case faultFired(String)
    case policyChanged(PolicyCommand)
    /// A line in a part's own words that changes nothing: the App Store's alerts, and the
    /// places where the simulator follows its own assumption rather than Apple's documentation.
    case noted(String)
    // The app process.
    case appLaunched(freshInstall: Bool)
    case appCrashed
    case appUninstalled
    case appBackgrounded
    case appForegrounded
    case observerRegistered
    case storeScreenOpened
    case storeScreenClosed
    case userLoggedIn(String)
    case userLoggedOut(String)
    case networkWentOff
    case networkCameBack
    case purchaseAbandoned(product: String, reason: String)
    case paymentAdded(txn: String, product: String, applicationUsername: String?, user: String, order: String?)
    case rechargeWaitingForLogin(txn: String)
    case rechargeWaitingForBuyer(txn: String, buyer: String, loggedIn: String)
    case rechargeSent(txn: String, order: String?, user: String, reason: SendReason, forDelivered: String?)
    /// The app paired the delivered transaction's order with `txn`, already in flight: it
    /// sends nothing (the auditor's duplicate receipt, docs/world.md, "The rules").
    case rechargeAlreadyInFlight(txn: String, forDelivered: String)
    case receiptSaved(txn: String, tier: PersistTier)
    case receiptDeleted(txn: String, tier: PersistTier, why: String)
    case retryScheduled(txn: String, inMs: VirtualTime, attempt: Int)
    case rechargeAnswered(txn: String, outcome: RechargeAnswer)
    case transactionFinished(txn: String)
    case finishFailedError(txn: String, reason: String)
    case finishSkipped(txn: String, reason: String)
    // StoreKit and the App Store.
    case transactionUpdated(txn: String, product: String, state: TransactionState)
    case paymentCharged(txn: String, product: String, priceCents: Int)
    case ownedProductNotCharged(txn: String, product: String, original: String)
    case askToBuyMerged(txn: String, product: String)
    case transactionsDelivered(txns: [String], redelivery: Bool)
    case deferredExpired(txn: String)
    case receiptVerified(status: Int, entries: Int)
    // The network.
    case messageSent(id: Int, route: Route, direction: Direction, bytes: Int, sender: Sender)
    case messageArrived(id: Int, route: Route, direction: Direction, latencyMs: VirtualTime)
    case messageDropped(id: Int, route: Route, direction: Direction)
    /// Arrived where nobody takes it any more: the app process that sent the request died
    /// (or a lookup was abandoned) before the answer came. Lost, though the wire carried it.
    case messageUnclaimed(id: Int, route: Route, direction: Direction, latencyMs: VirtualTime)
    case requestFailedOffline(route: Route)
    case requestTimedOut(id: Int, route: Route)
    // The merchant server.
    case orderCreated(order: String, user: String, product: String, token: String, sender: Sender)
    case coinsCredited(
        user: String, coins: Int, product: String, txn: String, order: String?, sender: Sender, via: SendReason)
    case rechargeRefused(txn: String, reason: String, sender: Sender)
    case verifyRetriedInSandbox(txn: String)
    case alreadyCredited(txn: String, sender: Sender)
    // The attacker.
    case replayPrepared(txn: String)
    case replayUnavailable
    // StoreKit 2 (docs/world.md): its own names for the app's side, the signed values.
    case listenerStarted
    case purchaseStarted(txn: String, product: String, appAccountToken: String?, user: String, order: String?)
    case purchaseReturned(txn: String, product: String, result: PurchaseResult)
    case purchaseCompletedOutsideApp(txn: String, product: String, user: String, order: String?)
    case updatesEmitted(txns: [String], launchReplay: Bool)
    /// A refund reached the running app on `Transaction.updates` (the revoked transaction).
    case revocationEmitted(txn: String)
    case unfinishedSwept(txns: [String])
    case transactionSigned(SignedTransaction)
    case finishCalled(txn: String)
    case jwsSaved(txn: String, tier: PersistTier)
    case jwsDeleted(txn: String, tier: PersistTier, why: String)
    case jwsChecked(txn: String, signer: Signer, verified: Bool)
    case signedReplayPrepared(txn: String)
    case forgeryPrepared(SignedTransaction)
    // The server side (docs/world.md, "The server side").
    /// `priceCents`: the money given back (the price, or the refunded share of it).
    case refundIssued(txn: String, product: String, priceCents: Int, percent: Int)
    case refundReversed(txn: String)
    case reversalHeard(txn: String, outcome: String)
    case coinsRestored(user: String, coins: Int, txn: String, balance: Int)
    // Indirect: every fact is as large as the largest payload inline.
    indirect case notificationSent(ServerNotification)
    case notificationUnanswered(uuid: String, type: NotificationType, txn: String, retryInMs: VirtualTime)
    case notificationDropped(uuid: String, type: NotificationType, txn: String)
    case notificationReceived(uuid: String, type: NotificationType, txn: String, attempt: Int)
    case notificationUnbound(txn: String, reason: String)
    case serverUnavailable(route: Route)
    case refundHeard(txn: String, outcome: String)
    case coinsClawedBack(user: String, coins: Int, txn: String, balance: Int)
    case coinsSpent(user: String, coins: Int, balance: Int)
    case historyChecked(lookup: String, transactions: Int)
    case reconcileSkipped(reason: String)
    // Subscriptions (docs/world.md, "Subscriptions").
    /// The App Store changed a subscription: what happened, and its status after it.
    case subscriptionChanged(SubscriptionNote)
    /// The merchant server changed the access it grants `user` to `productId`'s subscription
    /// group (until `until`; nil: none).
    case accessChanged(user: String, productId: String, until: VirtualTime?, why: String)
    // The auditor.
    case anomalyOpened(id: Int, type: AnomalyType, txn: String?, status: AnomalyStatus, summary: String)
    case anomalyStatusChanged(id: Int, type: AnomalyType, status: AnomalyStatus, mechanism: String?)
}

extension Fact {
    /// The scenario event this fact is, if it is one (`when: charged` waits for
    /// `paymentCharged`).
    @inline(__always)
    package var trigger: TriggerEvent? {
        switch self {
        case .transactionUpdated(_, _, let state):
            switch state {
            case .purchasing: return .purchasing
            case .failed: return .failed
            case .deferred: return .deferred
            case .purchased, .restored: return nil
            }
        case .paymentCharged: return .charged
        case .transactionsDelivered, .updatesEmitted, .revocationEmitted: return .delivered
        case .purchaseReturned(_, _, let result):
            switch result {
            case .success: return .delivered
            // StoreKit 2's Ask to Buy: `.pending` is the deferral (no transaction state).
            case .pending: return .deferred
            case .userCancelled, .failed: return .failed
            }
        case .finishCalled: return .finished
        case .messageSent(_, let route, .request, _, _):
            switch route {
            case .order: return .requestOrder
            case .recharge: return .requestRecharge
            case .verify: return .requestVerify
            case .notify, .serverAPI: return nil
            }
        case .messageSent(_, let route, .response, _, _):
            return route == .recharge ? .responseRecharge : nil
        case .coinsCredited: return .credited
        case .refundIssued: return .refunded
        case .notificationReceived: return .notified
        case .coinsClawedBack: return .clawedBack
        case .subscriptionChanged(let note): return note.event.trigger
        case .transactionFinished: return .finished
        case .appCrashed: return .crashed
        case .appLaunched: return .launched
        case .appBackgrounded: return .backgrounded
        case .appForegrounded: return .foregrounded
        default: return nil
        }
    }

    /// The name of `trigger`, as a scenario's `when:` writes it.
    package var triggerName: String? { trigger?.rawValue }
}
