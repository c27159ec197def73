import IAPSimCore

/// Apple's rate limits, per endpoint, counted per virtual second (docs/server-api.md):
/// production takes the table below (requests per second, the simulator's reading of
/// Apple's "Identifying rate limits"), the sandbox a tenth of it (at least 1).
package struct APIRateLimits: Sendable {
    package static let production: [(endpoint: String, perSecond: Int)] = [
        ("transactions", 50), ("history", 50), ("lookup", 50), ("notification-history", 50),
        ("test-notification", 1), ("test-notification-status", 1), ("consumption", 50),
        ("subscriptions", 50),
    ]

    package static func limit(_ endpoint: String, in environment: StoreEnvironment) -> Int {
        let perSecond = production.first { $0.endpoint == endpoint }?.perSecond ?? 50
        return environment == .production ? perSecond : max(1, perSecond / 10)
    }

    private var counts: [(endpoint: String, second: Int, count: Int)] = []

    package init() {}

    /// Counts one call; false when the endpoint is past its limit in this virtual second.
    mutating func admit(_ endpoint: String, second: Int, limit: Int) -> Bool {
        if let i = counts.firstIndex(where: { $0.endpoint == endpoint }) {
            if counts[i].second != second { counts[i] = (endpoint, second, 0) }
            counts[i].count += 1
            return counts[i].count <= limit
        }
        counts.append((endpoint, second, 1))
        return 1 <= limit
    }
}
