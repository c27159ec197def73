extension Simulation {
    /// Steps until an event whose trigger name is `trigger` happens, at most `within`
    /// virtual milliseconds from now. Returns false (with the clock at the limit, or at the
    /// last event when nothing more is scheduled) if it did not happen.
    public mutating func advance(untilTrigger trigger: String, within: VirtualTime) -> Bool {
        let limit = now + within
        while let t = nextEventTime, t <= limit {
            if step().contains(where: { $0.fact.triggerName == trigger }) { return true }
        }
        now = max(now, limit)
        return false
    }

    /// The heal phase of a fault run: every fault off, the app launched, somebody logged
    /// in. What is recoverable must then recover while the world settles.
    public mutating func heal() {
        let defaults: [Command] = [
            .network(on: true), .storeOutage(on: false), .askToBuy(on: false),
        ]
        for c in defaults { apply(c) }
        for route in Route.allCases where network.latency(route) != 80 {
            apply(.latency(route, 80))
        }
        network.dropNextRequest = []
        network.dropNextResponse = []
        store.nextFailure = nil
        store.interruptNext = false
        if !app.isRunning { apply(.launch) }
        if app.loggedIn == nil, let user = config.users.first { apply(.login(user: user)) }
    }
}
