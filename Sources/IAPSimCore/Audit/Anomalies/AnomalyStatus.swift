/// Where an anomaly stands.
/// `open`: something in the system can still make it right; `resolved`: made right;
/// `blocked`: an attack or bad request refused with no money lost; `permanent`: nothing
/// left in the system can make it right.
package enum AnomalyStatus: String, Sendable, Hashable, CaseIterable, Comparable {
    case open, resolved, blocked, permanent

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What the status says of an anomaly, for the docs' status table (Markdown; never printed).
    package var meaning: String {
        switch self {
        case .open:
            return "not made right yet, but something in the system can still make it right (an unfinished "
                + "transaction waiting for a launch, a kept receipt waiting for a retry)"
        case .resolved:
            return "made right, with the mechanism that did it (\"redelivered at launch\", \"resent when the "
                + "network returned\")"
        case .blocked: return "an attack or a bad request the server refused, with no money lost"
        case .permanent:
            return "nothing left in the automated system can make it right (the transaction was finished and no "
                + "record remains; coins were granted without payment; every relaunch repeats the same failure). "
                + "Support can still find the order by Look Up Order ID (the order ID on Apple's e-mailed receipt), "
                + "or Apple can refund it"
        }
    }

    /// `open` and `permanent` count as unresolved.
    package var isUnresolved: Bool { self == .open || self == .permanent }
}
