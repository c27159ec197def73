extension Simulation {
    /// Steps until `event` happens, at most `within` virtual milliseconds from now, and
    /// appends what was stepped through to `written` unless it is nil. Returns false (with
    /// the clock at the limit) if it did not happen.
    public mutating func advance(until event: TriggerEvent, within: VirtualTime,
                                 into written: inout [LogEntry]?) -> Bool {
        let limit = now + within
        while let t = nextEventTime, t <= limit {
            if step(into: &written)?.contains(event) == true { return true }
        }
        now = max(now, limit)
        return false
    }

    /// The heal phase of a fault run: faults off, the app launched, somebody logged in.
    /// What is recoverable must then recover while the world settles. Made only of
    /// commands, so that a scenario can replay it; returns the commands it applied.
    @discardableResult
    public mutating func heal() -> [Command] {
        var applied: [Command] = []
        func run(_ c: Command, _ sim: inout Simulation) {
            var none: [LogEntry]?
            _ = sim.apply(c, into: &none)
            applied.append(c)
        }
        if !network.deviceOnline { run(.network(on: true), &self) }
        if store.outage { run(.storeOutage(on: false), &self) }
        if store.askToBuy { run(.askToBuy(on: false), &self) }
        for route in Route.allCases where network.latency(route) != 80 {
            run(.latency(route, 80), &self)
        }
        if !app.isRunning { run(.launch, &self) }
        if app.loggedIn == nil, let user = config.users.first { run(.login(user: user), &self) }
        return applied
    }
}
