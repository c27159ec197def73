import Testing

@testable import IAPSimCore

/// A small driver for tests: commands, `when`-style waits, settle, and short accessors.
struct Harness {
    var sim: Simulation

    init(_ policy: Policy, users: [String] = ["alice", "bob"], seed: UInt64 = 1, appRunning: Bool = true) {
        sim = Simulation(WorldConfig(seed: seed, users: users, policy: policy, appRunning: appRunning))
    }

    init(_ preset: PolicyPreset, users: [String] = ["alice", "bob"], seed: UInt64 = 1) {
        self.init(preset.policy, users: users, seed: seed)
    }

    mutating func run(_ commands: Command...) {
        for c in commands { sim.apply(c) }
    }

    /// Steps until an event with that trigger name happens; fails the test if it never does.
    mutating func when(
        _ trigger: String, within: VirtualTime = 600_000,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let limit = sim.now + within
        while let t = sim.nextEventTime, t <= limit {
            if sim.step().contains(where: { $0.fact.triggerName == trigger }) { return }
        }
        Issue.record("event '\(trigger)' did not happen", sourceLocation: sourceLocation)
    }

    /// Settles the world, then lets the auditor's grace periods end (the world does nothing
    /// meanwhile), so that its verdict on waiting charges is in.
    mutating func settle() {
        sim.settle()
        var none: [LogEntry]?
        sim.letGracePeriodsEnd(into: &none)
    }

    func balance(_ user: String) -> Int { sim.server.balance(of: user) }
    var charged: Int { sim.auditor.charges.count }
    var queue: Int { sim.store.queue.count }
    var anomalies: [Anomaly] { sim.auditor.anomalies }

    func anomalies(_ type: AnomalyType) -> [Anomaly] { anomalies.filter { $0.type == type } }

    /// "lost-order:resolved" for every anomaly, in order, for exact assertions.
    var summary: [String] { anomalies.map { "\($0.type.rawValue):\($0.status.rawValue)" } }

    var logText: String { sim.log.map(\.line).joined(separator: "\n") }

    func policy(_ preset: PolicyPreset, _ changes: [(PolicyKey, String)]) -> Policy {
        var p = preset.policy
        for (k, v) in changes { try! p.set(k, to: v) }
        return p
    }
}

func weakened(_ preset: PolicyPreset, _ changes: [(PolicyKey, String)]) -> Policy {
    var p = preset.policy
    for (k, v) in changes { try! p.set(k, to: v) }
    return p
}
