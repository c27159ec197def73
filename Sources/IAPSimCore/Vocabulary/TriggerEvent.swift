/// The events a scenario's `when:` step can wait for: one case per event, spelled as
/// scenario files write it, in the order the format lists them. A fact names the event it
/// is in `Fact.trigger`; nothing else lists or numbers them.
package enum TriggerEvent: String, Sendable, Hashable, CaseIterable {
    case purchasing
    /// The App Store moved a transaction to purchased and took the money.
    case charged
    case failed
    case deferred
    /// A transaction reached the app's observer.
    case delivered
    case requestOrder = "request order"
    case requestRecharge = "request recharge"
    case requestVerify = "request verify"
    case responseRecharge = "response recharge"
    /// The merchant server added coins.
    case credited
    /// `finishTransaction` ran.
    case finished
    case crashed
    case launched
    /// The app left for the background (it runs no code there).
    case backgrounded
    /// The app came back from the background.
    case foregrounded
    /// Apple refunded a charge.
    case refunded
    /// A notification (V2) reached the merchant server.
    case notified
    /// The merchant server took the coins of a refunded charge back.
    case clawedBack = "clawed-back"
    /// A subscription renewed (or recovered from billing retry).
    case renewed
    /// A subscription failed to renew: billing retry began.
    case renewalFailed = "renewal-failed"
    /// A subscription expired.
    case expired

    /// What the event waits for, for the docs' trigger table (Markdown; never printed).
    package var meaning: String {
        switch self {
        case .purchasing: return "a transaction entered `purchasing` (never an Ask to Buy request in StoreKit 2)"
        case .charged: return "the App Store moved a transaction to `purchased` and took the money"
        case .failed: return "a transaction failed"
        case .deferred:
            return "a transaction was deferred (Ask to Buy); in StoreKit 2, `purchase()` returned `.pending`"
        case .delivered:
            return "transactions reached the app's observer, its purchase call or its `Transaction.updates` listener "
                + "(a revoked one included)"
        case .requestOrder: return "the app sent `POST /orders`"
        case .requestRecharge: return "the app sent `POST /recharge`"
        case .requestVerify: return "the server sent the receipt to the App Store"
        case .responseRecharge: return "the server's answer to a recharge left it"
        case .credited: return "the merchant server credited coins or an entitlement"
        case .finished: return "`finishTransaction` ran"
        case .crashed: return "the app process died"
        case .launched: return "the app launched"
        case .backgrounded: return "the app left for the background"
        case .foregrounded: return "the app came back from the background"
        case .refunded: return "Apple refunded a charge"
        case .notified: return "a notification V2 reached the merchant server (and was answered 200)"
        case .clawedBack: return "the merchant server took a refunded charge's coins back"
        case .renewed:
            return "the App Store renewed a subscription (a renewal, charged a day before the expiry, or a recovery "
                + "from billing retry)"
        case .renewalFailed: return "a subscription's renewal failed: billing retry began (`DID_FAIL_TO_RENEW`)"
        case .expired: return "a subscription expired (auto-renew off, or billing retry over)"
        }
    }

    /// The events of the server side, which explore's schedules never wait for (a fixed
    /// list keeps every seeded schedule as it was).
    package var serverSide: Bool {
        switch self {
        case .refunded, .notified, .clawedBack, .renewed, .renewalFailed, .expired: return true
        case .purchasing, .charged, .failed, .deferred, .delivered, .requestOrder, .requestRecharge, .requestVerify,
            .responseRecharge, .credited, .finished, .crashed, .launched, .backgrounded, .foregrounded:
            return false
        }
    }

    /// The event's position among `allCases`: a payload-free enum is stored as its case
    /// index, so this costs nothing (a test holds it to `allCases`).
    var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
