/// A checker beside the world that a caller adds (`Simulation.addChecker`): a test's, a
/// tool's. It reads the facts of the kinds it subscribes to, as they are written, and may
/// look after each event; it never changes the world. Adding one edits nothing of the
/// engine or of the auditor.
package protocol Checker: Sendable {
    /// The kinds of facts it reads: the engine builds and shows it those (in runs that keep
    /// no log, only the facts some checker reads are built; the rest are counted).
    var subscription: FactKindSet { get }
    /// Reads one fact of a kind in `subscription`, right after the world wrote it; what it
    /// writes to `out` follows that fact in the log.
    mutating func see(_ entry: LogEntry, _ out: inout [LogEntry])
    /// Looks at what can still act, after each event, command or passage of time.
    mutating func look(
        now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
        _ out: inout [LogEntry])
}

extension Checker {
    /// Most checkers only read facts.
    package mutating func look(
        now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
        _ out: inout [LogEntry]
    ) {}
}

/// The checkers beside the world: the auditor, and any a caller added. The engine knows them
/// only by what it asks here: which kinds of facts they read (`subscription`), the facts
/// themselves (`see`), a look after each event or passage of time (`look`), and the times
/// they must look again though the world does nothing (`nextWake`, `takeWake`). What the
/// auditor watches, and why, is the auditor's business: a new anomaly type with a watch list
/// of its own edits the auditor, never the engine.
package struct Checkers: Sendable {
    package internal(set) var auditor: Auditor
    /// The checkers a caller added, in the order added. Empty in every run of the tools.
    var added: [any Checker] = []
    /// What they read, together (the engine's `Outbox.subscribed`).
    package private(set) var subscription = Auditor.subscription

    init(catalog: Catalog) { auditor = Auditor(catalog: catalog) }

    /// Shows the checkers one fact of a kind some of them read.
    @inline(__always)
    mutating func see(_ entry: LogEntry, _ out: inout [LogEntry]) {
        guard !added.isEmpty else { return auditor.observe(entry, &out) }
        let kind = entry.fact.kind
        if Auditor.subscription.contains(kind) { auditor.observe(entry, &out) }
        for i in added.indices where added[i].subscription.contains(kind) { added[i].see(entry, &out) }
    }

    /// True when a checker wants to look at the parts after this event: the auditor while a
    /// charge waits for its verdict, a refund for its clawback or a clawback for its reversal,
    /// or a checker a caller added. The engine passes the parts only then: passing them costs
    /// a copy of each part's references.
    @inline(__always)
    var looksAtParts: Bool {
        !auditor.ledger.active.isEmpty || !auditor.ledger.unclawed.isEmpty || !auditor.ledger.overclaws.isEmpty
            || !added.isEmpty
    }

    /// The checkers' look after an event or a passage of time, at what they keep themselves
    /// (the auditor's acknowledgements and entitlement timelines): what they find goes to `out`.
    @inline(__always)
    mutating func look(now: VirtualTime, _ out: inout [LogEntry]) {
        if !auditor.acks.isEmpty { auditor.checkAcks(now: now, &out) }
        if !auditor.subscriberTimelines.isEmpty { auditor.evaluateTimelines(now: now, &out) }
    }

    /// The checkers' look at the parts (when `looksAtParts`), after `look(now:)`.
    mutating func look(
        now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
        _ out: inout [LogEntry]
    ) {
        if !auditor.ledger.active.isEmpty || !auditor.ledger.unclawed.isEmpty || !auditor.ledger.overclaws.isEmpty {
            auditor.evaluate(now: now, store: store, app: app, server: server, policy: policy, &out)
        }
        for i in added.indices { added[i].look(now: now, store: store, app: app, server: server, policy: policy, &out) }
    }

    /// The next time a checker must look again by its own clock (the end of a grace period
    /// the auditor watches), if any.
    @inline(__always)
    var nextWake: VirtualTime? { auditor.nextGraceEnd }

    /// Takes the first wake-up off the checkers' clock.
    @inline(__always)
    mutating func takeWake() { auditor.takeGraceEnd() }

    /// The last time the verdict waits for: the end of the last grace period.
    var lastWake: VirtualTime? { auditor.graceEnds.last }

    mutating func reserveTypicalRoom() { auditor.ledger.reserveTypicalRoom() }

    /// Takes the room of the checkers of a world nobody needs any more (`Room`).
    mutating func takeRoom(from old: inout Checkers) { auditor.takeRoom(from: &old.auditor) }

    /// Adds a checker.
    mutating func add(_ checker: some Checker) {
        added.append(checker)
        subscription.formUnion(checker.subscription)
    }
}

extension Simulation {
    /// The auditor, the checker beside the world that owns the verdict.
    package var auditor: Auditor {
        get { checkers.auditor }
        _modify { yield &checkers.auditor }
    }

    /// Adds a checker beside the auditor, before anything has run; it sees the facts of its
    /// kinds from then on. A restarted world (`restart`) has the auditor only.
    package mutating func addChecker(_ checker: some Checker) {
        checkers.add(checker)
        outbox.subscribed = checkers.subscription
    }

    /// The first checker of type `C` added, as it is now.
    package func checker<C: Checker>(_ type: C.Type) -> C? {
        checkers.added.lazy.compactMap { $0 as? C }.first
    }

    /// Lets time pass through the last grace period on the auditor's clock, the world doing
    /// nothing meanwhile: the verdict waits for them. Call it once the world has settled.
    mutating func letGracePeriodsEnd(into written: inout [LogEntry]?) {
        guard let last = checkers.lastWake else { return }
        passTime(before: last, through: true, into: &written)
    }
}

extension Auditor {
    mutating func takeRoom(from old: inout Auditor) {
        Room.move(&old.anomalies, into: &anomalies)
        anomaliesRevision = 0
        Room.move(&old.forgedCredits, into: &forgedCredits)
        ledger.takeRoom(from: &old.ledger)
    }
}
