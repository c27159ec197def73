/// The network routes of the world. `order` and `recharge` go from the app to the merchant
/// server; `verify` goes from the merchant server to the App Store.
package enum Route: String, Sendable, Hashable, CaseIterable, Comparable {
    case order, recharge, verify

    package static func < (a: Route, b: Route) -> Bool { a.index < b.index }

    /// The position in `allCases`.
    package var index: Int {
        switch self {
        case .order: return 0
        case .recharge: return 1
        case .verify: return 2
        }
    }
}

/// Which half of an exchange a network message is.
package enum Direction: String, Sendable, Hashable {
    case request, response
}
