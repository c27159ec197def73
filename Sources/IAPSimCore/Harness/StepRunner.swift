/// What makes a step run.
package enum StepTrigger: Sendable, Hashable {
    /// At this virtual time since the start of the run.
    case at(VirtualTime)
    /// This long after the previous step ran.
    case after(VirtualTime)
    /// Right after the next event of this kind following the previous step; it has not
    /// come when `within` has passed.
    case when(TriggerEvent, within: VirtualTime)

    /// How long a `when` waits unless the step says `within`: 10 minutes of virtual time.
    package static let defaultWithin: VirtualTime = 600_000

    /// The trigger as a transcript prints it before the command (`after 3s: `, `when
    /// charged: `; nothing for `after: 0`).
    package var prefix: String {
        switch self {
        case .after(0): return ""
        case .after(let ms): return "after \(DurationText.format(ms)): "
        case .at(let ms): return "at \(DurationText.format(ms)): "
        case .when(let event, _): return "when \(event.rawValue): "
        }
    }
}

/// Plays steps (a trigger, then a command) on a simulation: the one runner behind `run`,
/// `play`, the terminal UI and explore.
///
/// `at` runs the world to that time (one that has passed runs at once); `after` to that
/// long after the previous step ended (a `wait` ends when its time has run); `when` steps
/// event by event until one of that kind happens, and the command runs right after it,
/// before any other event. The facts the previous step's own command wrote count as
/// happening after it (`do: buy …` then `when: request order` matches the order request the
/// purchase sends); what happened during a `wait` or `settle` does not.
package struct StepRunner: Sendable, Hashable {
    /// When the previous step's command ended.
    package private(set) var lastStepEnd: VirtualTime = 0
    /// The trigger events written since the previous step's command began, which the next
    /// `when` may match.
    package private(set) var written = TriggerSet()

    package init() {}

    /// When `trigger` fires by time, or nil for a `when`.
    package func deadline(of trigger: StepTrigger) -> VirtualTime? {
        switch trigger {
        case .at(let time): return time
        case .after(let delay): return lastStepEnd + delay
        case .when: return nil
        }
    }

    /// The latest time a `when` trigger may still fire, or nil for the others.
    package func limit(of trigger: StepTrigger, now: VirtualTime) -> VirtualTime? {
        guard case .when(_, let within) = trigger else { return nil }
        return max(lastStepEnd + within, now)
    }

    /// True when `trigger` has fired without the clock moving any further.
    package func isDue(_ trigger: StepTrigger, now: VirtualTime) -> Bool {
        switch trigger {
        case .at, .after: return now >= deadline(of: trigger)!
        case .when(let event, _): return written.contains(event)
        }
    }

    /// Moves the world until `trigger` fires, appending what it wrote meanwhile to
    /// `collected` unless that is nil. Returns false when a `when` did not come within its
    /// limit; the clock is then at the limit.
    package mutating func reach(
        _ trigger: StepTrigger, in sim: inout Simulation,
        into collected: inout [LogEntry]?
    ) -> Bool {
        defer { written = TriggerSet() }
        switch trigger {
        case .at, .after:
            let time = deadline(of: trigger)!
            // `after: 0` runs the command at once, before other events due now.
            if time > sim.now { sim.run(until: time, into: &collected) }
            return true
        case .when(let event, _):
            if written.contains(event) { return true }
            let limit = self.limit(of: trigger, now: sim.now)!
            return sim.advance(until: event, within: limit - sim.now, into: &collected)
        }
    }

    /// Runs a step's command now, appending what it wrote to `collected` unless nil.
    package mutating func perform(
        _ command: Command, in sim: inout Simulation,
        into collected: inout [LogEntry]?
    ) {
        written = sim.apply(command, into: &collected)
        lastStepEnd = sim.now
    }

    /// A command run between the steps (a trainer's extra fault): its facts count for the
    /// next `when`, as a step's own do; a `wait` or `settle` forgets them.
    package mutating func inject(
        _ command: Command, in sim: inout Simulation,
        into collected: inout [LogEntry]?
    ) {
        let wrote = sim.apply(command, into: &collected)
        // What happens while time runs is no fact of `wait`'s or `settle`'s (`apply` returns none).
        if command.spec.word == "wait" || command.spec.word == "settle" {
            written = TriggerSet()
        } else {
            written.formUnion(wrote)
        }
    }

    /// Events the world wrote while it was moved by hand (the UI's clock): they count for
    /// the next `when`.
    package mutating func saw(_ events: TriggerSet) { written.formUnion(events) }
}
