/// The network routes of the world. `order` and `recharge` go from the app to the merchant
/// server; `verify` goes from the merchant server to the App Store.
public enum Route: String, Sendable, Hashable, CaseIterable, Comparable {
    case order, recharge, verify

    public static func < (a: Route, b: Route) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Which half of an exchange a network message is.
public enum Direction: String, Sendable, Hashable {
    case request, response
}
