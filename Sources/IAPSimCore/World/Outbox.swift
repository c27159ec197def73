/// What a part produces while it handles something: facts for the log, actions to
/// schedule, and messages for the network. The engine applies it; parts never reach
/// into one another except through StoreKit's synchronous API.
package struct Outbox: Sendable {
    package internal(set) var now: VirtualTime
    package internal(set) var policy: Policy
    package internal(set) var facts: [LogEntry] = []
    /// The timers set so far are `timers[0..<timerCount]`; the rest are spent ones whose
    /// room is reused.
    var timers: [Timer] = []
    var timerCount = 0
    package internal(set) var sends: [Message] = []
    var nextMessageId: Int
    var nextExchange: Int
    /// What the event being handled tells its onlooker beyond its facts (`OnlookerNote`),
    /// each with the place in `facts` where what the onlooker answers goes. Empty but under
    /// serve; the world's `commit` hands them over and empties it.
    var notes: [(note: OnlookerNote, at: Int)] = []
    /// False when nobody keeps or collects the log: then `facts` holds only the facts of
    /// the kinds in `subscribed`, and the others are only counted (explore runs write many
    /// facts that nobody reads; building and dropping them at once is the cheap way to
    /// write them).
    var keepsEveryFact: Bool
    /// The kinds of fact some checker beside the world reads: the engine builds these even
    /// when it keeps no log. The world sets it from its checkers' subscriptions.
    var subscribed: FactKindSet
    /// How many facts were written but not kept in `facts` (the engine still counts them
    /// in `logCount`).
    var unkept = 0
    /// The trigger codes of every fact written.
    var triggers = TriggerSet()
    /// The merchant is the user's backend (`iapsim serve`): what only the simulated
    /// merchant server would receive is not sent.
    var served = false

    /// The actions of the engine's queued events, by slot (a free slot holds `.vacant`). The outbox keeps them so that `after` moves an action once,
    /// straight into its slot; the queue orders three numbers per event.
    var pending: [Action] = []
    var freeSlots: [Int] = []

    /// An action to schedule `delay` ms from now, parked in `pending[slot]`.
    struct Timer: Sendable {
        var delay: VirtualTime
        var slot: Int
    }

    init(
        now: VirtualTime, policy: Policy, nextMessageId: Int, nextExchange: Int,
        subscribed: FactKindSet = FactKindSet(), keepsEveryFact: Bool = true
    ) {
        self.subscribed = subscribed
        self.now = now
        self.policy = policy
        self.nextMessageId = nextMessageId
        self.nextExchange = nextExchange
        self.keepsEveryFact = keepsEveryFact
    }

    /// Inlined into every call site, where the fact's case is known: its trigger code and
    /// kind fold to constants, and a fact nobody keeps is never built (its strings are
    /// neither copied nor released).
    @inline(__always)
    mutating func log(_ part: @autoclosure () -> Part, _ fact: @autoclosure () -> Fact) {
        if keepsEveryFact {
            keep(LogEntry(time: now, part: part(), fact: fact()))
            return
        }
        let f = fact()
        triggers.insert(f.trigger)
        if subscribed.contains(f.kind) {
            keep(LogEntry(time: now, part: part(), fact: f))
        } else {
            unkept += 1
        }
    }

    /// `log` for narration (a fault armed or fired): facts that are no trigger and that no
    /// checker reads, so that a run keeping no log only counts them and never builds their
    /// words.
    @inline(__always)
    mutating func narrate(_ part: Part, _ fact: @autoclosure () -> Fact) {
        guard keepsEveryFact else {
            unkept += 1
            return
        }
        let f = fact()
        assert(f.trigger == nil && !subscribed.contains(f.kind), "narration must be no trigger and unread: \(f)")
        keep(LogEntry(time: now, part: part, fact: f))
    }

    @inline(never)
    mutating func keep(_ entry: __owned LogEntry) {
        if keepsEveryFact { triggers.formUnion(entry.triggers) }
        if facts.capacity == 0 { facts.reserveCapacity(8) }
        facts.append(entry)
    }

    mutating func after(_ delay: VirtualTime, _ action: consuming Action) {
        var action = action
        let timer = Timer(delay: delay, slot: park(&action))
        if timerCount < timers.count { timers[timerCount] = timer } else { timers.append(timer) }
        timerCount += 1
    }

    /// Moves an action into a free slot of `pending` (leaving `.vacant` in its place)
    /// and returns the slot.
    mutating func park(_ action: inout Action) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = pending.count
            pending.append(.vacant)
        }
        swap(&action, &pending[slot])
        return slot
    }

    /// Takes the action out of `slot`, which becomes free.
    mutating func unpark(_ slot: Int) -> Action {
        var action = Action.vacant
        swap(&action, &pending[slot])
        freeSlots.append(slot)
        return action
    }

    /// Starts a new exchange and returns its number.
    mutating func newExchange() -> Int {
        nextExchange += 1
        return nextExchange
    }

    /// Queues a message for the network.
    mutating func send(
        _ route: Route, _ direction: Direction, _ sender: Sender,
        exchange: Int, _ payload: Payload
    ) {
        nextMessageId += 1
        sends.append(
            Message(
                id: nextMessageId, exchange: exchange, route: route,
                direction: direction, sender: sender, payload: payload, sentAt: now))
    }
}
