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

/// The checkers beside the world: the auditor, and any a caller added. The harness
/// (`Simulation`) holds them beside the world and lends them to it as its `Onlooker`; the
/// engine knows them only by what that protocol asks: the facts of the kinds they read
/// (`see`), the notes an event writes for them (`hear`), a look after each event or passage
/// of time (`look`). The harness asks the rest: which kinds they read (`subscription`), and
/// the times they must look again though the world does nothing (`nextWake`, `takeWake`).
/// What the auditor watches, and why, is the auditor's business: a new anomaly type with a
/// watch list of its own edits the auditor, never the engine nor the harness.
package struct Checkers: Onlooker, Sendable {
    package internal(set) var auditor: Auditor
    /// The checkers a caller added, in the order added. Empty in every run of the tools.
    var added: [any Checker] = []
    /// What they read, together (the engine's `Outbox.subscribed`).
    package private(set) var subscription = Auditor.subscription

    init(catalog: Catalog) { auditor = Auditor(catalog: catalog) }

    /// Shows the checkers one fact of a kind some of them read.
    @inline(__always)
    package mutating func see(_ entry: LogEntry, _ out: inout [LogEntry]) {
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
    package var looksAtParts: Bool {
        !auditor.ledger.active.isEmpty || !auditor.ledger.unclawed.isEmpty || !auditor.ledger.overclaws.isEmpty
            || !added.isEmpty
    }

    /// The checkers' look after an event or a passage of time, at what they keep themselves
    /// (the auditor's acknowledgements and entitlement timelines): what they find goes to `out`.
    @inline(__always)
    package mutating func look(now: VirtualTime, _ out: inout [LogEntry]) {
        if !auditor.acks.isEmpty { auditor.checkAcks(now: now, &out) }
        if !auditor.subscriberTimelines.isEmpty { auditor.evaluateTimelines(now: now, &out) }
    }

    /// The checkers' look at the parts (when `looksAtParts`), after `look(now:)`. Never
    /// inlined: inlined into the harness's `passTime`, the optimizer makes `added` unique
    /// before the loop there, which allocates a list for every passage of time.
    @inline(never)
    package mutating func look(
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

    /// Hands the auditor what an event told it beyond its facts (under serve).
    package mutating func hear(_ note: OnlookerNote, at now: VirtualTime, _ out: inout [LogEntry]) {
        switch note {
        case .acknowledged(let txn): auditor.acknowledged(txn, at: now)
        case .newsAcknowledged(let txn, let type, let status):
            auditor.newsAcknowledged(txn, type: type, status: status, at: now)
        case .ledgerMismatch(let account, let coins, let expected):
            auditor.ledgerMismatch(account: account, coins: coins, expected: expected, at: now, &out)
        }
    }

    /// The auditor has a record of every charge the App Store made, and only those.
    package func violations(in world: World) -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        let audited = auditor.ledger.charges
        var charged = 0
        func breach(_ detail: String) {
            found.append(InvariantViolation(rule: .auditorSawEveryCharge, detail: detail, at: world.now))
        }
        // Compared as sets: an Ask to Buy approved late is charged after younger transactions.
        // A re-purchase of an owned non-consumable (it carries the original's id) took no money.
        // Subscription charges are the entitlement timeline's business, not the ledger's.
        for t in world.store.transactions where t.chargedAt != nil && t.originalId == nil && t.subscription == nil {
            charged += 1
            if !audited.contains(where: { $0.txn == t.id }) {
                breach("\(t.id) was charged; the auditor has no record of it")
            }
        }
        if audited.count != charged {
            breach("the auditor has \(audited.count) charges, the App Store made \(charged)")
        }
        return found
    }

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

extension Auditor {
    mutating func takeRoom(from old: inout Auditor) {
        Room.move(&old.anomalies, into: &anomalies)
        anomaliesRevision = 0
        Room.move(&old.forgedCredits, into: &forgedCredits)
        ledger.takeRoom(from: &old.ledger)
    }
}
