import IAPSimCore

/// What moving the world live (the terminal UI's clock) came to.
package struct LiveAdvance: Sendable, Hashable {
    /// The next step's trigger is due: an `at`/`after` time was reached, or the event a
    /// `when` waits for happened. The clock stopped there; `playStep()` runs it at once.
    package var stepDue = false
    /// The watched event (see `advance(until:maxEvents:watch:)`) happened; the clock stopped
    /// right after it, before any other event.
    package var watchFired = false

    package init(stepDue: Bool = false, watchFired: Bool = false) {
        self.stepDue = stepDue
        self.watchFired = watchFired
    }
}

/// Live play: the clock runs in small moves between steps, and a person may act in between.
/// Moving in small pieces gives the same world as `playStep()` moving at once, because
/// events are ordered by (time, sequence) whatever the chunks.
extension ScenarioPlayer {
    /// When the next step's trigger fires by time (`at`, `after`), or nil (a `when` step,
    /// or no step left).
    package var nextStepTime: VirtualTime? {
        guard !stepsDone else { return nil }
        return runner.deadline(of: scenario.steps[nextStep].trigger)
    }

    /// True when the next step may run now without moving the clock.
    package var nextStepIsDue: Bool {
        guard !stepsDone else { return false }
        return runner.isDue(scenario.steps[nextStep].trigger, now: simulation.now)
    }

    /// Moves the world towards `time`, never past the next step's trigger, event by event
    /// when a `when` step or a `watch` needs it. `maxEvents` bounds the events run (the UI's
    /// "one event" key). Facts written count for the next `when` step.
    package mutating func advance(
        until time: VirtualTime, maxEvents: Int? = nil,
        watch: TriggerEvent? = nil
    ) -> LiveAdvance {
        if nextStepIsDue { return LiveAdvance(stepDue: true) }
        var target = time
        if let t = nextStepTime { target = min(target, t) }
        var whenEvent: TriggerEvent?
        var whenLimit = VirtualTime.max
        if !stepsDone, case .when(let event, _) = scenario.steps[nextStep].trigger {
            whenEvent = event
            whenLimit = runner.limit(of: scenario.steps[nextStep].trigger, now: simulation.now)!
            target = min(target, whenLimit)
        }
        var ran = 0
        var none: [LogEntry]?
        while let next = simulation.nextEventTime, next <= target {
            if let maxEvents, ran >= maxEvents { return LiveAdvance() }
            let events = simulation.step(into: &none) ?? TriggerSet()
            ran += 1
            if !stepsDone { runner.saw(events) }
            let due = whenEvent.map { events.contains($0) } ?? false
            let fired = watch.map { events.contains($0) } ?? false
            if due || fired { return LiveAdvance(stepDue: due, watchFired: fired) }
        }
        // "One event" moves the clock only as far as that event.
        if maxEvents == nil { simulation.run(until: target) }
        // A `when` whose limit has passed is due too: playing it reports the timeout.
        return LiveAdvance(stepDue: nextStepIsDue || simulation.now >= whenLimit)
    }

    /// A command a person adds between the steps (a trainer's extra fault). Its facts
    /// count for the next `when` step, as the steps' own do.
    @discardableResult
    package mutating func inject(_ command: Command) -> [LogEntry] {
        var collected: [LogEntry]? = []
        if stepsDone {
            _ = simulation.apply(command, into: &collected)
        } else {
            runner.inject(command, in: &simulation, into: &collected)
        }
        return collected ?? []
    }
}
