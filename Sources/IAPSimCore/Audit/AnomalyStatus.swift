/// Where an anomaly stands.
/// `open`: something in the system can still make it right; `resolved`: made right;
/// `blocked`: an attack or bad request refused with no money lost; `permanent`: nothing
/// left in the system can make it right.
package enum AnomalyStatus: String, Sendable, Hashable, CaseIterable, Comparable {
    case open, resolved, blocked, permanent

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// `open` and `permanent` count as unresolved.
    package var isUnresolved: Bool { self == .open || self == .permanent }
}
