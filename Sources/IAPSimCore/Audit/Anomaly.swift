/// The auditor's anomaly types (DOMAIN.md).
public enum AnomalyType: String, Sendable, Hashable, CaseIterable, Comparable {
    case lostOrder = "lost-order"
    case missedOrder = "missed-order"
    case replayFraud = "replay-fraud"
    case duplicateReceipt = "duplicate-receipt"
    case doubleCredit = "double-credit"
    case wrongAccount = "wrong-account"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where an anomaly stands.
/// `open`: something in the system can still make it right; `resolved`: made right;
/// `blocked`: an attack or bad request refused with no money lost; `permanent`: nothing
/// left in the system can make it right.
public enum AnomalyStatus: String, Sendable, Hashable, CaseIterable, Comparable {
    case open, resolved, blocked, permanent

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// `open` and `permanent` count as unresolved.
    public var isUnresolved: Bool { self == .open || self == .permanent }
}

/// One anomaly the auditor found.
public struct Anomaly: Sendable, Hashable, Identifiable {
    public var id: Int
    public var type: AnomalyType
    public var status: AnomalyStatus
    public var txn: String?
    public var order: String?
    public var user: String?
    public var openedAt: VirtualTime
    public var changedAt: VirtualTime
    /// How it was resolved or blocked, or why it is permanent, in a trainee's words.
    public var mechanism: String?
    /// What went wrong, in one line.
    public var summary: String
}
