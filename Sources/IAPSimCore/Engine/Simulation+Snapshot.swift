/// Read-only views of the world for UIs: what a panel shows, derived, never stored twice.
extension Simulation {
    /// The log entries written since the log held `count` entries in all (`logCount`),
    /// oldest first. Correct with a bounded log as long as fewer than `logLimit` entries
    /// were written since.
    public func entries(since count: Int) -> ArraySlice<LogEntry> {
        let n = min(log.count, max(0, logCount - count))
        return log.suffix(n)
    }

    /// Faults armed and waiting to fire, in words: the next payment's fate, dropped
    /// messages, the App Store's state, a device offline.
    public var armedFaults: [String] {
        var out: [String] = []
        if store.interruptNext { out.append("next payment interrupted") }
        if let f = store.nextFailure { out.append("next payment fails (\(f.rawValue))") }
        if app.skipFinishNextFailed { out.append("next failure left unfinished") }
        if store.askToBuy { out.append("Ask to Buy on") }
        if store.outage { out.append("App Store outage") }
        if !network.deviceOnline { out.append("device offline") }
        for r in Route.allCases where network.dropNextRequest.contains(r) {
            out.append("drop next \(r.rawValue) request")
        }
        for r in Route.allCases where network.dropNextResponse.contains(r) {
            out.append("drop next \(r.rawValue) response")
        }
        return out
    }
}
