import IAPSimCore

/// Plays a scenario on a `Simulation`, one step at a time (the terminal UI's `play`) or to
/// the end (`run`, `check`).
///
/// Triggers: `at` runs the world to that time; `after` to that long after the previous step
/// ended (a `wait` ends when its time has run); `when` steps event by event until one of
/// that kind happens and runs the command right after it, before any other event. The facts
/// that the previous step's own command wrote count as happening after it (so `do: buy …`
/// then `when: request order` matches the order request the purchase sends); what happened
/// during a `wait` or `settle` does not. An `at` that has already passed runs at once.
///
/// Deterministic: the same scenario gives the same records, byte for byte.
public struct ScenarioPlayer: Sendable {
    public let scenario: Scenario
    public internal(set) var simulation: Simulation
    /// The 0-based index of the next step to play.
    public internal(set) var nextStep = 0
    /// Set when a `when` step timed out; no step runs after it.
    public internal(set) var timeout: StepTimeout?
    /// Facts the previous command wrote, which the next `when` may match.
    var pending: [LogEntry]
    var lastStepEnd: VirtualTime = 0

    /// `logLimit` bounds the world's log for long interactive sessions (nil keeps all).
    public init(_ scenario: Scenario, catalog: Catalog = .standard, logLimit: Int? = nil) {
        self.scenario = scenario
        simulation = Simulation(WorldConfig(
            seed: scenario.seed, users: scenario.users, policy: scenario.policy,
            appRunning: scenario.app == .running, catalog: catalog, logLimit: logLimit))
        pending = simulation.log
    }

    /// What is known before the first step: the story and what the world did at time 0.
    public var openingRecords: [RunRecord] {
        (scenario.story.map { [RunRecord.story($0)] } ?? []) + simulation.log.map(RunRecord.entry)
    }

    /// True when no step is left to play (or the run stopped).
    public var stepsDone: Bool { timeout != nil || nextStep >= scenario.steps.count }

    /// Waits for the next step's trigger, then runs its command. Returns what happened.
    public mutating func playStep() -> [RunRecord] {
        guard !stepsDone else { return [] }
        let number = nextStep + 1
        let step = scenario.steps[nextStep]
        nextStep += 1
        var records: [RunRecord] = []
        switch step.trigger {
        case .at(let time):
            records += runWorld(until: time)
        case .after(let delay):
            records += runWorld(until: lastStepEnd + delay)
        case .when(let event, let within):
            let (seen, found) = waitFor(event, within: within)
            records += seen
            guard found else {
                let stop = StepTimeout(number: number, step: step, event: event, within: within,
                                       time: simulation.now)
                timeout = stop
                return records + [.stepTimedOut(stop)]
            }
        }
        records.append(.stepStarted(number: number, step: step, time: simulation.now))
        records += run(step.command)
        lastStepEnd = simulation.now
        return records
    }

    /// Plays every step left, settles the world and checks the expectations.
    public mutating func finish() -> (records: [RunRecord], result: ScenarioResult) {
        var records: [RunRecord] = []
        while !stepsDone { records += playStep() }
        var complete = true
        if timeout == nil {
            let before = simulation.logCount
            complete = simulation.settle()
            records += simulation.entries(since: before).map(RunRecord.entry)
            records.append(.settled(time: simulation.now, complete: complete))
        }
        let checks = timeout == nil ? ExpectationCheck.check(scenario, against: simulation) : []
        let result = ScenarioResult(simulation: simulation, timeout: timeout,
                                    settledCompletely: complete, expectations: checks)
        return (records, result)
    }

    /// Plays the whole scenario: the opening, every step, settle, expectations.
    public static func run(_ scenario: Scenario, catalog: Catalog = .standard)
        -> (records: [RunRecord], result: ScenarioResult)
    {
        var player = ScenarioPlayer(scenario, catalog: catalog)
        let opening = player.openingRecords
        let (rest, result) = player.finish()
        return (opening + rest, result)
    }

    // MARK: - Moving the world

    mutating func runWorld(until time: VirtualTime) -> [RunRecord] {
        let before = simulation.logCount
        if time > simulation.now { simulation.run(until: time) }
        pending = []
        return simulation.entries(since: before).map(RunRecord.entry)
    }

    /// Steps event by event until `event` happens within `within` of the previous step's
    /// end. Returns what was stepped through and whether the event came.
    mutating func waitFor(_ event: TriggerEvent, within: VirtualTime)
        -> (records: [RunRecord], found: Bool)
    {
        defer { pending = [] }
        if pending.contains(where: { $0.fact.triggerName == event.rawValue }) { return ([], true) }
        let limit = max(lastStepEnd + within, simulation.now)
        var records: [RunRecord] = []
        while let next = simulation.nextEventTime, next <= limit {
            let entries = simulation.step()
            records += entries.map(RunRecord.entry)
            if entries.contains(where: { $0.fact.triggerName == event.rawValue }) {
                return (records, true)
            }
        }
        simulation.run(until: limit)
        return (records, false)
    }

    mutating func run(_ command: Command) -> [RunRecord] {
        let before = simulation.logCount
        let written = simulation.apply(command)
        switch command {
        case .wait, .settle: pending = []
        default: pending = written
        }
        return simulation.entries(since: before).map(RunRecord.entry)
    }
}
