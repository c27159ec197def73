import IAPSimCore

/// The API's faults (`server-api-fail N [CODE]`, `server-api-slow DURATION`,
/// `server-api-outage on|off`) and its rate limits. Kept by the server; the runner arms
/// the faults through `AppStoreAPIServer.arm`.
package struct APIFaults: Sendable {
    /// The next `failing` calls answer 5xx with `failCode` (default 5000001).
    package var failing = 0
    package var failCode = 5_000_001
    /// Each answer waits this long on the wall clock (milliseconds) before it leaves.
    package var slowMs = 0
    /// Every call answers 503 `5000000`.
    package var outage = false

    package init() {}

    /// `server-api-fail N [CODE]`.
    package mutating func fail(_ count: Int, code: Int = 5_000_001) {
        failing = count
        failCode = code
    }

    /// The fault's answer to this call, if one fires: (status, errorCode).
    mutating func take() -> (status: Int, code: Int)? {
        if outage { return (503, 5_000_000) }
        guard failing > 0 else { return nil }
        failing -= 1
        return (Self.status(of: failCode), failCode)
    }

    /// The HTTP status of an Apple error code: its first three digits (4040010 -> 404).
    static func status(of code: Int) -> Int {
        let status = code / 10_000
        return (400...599).contains(status) ? status : 500
    }
}

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
