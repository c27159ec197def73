/// What the engine knows of whoever watches the world from beside it: the harness
/// (`Simulation`) keeps its checkers there and lends them to each event, command and
/// passage of time. The engine asks only this: it shows the facts of the kinds the onlooker
/// reads (`see`), hands over what an event tells it beyond its facts (`hear`), and lets it
/// look after each event (`look`), at the parts when it asks to (`looksAtParts`). The onlooker never changes the world.
///
/// The engine's methods take it as a generic parameter, passed `inout`: release builds
/// specialise them for the harness's checkers, so nothing in the hot path is an existential.
package protocol Onlooker {
    /// Reads one fact of a kind it subscribes to (`World.init(unlaunched:subscription:)`),
    /// right after the world wrote it; what it writes to `out` follows that fact in the log.
    mutating func see(_ entry: LogEntry, _ out: inout [LogEntry])
    /// Reads a note an event wrote for it (`OnlookerNote`), at `now`, before the event's
    /// facts; what it writes to `out` takes the note's place among them.
    mutating func hear(_ note: OnlookerNote, at now: VirtualTime, _ out: inout [LogEntry])
    /// Looks again after an event, a command or a passage of time, at what it keeps itself.
    mutating func look(now: VirtualTime, _ out: inout [LogEntry])
    /// True when it wants to look at the parts after this event (then `look(now:store:...)`
    /// follows `look(now:)`): passing them costs a copy of each part's references.
    var looksAtParts: Bool { get }
    /// Looks at what can still act.
    mutating func look(
        now: VirtualTime, store: AppStore, app: AppProcess, server: MerchantServer, policy: Policy,
        _ out: inout [LogEntry])
    /// What it holds that must agree with the world (debug builds ask after every event).
    func violations(in world: World) -> [InvariantViolation]
}

/// What an event tells the onlooker beyond its facts: under serve (docs/serve.md, rules 18
/// and 19) the backend's answers are no fact of the world's, but they are what the verdict
/// judges.
package enum OnlookerNote: Sendable, Hashable {
    /// The backend answered success for a charge (a report answered credited or
    /// already-credited, a `ONE_TIME_CHARGE` answered 200-206): its row must follow.
    case acknowledged(txn: String)
    /// The backend answered a `REFUND` or `REFUND_REVERSED` of `txn` with success (`status`,
    /// 200-206): Apple will not send it again, so what the backend did with it is final.
    case newsAcknowledged(txn: String, type: NotificationType, status: Int)
    /// An account's balance is not what its rows and spending make it.
    case ledgerMismatch(account: String, coins: Int, expected: Int)
}
