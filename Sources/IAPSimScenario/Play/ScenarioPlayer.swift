import IAPSimCore

/// Plays a scenario on a `Simulation`, one step at a time (the terminal UI's `play`) or to
/// the end (`run`, `check`), with the core's one `StepRunner` (its documentation says how
/// triggers fire).
///
/// Deterministic: the same scenario gives the same records, byte for byte.
package struct ScenarioPlayer: Sendable {
    package let scenario: Scenario
    package internal(set) var simulation: Simulation
    /// The 0-based index of the next step to play.
    package internal(set) var nextStep = 0
    /// Set when a `when` step timed out; no step runs after it.
    package internal(set) var timeout: StepTimeout?
    var runner = StepRunner()
    /// False: steps return only their markers, not the world's entries (a `run --quiet`
    /// with no export prints none, and a long wait makes millions).
    package var collectsEntries = true

    /// How many log entries the world keeps unless told otherwise: what a run prints comes
    /// from its records, so the world's own log only serves views of the recent past, and a
    /// soak test's millions of events must not all stay in memory (`logCount` stays exact).
    package static let defaultLogLimit = 10_000

    /// `logLimit` bounds the world's log (nil keeps all).
    package init(
        _ scenario: Scenario, logLimit: Int? = ScenarioPlayer.defaultLogLimit
    ) {
        self.scenario = scenario
        simulation = Simulation(
            WorldConfig(
                seed: scenario.seed, users: scenario.users, policy: scenario.policy,
                appRunning: scenario.app == .running, catalog: scenario.catalog.catalog, logLimit: logLimit,
                environment: scenario.environment, gracePeriodMs: scenario.gracePeriodMs))
        runner.saw(simulation.log.reduce(into: TriggerSet()) { $0.insert($1.fact.trigger) })
    }

    /// Hands the merchant server's part to the user's backend (`iapsim serve`), before the
    /// first step.
    package mutating func attach(_ link: ExternalLink) {
        simulation.attachExternal(link)
    }

    /// What is known before the first step: the story and what the world did at time 0.
    package var openingRecords: [RunRecord] {
        (scenario.story.map { [RunRecord.story($0)] } ?? []) + simulation.log.map(RunRecord.entry)
    }

    /// When the previous step's command ended.
    package var lastStepEnd: VirtualTime { runner.lastStepEnd }

    /// True when no step is left to play (or the run stopped).
    package var stepsDone: Bool { timeout != nil || nextStep >= scenario.steps.count }

    /// Waits for the next step's trigger, then runs its command. Returns what happened.
    package mutating func playStep() -> [RunRecord] {
        var records: [RunRecord] = []
        playStep(slice: nil) { records += $0 }
        return records
    }

    /// Waits for the next step's trigger, then runs its command, handing what happened to
    /// `flush`. With a `slice`, as it comes, in slices of about that many entries, instead of
    /// all at the end (a 720h wait under an endless outage writes millions): the time before
    /// an `at`/`after` step and a `wait` are sliced; a `when` is not (its wait is bounded by
    /// its `within`). The records are the same, in the same order, either way.
    package mutating func playStep(slice: Int?, flush: ([RunRecord]) throws -> Void) rethrows {
        guard !stepsDone else { return }
        let number = nextStep + 1
        let step = scenario.steps[nextStep]
        nextStep += 1
        let slice = collectsEntries ? slice : nil
        if let slice, let before = runner.deadline(of: step.trigger), before > simulation.now {
            try run(until: before, slice: slice, flush: flush)
        }
        var collected: [LogEntry]? = collectsEntries ? [] : nil
        let came = runner.reach(step.trigger, in: &simulation, into: &collected)
        var records = (collected ?? []).map(RunRecord.entry)
        if !came, case .when(let event, let within) = step.trigger {
            let stop = StepTimeout(
                number: number, step: step, event: event, within: within,
                time: simulation.now)
            timeout = stop
            return try flush(records + [.stepTimedOut(stop)])
        }
        records.append(.stepStarted(number: number, step: step, time: simulation.now))
        collected = collectsEntries ? [] : nil
        if let slice, case .wait(let ms) = step.command {
            try flush(records)
            records = []
            try run(until: simulation.now + ms, slice: slice, flush: flush)
            // The time has run: this only ends the step as the runner ends any.
            runner.perform(.wait(0), in: &simulation, into: &collected)
        } else {
            runner.perform(step.command, in: &simulation, into: &collected)
        }
        try flush(records + (collected ?? []).map(RunRecord.entry))
    }

    private mutating func run(until time: VirtualTime, slice: Int, flush: ([RunRecord]) throws -> Void) rethrows {
        var done = false
        while !done {
            var collected: [LogEntry]? = []
            done = simulation.run(until: time, into: &collected, stoppingAfter: slice)
            try flush((collected ?? []).map(RunRecord.entry))
        }
    }

    /// Plays every step left, settles the world and checks the expectations.
    package mutating func finish() -> (records: [RunRecord], result: ScenarioResult) {
        var records: [RunRecord] = []
        while !stepsDone { records += playStep() }
        var complete = true
        if timeout == nil {
            var collected: [LogEntry]? = collectsEntries ? [] : nil
            complete = simulation.settle(into: &collected)
            records += (collected ?? []).map(RunRecord.entry)
            records.append(.settled(time: simulation.now, complete: complete))
            collected = []
            simulation.concludeVerdict(into: &collected)
            records += (collected ?? []).map(RunRecord.entry)
        }
        let checks = timeout == nil ? ExpectationCheck.check(scenario, against: simulation) : []
        let result = ScenarioResult(
            simulation: simulation, timeout: timeout,
            settledCompletely: complete, expectations: checks)
        return (records, result)
    }

    /// Plays the whole scenario: the opening, every step, settle, expectations.
    package static func run(_ scenario: Scenario) -> (records: [RunRecord], result: ScenarioResult) {
        var player = ScenarioPlayer(scenario)
        let opening = player.openingRecords
        let (rest, result) = player.finish()
        return (opening + rest, result)
    }
}
