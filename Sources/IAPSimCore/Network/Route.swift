/// The network routes of the world. `order` and `recharge` go from the app to the merchant
/// server; `verify` goes from the merchant server to the App Store; `notify` from the App
/// Store to the merchant server (notifications V2); `server-api` from the merchant server to
/// the App Store Server API.
package enum Route: String, Sendable, Hashable, CaseIterable, Comparable {
    case order, recharge, verify, notify
    case serverAPI = "server-api"

    /// The routes a device's connectivity decides: the others run between servers.
    package var fromDevice: Bool { self == .order || self == .recharge }

    /// The routes of the server side (STOREKIT2.md steps 5-6), which carry traffic only when
    /// a server-side policy key is on.
    package var serverSide: Bool { self == .notify || self == .serverAPI }

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
