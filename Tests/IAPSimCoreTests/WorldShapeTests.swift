import Testing

@testable import IAPSimCore

/// Structure 4 (ARCHITECTURE.md, "World/"): `World` is the engine only, its state in at most
/// 15 stored fields by role (the parts, the clock, the queue and outbox, the journal, the
/// counters); the server's reconciliation and status poll are the server's own timers.
@Suite struct WorldShapeTests {
    @Test func theWorldHoldsAtMostFifteenStoredFields() {
        let sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: PolicyPreset.hardened.policy))
        let fields = Mirror(reflecting: sim.world).children.compactMap(\.label)
        #expect(fields.count <= 15, "World's stored fields: \(fields)")
        #expect(fields.contains("server") && fields.contains("counters") && fields.contains("journal"), "\(fields)")
        for job in ["reconcileArmed", "reconcileIdleAt", "statusPollArmed"] {
            #expect(!fields.contains(job), "\(job) is the server's own timer")
        }
    }

    @Test func theServersJobsAreItsOwn() {
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: PolicyPreset.sk2Hardened.policy))
        #expect(!sim.server.jobs.reconcileArmed)
        _ = sim.apply(.buy(product: "coins_100"))
        _ = sim.settle()
        // sk2-hardened reconciles: after a purchase the job is scheduled, on the server.
        #expect(sim.server.jobs.reconcileArmed || sim.server.jobs.reconcileIdleAt != nil)
    }
}
