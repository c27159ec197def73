/// One thing that happened, named as a fact in the past tense. The event log is a list of
/// these with their virtual time; scenario triggers, the UI and exports all read it.
public enum Fact: Sendable, Hashable {
    // Commands and faults.
    case commandIssued(Command)
    case commandIgnored(Command, reason: String)
    case faultArmed(String)
    case faultFired(String)
    case policyChanged(key: String, value: String)
    // The app process.
    case appLaunched(freshInstall: Bool)
    case appCrashed
    case appUninstalled
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
    case rechargeSent(txn: String, order: String?, user: String, reason: SendReason, forDelivered: String?)
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
    case transactionsDelivered(txns: [String], redelivery: Bool)
    case deferredExpired(txn: String)
    case receiptVerified(status: Int, entries: Int)
    // The network.
    case messageSent(id: Int, route: Route, direction: Direction, bytes: Int, sender: Sender)
    case messageArrived(id: Int, route: Route, direction: Direction, latencyMs: VirtualTime)
    case messageDropped(id: Int, route: Route, direction: Direction)
    case requestFailedOffline(route: Route)
    case requestTimedOut(id: Int, route: Route)
    // The merchant server.
    case orderCreated(order: String, user: String, product: String, token: String, sender: Sender)
    case coinsCredited(user: String, coins: Int, product: String, txn: String, order: String?, sender: Sender, via: SendReason)
    case rechargeRefused(txn: String, reason: String, sender: Sender)
    case alreadyCredited(txn: String, sender: Sender)
    // The attacker.
    case replayPrepared(txn: String)
    case replayUnavailable
    // The auditor.
    case anomalyOpened(id: Int, type: AnomalyType, txn: String?, status: AnomalyStatus)
    case anomalyStatusChanged(id: Int, type: AnomalyType, status: AnomalyStatus, mechanism: String?)
}

extension Fact {
    /// The name a scenario's `when:` trigger uses for this fact, if it is one of them.
    public var triggerName: String? { triggerCode.map { Fact.triggerNames[$0] } }

    /// The position of `triggerName` in `triggerNames`: asked of every fact a run writes,
    /// so it compares numbers, not strings.
    @inline(__always)
    var triggerCode: Int? {
        switch self {
        case .transactionUpdated(_, _, let state):
            switch state {
            case .purchasing: return 0
            case .failed: return 2
            case .deferred: return 3
            case .purchased, .restored: return nil
            }
        case .paymentCharged: return 1
        case .transactionsDelivered: return 4
        case .messageSent(_, let route, .request, _, _):
            switch route {
            case .order: return 5
            case .recharge: return 6
            case .verify: return 7
            }
        case .messageSent(_, let route, .response, _, _):
            return route == .recharge ? 8 : nil
        case .coinsCredited: return 9
        case .transactionFinished: return 10
        case .appCrashed: return 11
        case .appLaunched: return 12
        default: return nil
        }
    }

    /// The code `triggerCode` gives the facts named `name` (nil: no fact has that name).
    static func triggerCode(of name: String) -> Int? { triggerNames.firstIndex(of: name) }

    /// Every name `triggerName` can return, in the order SCENARIO-FORMAT.md lists them.
    public static let triggerNames: [String] = [
        "purchasing", "charged", "failed", "deferred", "delivered", "request order",
        "request recharge", "request verify", "response recharge", "credited", "finished",
        "crashed", "launched",
    ]
}
