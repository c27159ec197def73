/// One log entry: a fact, when it happened, and the part it belongs to.
package struct LogEntry: Sendable, Hashable {
    package var time: VirtualTime
    package var part: Part
    package var fact: Fact {
        didSet { triggers = TriggerSet(fact.trigger) }
    }
    /// The trigger code of `fact`, kept beside it: the engine asks it of every entry.
    private(set) var triggers: TriggerSet

    package init(time: VirtualTime, part: Part, fact: __owned Fact) {
        self.time = time
        self.part = part
        triggers = TriggerSet(fact.trigger)
        self.fact = fact
    }
}
