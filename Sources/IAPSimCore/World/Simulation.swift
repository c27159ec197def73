import HeapModule

/// How a run starts.
package struct WorldConfig: Sendable, Hashable {
    package var seed: UInt64
    package var users: [String]
    package var policy: Policy
    package var appRunning: Bool
    package var catalog: Catalog
    /// Keep at most this many log entries (oldest dropped); nil keeps all. 0 keeps no log and
    /// no recent traffic (`Network.recent`): the world is only run and audited.
    package var logLimit: Int?
    /// The App Store environment (`environment:`): production unless a scenario says sandbox.
    package var environment: StoreEnvironment
    /// The app's billing grace period for subscriptions (`grace-period`), if any.
    package var gracePeriodMs: VirtualTime?

    package init(
        seed: UInt64 = 1, users: [String] = ["alice"], policy: Policy = PolicyPreset.hardened.policy,
        appRunning: Bool = true, catalog: Catalog = .standard, logLimit: Int? = nil,
        environment: StoreEnvironment = .production, gracePeriodMs: VirtualTime? = nil
    ) {
        self.environment = environment
        self.gracePeriodMs = gracePeriodMs
        self.seed = seed
        self.users = users.isEmpty ? ["alice"] : users
        self.policy = policy
        self.appRunning = appRunning
        self.catalog = catalog
        self.logLimit = logLimit
    }
}

/// An action waiting in the event queue, ordered by (time, sequence number). The action
/// itself waits in `Outbox.pending[slot]`: the heap moves and compares three numbers.
struct Scheduled: Comparable, Sendable, Hashable {
    var time: VirtualTime
    var seq: Int
    var slot: Int
    static func < (a: Scheduled, b: Scheduled) -> Bool {
        a.time != b.time ? a.time < b.time : a.seq < b.seq
    }
}

