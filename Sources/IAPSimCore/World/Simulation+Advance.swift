extension Simulation {
    /// Steps until `event` happens, at most `within` virtual milliseconds from now, and
    /// appends what was stepped through to `written` unless it is nil. Returns false (with
    /// the clock at the limit) if it did not happen.
    package mutating func advance(
        until event: TriggerEvent, within: VirtualTime,
        into written: inout [LogEntry]?
    ) -> Bool {
        let limit = now + within
        while let t = nextEventTime, t <= limit {
            if step(into: &written)?.contains(event) == true { return true }
        }
        if isExternal { runTicks(before: limit, through: true, into: &written) }
        passTime(before: limit, through: true, into: &written)
        now = max(now, limit)
        return false
    }
}
