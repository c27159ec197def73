/// The auditor's anomaly types (docs/world.md).
package enum AnomalyType: String, Sendable, Hashable, CaseIterable, Comparable {
    case lostOrder = "lost-order"
    case missedOrder = "missed-order"
    case replayFraud = "replay-fraud"
    case duplicateReceipt = "duplicate-receipt"
    case doubleCredit = "double-credit"
    case wrongAccount = "wrong-account"
    /// Coins credited for a charge that was refunded and not taken back (docs/world.md).
    case refundUnclawed = "refund-unclawed"
    /// The mirror of `refund-unclawed`: more taken back than the refund gave back.
    case refundOverclawed = "refund-overclawed"

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