/// The whole simulated world and its engine. A value: copying it is a snapshot.
///
/// Deterministic: the same config and the same commands at the same virtual times give the
/// same log, byte for byte. Nothing here reads a clock, starts a thread or prints.
package struct Simulation: Sendable {
    package let config: WorldConfig
    package internal(set) var now: VirtualTime = 0
    /// The outbox keeps a copy, which parts read: it changes only with the policy.
    package internal(set) var policy: Policy { didSet { outbox.policy = policy } }
    package internal(set) var store: AppStore
    package internal(set) var app: AppProcess
    package internal(set) var network: Network
    package internal(set) var server: MerchantServer
    package internal(set) var attacker = Attacker()
    /// The checkers beside the world (`Checkers`): the engine shows them the facts of the
    /// kinds they read and lets them look after each event; they never change the world.
    package internal(set) var checkers: Checkers
    /// The event log, oldest first (bounded by `config.logLimit`).
    package private(set) var log: [LogEntry] = []
    /// How many log entries were ever written (dropped ones included).
    package private(set) var logCount = 0
    /// How many events the engine has processed.
    package private(set) var eventsProcessed = 0
    /// The most events this world may process (a replay's share of the what-if's budget):
    /// once it has processed that many, nothing more is scheduled for it (`nextEventTime` is
    /// nil), as when the store is over its limit.
    package var eventLimit = Int.max
    /// The events to come; their actions wait in `outbox.pending`.
    var queue = Heap<Scheduled>()
    /// What the event or command being handled writes. One outbox serves them all, one
    /// at a time: `begin` readies it and `commit` empties it, keeping its buffers.
    var outbox: Outbox
    var seq = 0
    var nextMessageId = 0
    var nextExchange = 0
    var firstLaunchDone = false
    /// The reconciliation job is scheduled (`server-reconcile`).
    var reconcileArmed = false
    /// The world as it was when `armReconcileIfDue` last found no work (nil: not known).
    var reconcileIdleAt: ReconcileStamp?
    /// `merchant: external` (`iapsim serve`): the user's backend plays the merchant server.
    package var external: ExternalLink? {
        didSet {
            isExternal = external != nil
            outbox.served = isExternal
        }
    }
    /// True when the user's backend plays the merchant server (`external` is set). Kept apart
    /// because the engine asks it at every event: comparing the optional with nil copies it.
    package private(set) var isExternal = false
    /// The app's part played by real app code (`IAPSimStoreKit`), with what reached it.
    package internal(set) var driven: DrivenApp? { didSet { isDriven = driven != nil } }
    /// True when real app code plays the app (`driven` is set), kept apart as `isExternal` is.
    package private(set) var isDriven = false
    /// The subscription status poll is scheduled (`server-status-poll`).
    var statusPollArmed = false
    #if DEBUG
        /// What the invariants saw after the previous event (`assertInvariants`).
        var invariantWatch = InvariantWatch()
    #endif

    /// The bound of `settle()`: 24 hours of virtual time.
    static let settleLimitMs: VirtualTime = 24 * 3_600_000

    package init(_ config: WorldConfig) {
        self.init(unlaunched: config)
        reserveTypicalRoom()
        launchIfConfigured()
    }

    /// The world of `config` before its first command: every part made, the app not
    /// launched yet. Each part is made whole, then stored once: a world changed after it is
    /// whole, in its initializer, is copied whole into the result (1 KB and every list
    /// retained), at every run of explore.
    init(unlaunched config: WorldConfig) {
        let root = SplitMix64(seed: config.seed)
        self.config = config
        policy = config.policy
        store = AppStore(
            catalog: config.catalog, rng: root.derive("app-store"), environment: config.environment,
            gracePeriodMs: config.gracePeriodMs)
        server = MerchantServer(users: config.users, rng: root.derive("merchant-server"))
        app = AppProcess(running: false)
        checkers = Checkers(catalog: config.catalog)
        // A world that keeps no log (explore's runs) keeps no traffic either: nobody looks.
        network = config.logLimit == 0 ? Network(recentLimit: 0) : Network()
        outbox = Outbox(
            now: 0, policy: config.policy, nextMessageId: 0, nextExchange: 0, subscribed: checkers.subscription)
    }

    /// Makes this world what `Simulation(config)` makes, in place, keeping the room of its
    /// lists: each is emptied and keeps its capacity (`Room`). Explore runs one world after
    /// another on each thread; this spares allocating every list again for every run. Only
    /// capacities differ from a new world, and nothing reads a capacity.
    package mutating func restart(_ config: WorldConfig) {
        var fresh = Simulation(unlaunched: config)
        fresh.takeRoom(from: &self)
        // An exchange moves the worlds without copying them (an assignment copies here).
        swap(&self, &fresh)
        reserveTypicalRoom()
        launchIfConfigured()
    }

    /// Room for a typical run (ARCHITECTURE.md, "The hot path").
    mutating func reserveTypicalRoom() {
        queue.reserveCapacity(16)
        checkers.reserveTypicalRoom()
        outbox.pending.reserveCapacity(16)
        outbox.freeSlots.reserveCapacity(16)
        outbox.timers.reserveCapacity(8)
        store.transactions.reserveCapacity(8)
        if config.logLimit != 0 { network.history.reserveCapacity(32) }
        server.orders.reserveCapacity(8)
        app.tickets.reserveCapacity(8)
        app.inFlight.reserveCapacity(4)
        server.verifying.reserveCapacity(4)
    }

    mutating func launchIfConfigured() {
        guard config.appRunning else { return }
        var none: [LogEntry]?
        _ = apply(.launch, into: &none)
    }

    package var users: [String] { config.users }

    /// The time of the next event; nil when none is scheduled, or when the world stopped
    /// because too many transactions were unfinished at once (`AppStore.overLimit`) or it
    /// has processed its `eventLimit`.
    package var nextEventTime: VirtualTime? {
        store.overLimit || eventsProcessed >= eventLimit ? nil : queue.min?.time
    }

    /// True once the world has processed `eventLimit` events and stopped there.
    package var eventLimitReached: Bool { eventsProcessed >= eventLimit }

    package var isIdle: Bool { queue.isEmpty }

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
        guard let next = queue.min else { return nil }
        if isExternal { runTicks(before: next.time, through: false, into: &written) }
        if let end = checkers.nextWake, end < next.time { passTime(before: next.time, into: &written) }
        _ = queue.popMin()
        handle(next, collecting: written != nil)
        return commit(into: &written)
    }

    /// Lets the world's time pass, with no event of its own, to each time before `time`
    /// (`through`: up to and including it) at which a checker must look again (the end of a
    /// grace period it watches). The world schedules nothing for its checkers: they ask the
    /// runner to let time pass.
    mutating func passTime(before time: VirtualTime, through: Bool = false, into written: inout [LogEntry]?) {
        while let end = checkers.nextWake, end < time || through && end == time {
            checkers.takeWake()
            guard end > now else { continue }
            now = end
            look(into: &written)
        }
    }

    /// The checkers' look after an event or a passage of time.
    mutating func look(into written: inout [LogEntry]?) {
        var found: [LogEntry] = []
        checkers.look(now: now, &found)
        if checkers.looksAtParts {
            checkers.look(now: now, store: store, app: app, server: server, policy: policy, &found)
        }
        for entry in found { append(entry, into: &written) }
    }

    /// Runs one event's action into the outbox.
    mutating func handle(_ next: Scheduled, collecting: Bool) {
        now = max(now, next.time)
        eventsProcessed += 1
        let action = outbox.unpark(next.slot)
        begin(collecting: collecting)
        dispatch(action)
    }

    /// Readies the outbox for one event or command (it is empty: `commit` left it so);
    /// `collecting`: somebody wants what it writes.
    mutating func begin(collecting: Bool) {
        outbox.now = now
        outbox.nextMessageId = nextMessageId
        outbox.nextExchange = nextExchange
        outbox.keepsEveryFact = collecting || config.logLimit != 0
        outbox.unkept = 0
        outbox.triggers = TriggerSet()
    }

    /// Applies what a part produced: network sends, timers, the log, the checkers; leaves
    /// the outbox empty, with its buffers. Appends what was written to `written` unless it
    /// is nil (it must not be when the outbox keeps only some facts); returns the trigger
    /// codes of the facts written (the checkers' own facts are never triggers).
    mutating func commit(into written: inout [LogEntry]?) -> TriggerSet {
        if !outbox.sends.isEmpty {
            // Each message moves to the network (popped, not copied), in the order sent.
            var sends: [Message] = []
            swap(&sends, &outbox.sends)
            sends.reverse()
            while let m = sends.popLast() { network.transmit(m, &outbox) }
            swap(&sends, &outbox.sends)
        }
        nextMessageId = outbox.nextMessageId
        nextExchange = outbox.nextExchange
        scheduleTimers()
        if policy.serverReconcileMs != nil { armReconcileIfDue() }
        if policy.statusPollMs != 0 { armStatusPollIfDue() }
        written?.reserveCapacity(outbox.facts.count + 2)
        logCount += outbox.unkept
        if !outbox.facts.isEmpty {
            // Each fact moves out of the outbox, in the order written, and is recorded.
            var facts: [LogEntry] = []
            swap(&facts, &outbox.facts)
            facts.reverse()
            let counted = written == nil && config.logLimit == 0
            while let entry = facts.popLast() { record(entry, counted: counted, into: &written) }
            swap(&facts, &outbox.facts)
        }
        look(into: &written)
        assertInvariants()
        return outbox.triggers
    }

    /// Writes a part's fact to the log (and to `written`) and shows it to the checkers that
    /// subscribe to its kind. `counted`: nobody keeps the log or collects what is written
    /// (most runs), so the entry is only counted, and lent to a checker only when it reads it.
    mutating func record(_ entry: LogEntry, counted: Bool, into written: inout [LogEntry]?) {
        if counted { logCount += 1 } else { append(entry, into: &written) }
        if outbox.subscribed.contains(entry.fact.kind) { observe(entry, into: &written) }
    }

    mutating func observe(_ entry: LogEntry, into written: inout [LogEntry]?) {
        var found: [LogEntry] = []
        checkers.see(entry, &found)
        for e in found { append(e, into: &written) }
    }

    mutating func append(_ entry: LogEntry, into written: inout [LogEntry]?) {
        logCount += 1
        if written != nil { written!.append(entry) }
        if config.logLimit != 0 { keep(entry) }
    }

    mutating func keep(_ entry: LogEntry) {
        if let limit = config.logLimit, log.count >= 2 * limit {
            // Trim in chunks so that appending stays amortised O(1).
            log.removeFirst(log.count - limit)
        }
        log.append(entry)
    }

    /// Queues the outbox's timers (their actions are parked already). The events get
    /// sequence numbers in the order the timers were set, so the queue pops them in it.
    mutating func scheduleTimers() {
        let count = outbox.timerCount
        guard count > 0 else { return }
        for i in 0..<count {
            let timer = outbox.timers[i]
            queue.insert(Scheduled(time: now + timer.delay, seq: seq + 1 + i, slot: timer.slot))
        }
        seq += count
        outbox.timerCount = 0
    }

    mutating func schedule(_ delay: VirtualTime, _ action: Action) {
        seq += 1
        var action = action
        queue.insert(Scheduled(time: now + delay, seq: seq, slot: outbox.park(&action)))
    }
}
