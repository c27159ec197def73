import IAPSimCore

/// Apple's rate limits, per endpoint, counted per second (docs/server-api.md): the calls each
/// endpoint of `ServerAPIEndpoint` allows (its `perSecond(in:)`), counted here.
package struct APIRateLimits: Sendable {
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
