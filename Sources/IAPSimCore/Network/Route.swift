/// The network routes of the world. `order` and `recharge` go from the app to the merchant
/// server; `verify` goes from the merchant server to the App Store; `notify` from the App
/// Store to the merchant server (notifications V2); `server-api` from the merchant server to
/// the App Store Server API.
package enum Route: String, Sendable, Hashable, CaseIterable, Comparable {
    case order, recharge, verify, notify
    case serverAPI = "server-api"

    /// The routes a device's connectivity decides: the others run between servers.
    var fromDevice: Bool { self == .order || self == .recharge }

    /// The routes of the server side (docs/world.md, "The server side"), which carry traffic only when
    /// a server-side policy key is on.
    package var serverSide: Bool { self == .notify || self == .serverAPI }

    /// Where the route runs and what it carries, for the docs' route table (Markdown; never
    /// printed).
    package var meaning: String {
        switch self {
        case .order: return "app to merchant server: create an order (`POST /orders`)"
        case .recharge: return "app to merchant server: deliver a receipt or signed transaction (`POST /recharge`)"
        case .verify: return "merchant server to App Store: verify a receipt (`verifyReceipt`)"
        case .notify: return "App Store to merchant server: App Store Server Notifications V2"
        case .serverAPI: return "merchant server to the App Store Server API: Get Transaction History"
        }
    }

    package static func < (a: Route, b: Route) -> Bool { a.index < b.index }

    /// The position in `allCases`.
    package var index: Int {
        switch self {
        case .order: return 0
        case .recharge: return 1
        case .verify: return 2
        case .notify: return 3
        case .serverAPI: return 4
        }
    }
}

/// Which half of an exchange a network message is.
package enum Direction: String, Sendable, Hashable {
    case request, response
}

/// A set of routes in one bit per route: an armed drop is read for every message, and a
/// `Set` would hash the route and allocate its storage in every run that arms one.
package struct RouteSet: Sendable, Hashable, ExpressibleByArrayLiteral {
    private var bits: UInt8 = 0

    package init(arrayLiteral routes: Route...) {
        for route in routes { insert(route) }
    }

    package var isEmpty: Bool { bits == 0 }

    package func contains(_ route: Route) -> Bool { bits & Self.bit(route) != 0 }

    package mutating func insert(_ route: Route) { bits |= Self.bit(route) }

    /// Removes `route`; returns it if it was there.
    @discardableResult
    package mutating func remove(_ route: Route) -> Route? {
        guard contains(route) else { return nil }
        bits &= ~Self.bit(route)
        return route
    }

    private static func bit(_ route: Route) -> UInt8 { 1 << UInt8(route.index) }
}
