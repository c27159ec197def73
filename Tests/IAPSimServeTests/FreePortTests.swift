import Testing

@testable import IAPSimServe

/// The spawned backend's port is never one the kernel hands out for `bind(0)` (the API this
/// process serves next, another process's listener): it comes from below the ephemeral range,
/// and it binds when chosen.
@Suite struct FreePortTests {
    @Test func theBackendsPortIsBelowTheEphemeralRangeAndFree() {
        var seen: Set<Int> = []
        for _ in 0..<20 {
            guard let port = ServeSpawn.freePort() else {
                Issue.record("no free port")
                return
            }
            #expect((20_000...32_767).contains(port), "\(port)")
            #expect(ServeSpawn.binds(port), "\(port) was chosen but does not bind")
            seen.insert(port)
        }
        // Random, not one fixed port: two serves started together rarely meet.
        #expect(seen.count > 10, "\(seen.sorted())")
    }
}
