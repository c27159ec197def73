/// A fact's payload that is shown in words (in the log's text and its JSON export).
package protocol Worded {
    var words: String { get }
}

/// Why the app sent a recharge request: the first try, a retry, or a resend.
/// The auditor words a resolution from it ("redelivered at launch", "retry 2 …").
package enum SendReason: Sendable, Hashable, Worded {
    case firstDelivery
    case redelivery(ObserverTiming)
    case foregroundRedelivery
    /// StoreKit 1: a payment for the same consumable was blocked and the unfinished
    /// transaction delivered again.
    case rebuyRedelivery
    case immediateRetry(Int)
    /// The round's number, and the interval it waited when that was a back-off (more than
    /// `retry-interval`; 0 otherwise), in 32 bits: the reason stays small, and `Fact` with it.
    case periodicRetry(Int, backedOffMs: UInt32)
    case resend(ResendTrigger)
    case loginArrived
    case replay
    /// StoreKit 2: a transaction `Transaction.updates` emitted after launch.
    case transactionUpdates
    /// StoreKit 2: found by iterating `Transaction.unfinished`.
    case unfinishedSweep
    /// StoreKit 2: a JWS the attacker signed with a key of their own.
    case forgery
    /// The App Store's `ONE_TIME_CHARGE` notification told the server (no app involved).
    case notification
    /// The server found it in Get Transaction History (reconciliation).
    case reconciliation

    package var words: String {
        switch self {
        // The first send of a transaction StoreKit delivered: whatever then happens to the
        // request (walkthrough 7: "delivered" beside "request lost" misled).
        case .firstDelivery: return "first try"
        case .redelivery(.launch): return "redelivered at launch"
        case .redelivery(.storeScreen): return "redelivered when the store screen opened"
        case .foregroundRedelivery: return "redelivered at foreground"
        case .rebuyRedelivery: return "redelivered when the same product was bought again"
        case .immediateRetry(let n): return "immediate retry \(n)"
        case .periodicRetry(let n, 0): return "periodic retry \(n)"
        case .periodicRetry(let n, let ms):
            return "periodic retry \(n), backed off to \(DurationText.format(VirtualTime(ms)))"
        case .resend(.launch): return "resent from saved receipt at launch"
        case .resend(.login): return "resent from saved receipt at login"
        case .resend(.network): return "resent when the network returned"
        case .resend(.purchase): return "resent when a new purchase started"
        case .loginArrived: return "sent once a user logged in"
        case .replay: return "replayed by the attacker"
        case .transactionUpdates: return "emitted on Transaction.updates"
        case .unfinishedSweep: return "found by the Transaction.unfinished sweep"
        case .forgery: return "forged by the attacker"
        case .notification: return "from the App Store's ONE_TIME_CHARGE notification"
        case .reconciliation: return "found by reconciliation (Get Transaction History)"
        }
    }
}
