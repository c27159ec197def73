/// The audited world: the world (`World`, the engine and its parts) and its checkers
/// (`Checkers`: the auditor and any a caller added) side by side, as a test harness holds a
/// cluster and its state checker. The harness runs the world with the checkers beside it
/// (`World` takes them as its `Onlooker`), lets time pass on their clock (`passTime`), and
/// owns the verdict. The engine names no checker; the checkers never change the world.
///
/// The world's properties read through the harness (`simulation.store`, `simulation.now`):
/// `@dynamicMemberLookup` forwards them.
@dynamicMemberLookup
package struct Simulation: Sendable {
    /// The world, with no checker in it.
    package internal(set) var world: World
    /// The checkers beside the world.
    package internal(set) var checkers: Checkers

    package subscript<T>(dynamicMember path: KeyPath<World, T>) -> T { world[keyPath: path] }

    package subscript<T>(dynamicMember path: WritableKeyPath<World, T>) -> T {
        get { world[keyPath: path] }
        set { world[keyPath: path] = newValue }
    }

    package init(_ config: WorldConfig) {
        self.init(unlaunched: config)
        reserveTypicalRoom()
        launchIfConfigured()
    }

    /// The world of `config` before its first command, and its checkers.
    init(unlaunched config: WorldConfig) {
        let checkers = Checkers(catalog: config.catalog)
        world = World(unlaunched: config, subscription: checkers.subscription)
        self.checkers = checkers
    }

    /// Makes this world what `Simulation(config)` makes, in place, keeping the room of its
    /// lists: each is emptied and keeps its capacity (`Room`). Explore runs one world after
    /// another on each thread; this spares allocating every list again for every run. Only
    /// capacities differ from a new world, and nothing reads a capacity.
    package mutating func restart(_ config: WorldConfig) {
        var fresh = Simulation(unlaunched: config)
        fresh.world.takeRoom(from: &world)
        fresh.checkers.takeRoom(from: &checkers)
        // An exchange moves the worlds without copying them (an assignment copies here).
        swap(&self, &fresh)
        reserveTypicalRoom()
        launchIfConfigured()
    }

    /// Room for a typical run (ARCHITECTURE.md, "The hot path").
    mutating func reserveTypicalRoom() {
        world.reserveTypicalRoom()
        checkers.reserveTypicalRoom()
    }

    mutating func launchIfConfigured() {
        guard world.config.appRunning else { return }
        var none: [LogEntry]?
        _ = apply(.launch, into: &none)
    }

    // MARK: stepping

    /// Runs the next scheduled event. Returns the log entries it wrote (empty when idle).
    @discardableResult
    package mutating func step() -> [LogEntry] {
        var written: [LogEntry]? = []
        step(into: &written)
        return written ?? []
    }

    /// Runs the next scheduled event and appends what it wrote to `written` unless it is
    /// nil (the log and the checkers see all of it either way). Returns the trigger events
    /// it wrote, or nil when nothing was scheduled.
    @discardableResult
    package mutating func step(into written: inout [LogEntry]?) -> TriggerSet? {
        guard let next = world.nextQueued else { return nil }
        if world.isExternal { runTicks(before: next, through: false, into: &written) }
        if let end = checkers.nextWake, end < next { passTime(before: next, into: &written) }
        return world.runNext(into: &written, &checkers)
    }

    /// Lets the world's time pass, with no event of its own, to each time before `time`
    /// (`through`: up to and including it) at which a checker must look again (the end of a
    /// grace period it watches). The world schedules nothing for its checkers: they ask the
    /// harness to let time pass.
    mutating func passTime(before time: VirtualTime, through: Bool = false, into written: inout [LogEntry]?) {
        while let end = checkers.nextWake, end < time || through && end == time {
            checkers.takeWake()
            guard end > world.now else { continue }
            world.passTo(end)
            world.look(into: &written, &checkers)
        }
    }

    /// Lets time pass through the last grace period on the auditor's clock: the verdict waits
    /// for them. A settled world does nothing meanwhile; one still busy (its settle hit the
    /// 24-hour bound, a swarm run's renewals going on) runs its own events on the way, in
    /// order with the auditor's looks, so that the clock never passes a queued event (found
    /// by swarm draws: sk2-hardened, seed 32, run 349).
    mutating func letGracePeriodsEnd(into written: inout [LogEntry]?) {
        guard let last = checkers.lastWake else { return }
        run(until: last, into: &written)
    }

    // MARK: commands

    /// Applies one command at the current virtual time and returns the log entries it wrote.
    /// `wait` and `settle` let time run; every other command acts at once. A command that
    /// makes no sense now (buy while the app is not running) is logged as ignored, with why.
    @discardableResult
    package mutating func apply(_ command: Command) -> [LogEntry] {
        var written: [LogEntry]? = []
        _ = apply(command, into: &written)
        return written ?? []
    }

    /// Applies one command; appends what it wrote to `written` unless it is nil (for `wait`
    /// and `settle`, what the events wrote meanwhile), and returns the trigger events the
    /// command itself wrote (none for `wait` and `settle`: what happens while time runs is
    /// no fact of theirs).
    package mutating func apply(_ command: Command, into written: inout [LogEntry]?) -> TriggerSet {
        switch command {
        case .wait(let ms):
            run(until: world.now + ms, into: &written)
            return TriggerSet()
        case .settle:
            settle(into: &written)
            return TriggerSet()
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login,
            .logout, .network, .networkFault, .storeFault, .askToBuy, .approve, .decline, .replay, .forge,
            .serverOutage, .serverAPIFault, .refundLoop, .spend, .subscription, .heal, .setPolicy, .setPreset:
            return world.command(command, into: &written, &checkers)
        }
    }

    /// Why a command cannot run now, or nil.
    package func refusal(of command: Command) -> String? { world.refusal(of: command) }

    /// The heal phase of a fault run: every fault off (`heal`), the app in the foreground
    /// and running, somebody logged in. What is recoverable must then recover while the world
    /// settles. Made only of commands, so that a scenario can replay it; returns the commands
    /// it applied.
    @discardableResult
    package mutating func heal() -> [Command] {
        var applied: [Command] = []
        func run(_ c: Command, _ sim: inout Simulation) {
            var none: [LogEntry]?
            _ = sim.apply(c, into: &none)
            applied.append(c)
        }
        if world.hasArmedFaults { run(.heal, &self) }
        if world.app.inBackground { run(.foreground, &self) }
        if !world.app.isRunning { run(.launch, &self) }
        if world.app.loggedIn == nil, let user = world.config.users.first { run(.login(user: user), &self) }
        return applied
    }

    /// The log entries written since the log held `count` entries in all (`World.entries`).
    package func entries(since count: Int) -> ArraySlice<LogEntry> { world.entries(since: count) }

    /// Why `action`, a timer of the world's, would do nothing now (`World.moot`), or nil.
    package func moot(_ action: Action) -> String? { world.moot(action) }

    // MARK: checkers

    /// The auditor, the checker beside the world that owns the verdict.
    package var auditor: Auditor {
        get { checkers.auditor }
        _modify { yield &checkers.auditor }
    }

    /// Adds a checker beside the auditor, before anything has run; it sees the facts of its
    /// kinds from then on. A restarted world (`restart`) has the auditor only.
    package mutating func addChecker(_ checker: some Checker) {
        checkers.add(checker)
        world.subscribe(checkers.subscription)
    }

    /// The first checker of type `C` added, as it is now.
    package func checker<C: Checker>(_ type: C.Type) -> C? {
        checkers.added.lazy.compactMap { $0 as? C }.first
    }

    /// The invariants that do not hold now (`World.invariantViolations`), and the checkers'
    /// agreement with the world.
    func invariantViolations(_ watch: inout InvariantWatch) -> [InvariantViolation] {
        world.invariantViolations(&watch) + checkers.violations(in: world)
    }

    /// The invariants that do not hold now, without memory of earlier looks.
    var invariantViolations: [InvariantViolation] {
        var fresh = InvariantWatch()
        return invariantViolations(&fresh)
    }
}
