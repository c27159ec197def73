import IAPSimCore

extension Scenario {
    /// The scenario's inputs for the replays: its world, its preset, its steps with their
    /// numbers and lines.
    package var replayInput: ReplayInput {
        ReplayInput(
            config: WorldConfig(
                seed: seed, users: users, policy: policy, appRunning: app == .running, catalog: catalog.catalog,
                environment: environment, gracePeriodMs: gracePeriodMs),
            preset: preset,
            steps: steps.enumerated().map { ReplayStep($1.trigger, $1.command, number: $0 + 1, line: $1.line) })
    }

    /// What the replays say about `run` (the world this scenario ended with), set beside
    /// `other` (nil: the other preset).
    package func whatIf(_ run: Simulation, against other: Policy? = nil) -> WhatIfReport {
        if steps.count > Self.whatIfStepLimit {
            return WhatIfReport(
                explanations: [], avoided: [], other: other ?? preset.other.policy, replays: 0,
                notWorkedOut: "caused by, prevented by and saved by are found by replay for files of at most "
                    + "\(Self.whatIfStepLimit) steps; this one has \(steps.count)")
        }
        var engine = WhatIf(replayInput)
        return engine.report(for: run, against: other)
    }

    /// Each answer of the replays costs whole runs of the file (one per input removed, one
    /// per candidate policy change): past this many steps they are not worked out, and the
    /// verdict says so. The shipped scenarios have at most a few dozen steps.
    package static let whatIfStepLimit = 400
}
