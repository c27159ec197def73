import Testing

@testable import IAPSimCore

/// The one endpoint table: every path it writes is matched back to its own endpoint (the
/// router and the generated docs cannot disagree), and nothing else is.
@Suite struct ServerAPIEndpointTests {
    @Test func everyEndpointsPathMatchesItselfWithItsArgument() {
        for endpoint in ServerAPIEndpoint.allCases {
            let segments = endpoint.path.split(separator: "/").map {
                $0.hasPrefix("{") ? "2000000000000001" : String($0)
            }
            let matched = ServerAPIEndpoint.match(method: endpoint.method, segments: segments)
            #expect(matched?.0 == endpoint, "\(endpoint.path)")
            #expect(matched?.1 == (endpoint.path.contains("{") ? "2000000000000001" : nil))
            let other = endpoint.method == "GET" ? "DELETE" : "GET"
            #expect(ServerAPIEndpoint.match(method: other, segments: segments)?.0 != endpoint)
        }
    }

    @Test func otherPathsMatchNothing() {
        for path in ["/inApps/v1/transactions", "/inApps/v3/history/1", "/v1/transactions/1", "/inApps/v1/lookup/1/2"] {
            let segments = path.split(separator: "/").map(String.init)
            #expect(ServerAPIEndpoint.match(method: "GET", segments: segments) == nil, "\(path)")
        }
    }

    @Test func theSandboxAllowsATenthAtLeastOne() {
        #expect(ServerAPIEndpoint.history.perSecond(in: .production) == 50)
        #expect(ServerAPIEndpoint.history.perSecond(in: .sandbox) == 5)
        #expect(ServerAPIEndpoint.testNotification.perSecond(in: .sandbox) == 1)
        #expect(ServerAPIEndpoint.history.rateLimitName == ServerAPIEndpoint.historyV1.rateLimitName)
    }
}
