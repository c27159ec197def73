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

/// The simulated world and its engine: the parts, the event queue, the clock, the outbox and
/// the log. A value: copying it is a snapshot. It holds no onlooker: the harness
/// (`Simulation`) keeps one beside it and lends it to each event (`Onlooker`).
///
/// Deterministic: the same config and the same commands at the same virtual times give the
/// same log, byte for byte. Nothing here reads a clock, starts a thread or prints.
package struct World: Sendable {
    package let config: WorldConfig
    package internal(set) var now: VirtualTime = 0
    /// The outbox keeps a copy, which parts read: it changes only with the policy.
    package internal(set) var policy: Policy { didSet { outbox.policy = policy } }
    package internal(set) var store: AppStore
    package internal(set) var app: AppProcess
    package internal(set) var network: Network
    package internal(set) var server: MerchantServer
    package internal(set) var attacker = Attacker()
    /// The event log, and how many entries were ever written.
    var journal = Journal()
    /// The engine's counters: ids handed out, events processed and their limit.
    var counters = EngineCounters()
    /// The events to come; their actions wait in `outbox.pending`.
    var queue = Heap<Scheduled>()
    /// What the event or command being handled writes, and what it tells its onlooker beyond
    /// its facts (`outbox.notes`). One outbox serves them all, one at a time: `begin` readies
    /// it and `commit` empties it, keeping its buffers.
    var outbox: Outbox
    /// `merchant: external` (`iapsim serve`): the user's backend plays the merchant server.
    package var external: ExternalLink? {
        didSet { outbox.served = external != nil }
    }
    /// True when the user's backend plays the merchant server (`external` is set): the
    /// outbox's flag, asked at every event (comparing the optional with nil copies it).
    package var isExternal: Bool { outbox.served }
    /// The app's part played by real app code (`IAPSimStoreKit`), with what reached it.
    package internal(set) var driven: DrivenApp? { didSet { counters.isDriven = driven != nil } }
    /// True when real app code plays the app (`driven` is set), kept apart as `isExternal` is.
    package var isDriven: Bool { counters.isDriven }
    #if DEBUG
        /// What the invariants saw after the previous event (`assertInvariants`).
        var invariantWatch = InvariantWatch()
    #endif

    /// The event log, oldest first (bounded by `config.logLimit`).
    package var log: [LogEntry] { journal.log }
    /// How many log entries were ever written (dropped ones included).
    package var logCount: Int { journal.logCount }
    /// How many events the engine has processed.
    package var eventsProcessed: Int { counters.eventsProcessed }
    /// The most events this world may process (a replay's share of the what-if's budget):
    /// once it has processed that many, nothing more is scheduled for it (`nextEventTime` is
    /// nil), as when the store is over its limit.
    package var eventLimit: Int {
        get { counters.eventLimit }
        set { counters.eventLimit = newValue }
    }

    /// The bound of `settle()`: 24 hours of virtual time.
    package static let settleLimitMs: VirtualTime = 24 * 3_600_000

    /// The world of `config` before its first command: every part made, the app not
    /// launched yet. `subscription`: the kinds of facts its onlooker reads; in runs that keep
    /// no log only those are built (the rest are counted). Each part is made whole, then
    /// stored once: a world changed after it is whole, in its initializer, is copied whole
    /// into the result (1 KB and every list retained), at every run of explore.
    init(unlaunched config: WorldConfig, subscription: FactKindSet) {
        let root = SplitMix64(seed: config.seed)
        self.config = config
        policy = config.policy
        store = AppStore(
            catalog: config.catalog, rng: root.derive("app-store"), environment: config.environment,
            gracePeriodMs: config.gracePeriodMs)
        server = MerchantServer(users: config.users, rng: root.derive("merchant-server"))
        app = AppProcess(running: false)
        // A world that keeps no log (explore's runs) keeps no traffic either: nobody looks.
        network = config.logLimit == 0 ? Network(recentLimit: 0) : Network()
        outbox = Outbox(
            now: 0, policy: config.policy, nextMessageId: 0, nextExchange: 0, subscribed: subscription)
    }

    /// Room for a typical run (ARCHITECTURE.md, "The hot path").
    mutating func reserveTypicalRoom() {
        queue.reserveCapacity(16)
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

    /// The onlooker reads these kinds of facts from now on (it took on more).
    mutating func subscribe(_ subscription: FactKindSet) { outbox.subscribed = subscription }

    package var users: [String] { config.users }

    /// The time of the next event; nil when none is scheduled, or when the world stopped
    /// because too many transactions were unfinished at once (`AppStore.overLimit`) or it
    /// has processed its `eventLimit`.
    package var nextEventTime: VirtualTime? {
        store.overLimit || counters.eventsProcessed >= counters.eventLimit ? nil : queue.min?.time
    }

    /// The time of the event `runNext` runs, if any is queued (ignoring `eventLimit`).
    var nextQueued: VirtualTime? { queue.min?.time }

    /// True once the world has processed `eventLimit` events and stopped there.
    package var eventLimitReached: Bool { counters.eventsProcessed >= counters.eventLimit }

    package var isIdle: Bool { queue.isEmpty }

    /// Sets the clock to `time` (never back): time passes with no event of the world's.
    mutating func passTo(_ time: VirtualTime) { now = max(now, time) }

    // MARK: stepping

    /// Runs the next scheduled event, `onlooker` beside it, and appends what it wrote to
    /// `written` unless it is nil (the log and the onlooker see all of it either way).
    /// Returns the trigger events it wrote, or nil when nothing was scheduled. The time
    /// before it is the harness's to pass (`Simulation.step`).
    mutating func runNext<O: Onlooker>(into written: inout [LogEntry]?, _ onlooker: inout O) -> TriggerSet? {
        guard let next = queue.popMin() else { return nil }
        handle(next, collecting: written != nil)
        return commit(into: &written, &onlooker)
    }

    /// The onlooker's look after an event or a passage of time: what it finds is written.
    @inline(__always)
    mutating func look<O: Onlooker>(into written: inout [LogEntry]?, _ onlooker: inout O) {
        var found: [LogEntry] = []
        onlooker.look(now: now, &found)
        if onlooker.looksAtParts { lend(to: &onlooker, &found) }
        for entry in found { append(entry, into: &written) }
    }

    /// Lends the parts to the onlooker from a borrowed world (passed from the mutating caller
    /// itself, they were copied there; the two changes of 1a501db saved 1% of a run).
    @inline(never)
    func lend<O: Onlooker>(to onlooker: inout O, _ found: inout [LogEntry]) {
        onlooker.look(now: now, store: store, app: app, server: server, policy: policy, &found)
    }

    /// Runs one event's action into the outbox.
    mutating func handle(_ next: Scheduled, collecting: Bool) {
        now = max(now, next.time)
        counters.eventsProcessed += 1
        let action = outbox.unpark(next.slot)
        begin(collecting: collecting)
        dispatch(action)
    }

    /// Readies the outbox for one event or command (it is empty: `commit` left it so);
    /// `collecting`: somebody wants what it writes.
    mutating func begin(collecting: Bool) {
        outbox.now = now
        outbox.nextMessageId = counters.nextMessageId
        outbox.nextExchange = counters.nextExchange
        outbox.keepsEveryFact = collecting || config.logLimit != 0
        outbox.unkept = 0
        outbox.triggers = TriggerSet()
    }

    /// Applies what a part produced: network sends, timers, the log, the onlooker; leaves
    /// the outbox empty, with its buffers. Appends what was written to `written` unless it
    /// is nil (it must not be when the outbox keeps only some facts); returns the trigger
    /// codes of the facts written (the onlooker's own facts are never triggers).
    mutating func commit<O: Onlooker>(
        into written: inout [LogEntry]?, _ onlooker: inout O, looking: Bool = true
    ) -> TriggerSet {
        if !outbox.sends.isEmpty {
            // Each message moves to the network (popped, not copied), in the order sent.
            var sends: [Message] = []
            swap(&sends, &outbox.sends)
            sends.reverse()
            while let m = sends.popLast() { network.transmit(m, &outbox) }
            swap(&sends, &outbox.sends)
        }
        counters.nextMessageId = outbox.nextMessageId
        counters.nextExchange = outbox.nextExchange
        scheduleTimers()
        if policy.serverReconcileMs != nil { armReconcileIfDue() }
        if policy.statusPollMs != 0 { armStatusPollIfDue() }
        if !outbox.notes.isEmpty { tell(&onlooker) }
        written?.reserveCapacity(outbox.facts.count + 2)
        journal.logCount += outbox.unkept
        if !outbox.facts.isEmpty {
            if isExternal { notePayers() }
            // Each fact moves out of the outbox, in the order written, and is recorded.
            var facts: [LogEntry] = []
            swap(&facts, &outbox.facts)
            facts.reverse()
            let counted = written == nil && config.logLimit == 0
            while let entry = facts.popLast() { record(entry, counted: counted, into: &written, &onlooker) }
            swap(&facts, &outbox.facts)
        }
        if looking { look(into: &written, &onlooker) }
        #if DEBUG
            assertInvariants(onlooker)
        #endif
        return outbox.triggers
    }

    /// Hands the event's notes to the onlooker, in the order written, before it reads any of
    /// the event's facts; what it answers to each goes where the note was written among them.
    mutating func tell<O: Onlooker>(_ onlooker: inout O) {
        var inserted = 0
        for (note, at) in outbox.notes {
            var answer: [LogEntry] = []
            onlooker.hear(note, at: now, &answer)
            outbox.facts.insert(contentsOf: answer, at: at + inserted)
            inserted += answer.count
        }
        outbox.notes.removeAll(keepingCapacity: true)
    }

    /// Writes a part's fact to the log (and to `written`) and shows it to the onlooker if it
    /// subscribes to its kind. `counted`: nobody keeps the log or collects what is written
    /// (most runs), so the entry is only counted, and lent to the onlooker only when it reads it.
    @inline(__always)
    mutating func record<O: Onlooker>(
        _ entry: LogEntry, counted: Bool, into written: inout [LogEntry]?, _ onlooker: inout O
    ) {
        if counted { journal.logCount += 1 } else { append(entry, into: &written) }
        if outbox.subscribed.contains(entry.fact.kind) {
            var found: [LogEntry] = []
            onlooker.see(entry, &found)
            for e in found { append(e, into: &written) }
        }
    }

    mutating func append(_ entry: LogEntry, into written: inout [LogEntry]?) {
        journal.logCount += 1
        if written != nil { written!.append(entry) }
        if config.logLimit != 0 { keep(entry) }
    }

    mutating func keep(_ entry: LogEntry) {
        if let limit = config.logLimit, journal.log.count >= 2 * limit {
            // Trim in chunks so that appending stays amortised O(1).
            journal.log.removeFirst(journal.log.count - limit)
        }
        journal.log.append(entry)
    }

    /// Queues the outbox's timers (their actions are parked already). The events get
    /// sequence numbers in the order the timers were set, so the queue pops them in it.
    mutating func scheduleTimers() {
        let count = outbox.timerCount
        guard count > 0 else { return }
        for i in 0..<count {
            let timer = outbox.timers[i]
            queue.insert(Scheduled(time: now + timer.delay, seq: counters.seq + 1 + i, slot: timer.slot))
        }
        counters.seq += count
        outbox.timerCount = 0
    }

    mutating func schedule(_ delay: VirtualTime, _ action: Action) {
        counters.seq += 1
        var action = action
        queue.insert(Scheduled(time: now + delay, seq: counters.seq, slot: outbox.park(&action)))
    }
}

/// The world's event log, and how many entries were ever written (dropped ones included).
struct Journal: Sendable {
    var log: [LogEntry] = []
    var logCount = 0
}

/// The engine's counters: the ids it hands out (event order, messages, exchanges), the
/// events it processed and may process, and two facts of the run's shape.
struct EngineCounters: Sendable {
    var seq = 0
    var nextMessageId = 0
    var nextExchange = 0
    var eventsProcessed = 0
    var eventLimit = Int.max
    /// The first `launch` has happened (it logs the first user in).
    var firstLaunchDone = false
    /// Real app code plays the app (`World.driven` is set).
    var isDriven = false
}
