import IAPSimCore

extension Scenario {
    /// The scenario's inputs for the replays: its world, its preset, its steps with their
    /// numbers and lines.
    package var replayInput: ReplayInput {
        ReplayInput(
            config: WorldConfig(seed: seed, users: users, policy: policy, appRunning: app == .running),
            preset: preset,
            steps: steps.enumerated().map { ReplayStep($1.trigger, $1.command, number: $0 + 1, line: $1.line) })
    }

    /// What the replays say about `run` (the world this scenario ended with), set beside
    /// `other` (nil: the other preset).
    package func whatIf(_ run: Simulation, against other: Policy? = nil) -> WhatIfReport {
        var engine = WhatIf(replayInput)
        return engine.report(for: run, against: other)
    }
}
