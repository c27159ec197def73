import Testing

@testable import IAPSimCore

/// The auditor keeps its own clock: the ends of its grace periods are its list, never events
/// of the world's queue. A world's run ends at its last world event, whatever the grace.
@Suite struct AuditorClockTests {
    /// The world's own facts of a run (the auditor's words left out), and when `settle` ended.
    static func worldRun(grace: VirtualTime, _ preset: PolicyPreset) -> (facts: [String], settledAt: VirtualTime) {
        var sim = Simulation(WorldConfig(seed: 7, users: ["alice"], policy: preset.policy))
        sim.auditor.graceMs = grace
        sim.apply(.buy(product: "coins_100"))
        sim.run(until: 2_000)
        sim.apply(.crash)
        sim.settle()
        let settledAt = sim.now
        sim.apply(.buy(product: "coins_550"))
        sim.settle()
        let facts = sim.log.filter { $0.part != .auditor }.map { "\($0.time) \($0.fact)" }
        return (facts, settledAt)
    }

    @Test(arguments: [PolicyPreset.naive, .hardened, .sk2Naive, .sk2Hardened])
    func theGracePeriodDoesNotMoveTheWorld(_ preset: PolicyPreset) {
        let short = Self.worldRun(grace: 30_000, preset)
        let long = Self.worldRun(grace: 900_000, preset)
        #expect(short.facts == long.facts)
        #expect(short.settledAt == long.settledAt)
        #expect(!short.facts.isEmpty)
    }

    @Test func settleEndsAtTheLastWorldEvent() {
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: PolicyPreset.hardened.policy))
        sim.apply(.buy(product: "coins_100"))
        sim.settle()
        #expect(sim.isIdle)
        // Its last event is a timer of the world (a request's time-out), not the auditor's look.
        #expect(sim.now < sim.auditor.charges[0].chargedAt + sim.auditor.graceMs)
        // The charge's grace period is still running on the auditor's clock.
        #expect((sim.auditor.nextGraceEnd ?? 0) > sim.now)
        #expect(!sim.log.contains { "\($0.fact)".contains("auditCheck") })
    }

    @Test func theVerdictWaitsForTheGracePeriodWithoutAnEventOfTheWorld() {
        var h = Harness(.naive, users: ["alice"])
        h.run(.buy(product: "coins_100"))
        h.when("purchasing")
        h.run(.closeStore)
        var sim = h.sim
        sim.settle()
        let events = sim.eventsProcessed
        let settledAt = sim.now
        #expect(sim.auditor.anomalies.isEmpty, "the grace period has not ended when the world settles")
        var written: [LogEntry]? = []
        sim.concludeVerdict(into: &written)
        #expect(sim.eventsProcessed == events, "letting time pass runs no event of the world")
        #expect(sim.auditor.anomalies.map(\.type) == [.lostOrder])
        let opened = written?.first { if case .anomalyOpened = $0.fact { true } else { false } }
        #expect(opened?.time == sim.auditor.charges[0].chargedAt + sim.auditor.graceMs + 1)
        #expect(settledAt < (opened?.time ?? 0))
    }
}
