extension Simulation {
    /// Steps until `event` happens, at most `within` virtual milliseconds from now, and
    /// appends what was stepped through to `written` unless it is nil. Returns false (with
    /// the clock at the limit) if it did not happen.
    package mutating func advance(
        until event: TriggerEvent, within: VirtualTime,
        into written: inout [LogEntry]?
    ) -> Bool {
        let limit = world.now + within
        while let t = world.nextEventTime, t <= limit {
            if step(into: &written)?.contains(event) == true { return true }
        }
        if world.isExternal { runTicks(before: limit, through: true, into: &written) }
        passTime(before: limit, through: true, into: &written)
        world.passTo(limit)
        return false
    }

    /// Runs every event up to and including `time`, then sets the clock to `time`.
    package mutating func run(until time: VirtualTime) {
        var none: [LogEntry]?
        run(until: time, into: &none)
    }

    /// `run(until:)`, appending what the events wrote to `written` unless it is nil.
    package mutating func run(until time: VirtualTime, into written: inout [LogEntry]?) {
        while let t = world.nextEventTime, t <= time { step(into: &written) }
        if world.isExternal { runTicks(before: time, through: true, into: &written) }
        passTime(before: time, through: true, into: &written)
        world.passTo(time)
    }

    /// `run(until:into:)` that stops early, after the event that brings `written` to `limit`
    /// entries or more; returns true once the clock is at `time`. Called again, it goes on
    /// where it stopped: the same events in the same order, handed out in slices.
    package mutating func run(until time: VirtualTime, into written: inout [LogEntry]?, stoppingAfter limit: Int)
        -> Bool
    {
        while let t = world.nextEventTime, t <= time {
            step(into: &written)
            if let count = written?.count, count >= limit { return false }
        }
        if world.isExternal { runTicks(before: time, through: true, into: &written) }
        passTime(before: time, through: true, into: &written)
        world.passTo(time)
        return true
    }

    /// Runs until nothing is scheduled, bounded at 24h of virtual time from now: the clock
    /// ends at the world's last event (the checkers' own clock is their business: the
    /// verdict's `letGracePeriodsEnd`). Returns false when the bound was hit with work still scheduled.
    @discardableResult
    package mutating func settle() -> Bool {
        var none: [LogEntry]?
        return settle(into: &none)
    }

    /// `settle()`, appending what the events wrote to `written` unless it is nil.
    @discardableResult
    package mutating func settle(into written: inout [LogEntry]?) -> Bool {
        let limit = world.now + World.settleLimitMs
        while let t = world.nextEventTime {
            // The subscription clock alone (renewals, retries, grace ends, status polls)
            // does not keep a settle running.
            if world.queue.count <= world.subscriptionClockEvents { return true }
            if t > limit {
                passTime(before: limit, through: true, into: &written)
                world.passTo(limit)
                return false
            }
            step(into: &written)
        }
        return true
    }
}
