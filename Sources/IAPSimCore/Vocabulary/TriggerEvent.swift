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

    /// The events of the server side, which explore's schedules never wait for (a fixed
    /// list keeps every seeded schedule as it was).
    package var serverSide: Bool { self == .refunded || self == .notified || self == .clawedBack }

    /// The event's position among `allCases`: a payload-free enum is stored as its case
    /// index, so this costs nothing (a test holds it to `allCases`).
    var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
