/// The part of the world a fact belongs to; the lanes of logs and diagrams.
public enum Part: String, Sendable, Hashable, CaseIterable {
    case user = "User"
    case app = "App"
    case storeKit = "StoreKit"
    case network = "Network"
    case server = "Merchant server"
    case appStore = "App Store"
    case attacker = "Attacker"
    case fault = "Fault"
    case auditor = "Auditor"
}

/// The states of an `SKPaymentTransaction`.
public enum TransactionState: String, Sendable, Hashable, CaseIterable {
    case purchasing, purchased, failed, restored, deferred
}

/// Who sent a request to the merchant server.
public enum Sender: String, Sendable, Hashable {
    case app, attacker
}

/// A fact's payload that is shown in words (in the log's text and its JSON export).
public protocol Worded {
    var words: String { get }
}

/// Why the app sent a recharge request: the first try, a retry, or a resend.
/// The auditor words a resolution from it ("redelivered at launch", "retry 2 …").
public enum SendReason: Sendable, Hashable, Worded {
    case firstDelivery
    case redelivery(ObserverTiming)
    case immediateRetry(Int)
    case periodicRetry(Int)
    case resend(ResendTrigger)
    case loginArrived
    case replay

    public var words: String {
        switch self {
        case .firstDelivery: return "delivered on the first try"
        case .redelivery(.launch): return "redelivered at launch"
        case .redelivery(.storeScreen): return "redelivered when the store screen opened"
        case .immediateRetry(let n): return "immediate retry \(n)"
        case .periodicRetry(let n): return "periodic retry \(n)"
        case .resend(.launch): return "resent from saved receipt at launch"
        case .resend(.login): return "resent from saved receipt at login"
        case .resend(.network): return "resent when the network returned"
        case .resend(.purchase): return "resent when a new purchase started"
        case .loginArrived: return "sent once a user logged in"
        case .replay: return "replayed by the attacker"
        }
    }
}

/// What a request's sender saw of the outcome of one network exchange.
public enum MessageFate: String, Sendable, Hashable {
    case inFlight = "in flight"
    case delivered
    case dropped
    case timedOut = "timed out"
    case offline = "failed: offline"
    case lost = "lost (receiver gone)"
}

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

/// One log entry: a fact, when it happened, and the part it belongs to.
public struct LogEntry: Sendable, Hashable {
    public var time: VirtualTime
    public var part: Part
    public var fact: Fact {
        didSet { triggers = TriggerSet(fact.triggerCode) }
    }
    /// The trigger code of `fact`, kept beside it: the engine asks it of every entry, and
    /// matching a fact that sits in a buffer costs a copy of it.
    private(set) var triggers: TriggerSet

    public init(time: VirtualTime, part: Part, fact: __owned Fact) {
        self.time = time
        self.part = part
        triggers = TriggerSet(fact.triggerCode)
        self.fact = fact
    }
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

/// A set of trigger codes (`Fact.triggerCode`), as bits: what one step wrote.
struct TriggerSet: Sendable, Hashable {
    var bits: UInt32 = 0

    init() {}

    init(_ code: Int?) { insert(code) }

    mutating func formUnion(_ other: TriggerSet) { bits |= other.bits }

    mutating func insert(_ code: Int?) {
        if let code { bits |= 1 << UInt32(code) }
    }

    func contains(_ code: Int) -> Bool { bits & (1 << UInt32(code)) != 0 }
}
