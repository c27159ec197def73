/// The network's faults (docs/world.md, "Faults"): the device offline, a route's latency,
/// a request or an answer armed to be lost. Worded, ended and disarmed here alone; the world's
/// status line and its heal phase ask this part (`Simulation.armedFaults`, `heal`).
extension Network {
    /// What is armed, in words.
    /// Whether a route or the device has a fault armed (what `armedFaults` lists, without its
    /// words: asked once a run).
    var hasArmedFaults: Bool {
        !deviceOnline || routeLatencyMs != Network.defaultLatencies || !dropNextRequest.isEmpty
            || !dropNextResponse.isEmpty
    }

    var armedFaults: [String] {
        var out: [String] = []
        if !deviceOnline { out.append("device offline") }
        for r in Network.routes where latency(r) != Network.defaultLatencyMs {
            out.append("\(r.rawValue) latency \(DurationText.format(latency(r)))")
        }
        for r in Network.routes where dropNextRequest.contains(r) { out.append("drop next \(r.rawValue) request") }
        for r in Network.routes where dropNextResponse.contains(r) { out.append("drop next \(r.rawValue) response") }
        return out
    }

    /// The commands that end what stays armed once the one-shot drops are disarmed: every
    /// latency back to normal first, then the device back online (whose return the app hears);
    /// added to `out`.
    func healing(_ out: inout [Command]) {
        for r in Network.routes where latency(r) != Network.defaultLatencyMs {
            out.append(.latency(r, Network.defaultLatencyMs))
        }
        if !deviceOnline { out.append(.network(on: true)) }
    }

    /// Disarms the drops no command takes back; adds what it disarmed, in words, to `out`.
    mutating func disarm(_ out: inout [String]) {
        for r in Network.routes where dropNextRequest.remove(r) != nil { out.append("the next \(r.rawValue) request") }
        for r in Network.routes where dropNextResponse.remove(r) != nil {
            out.append("the next \(r.rawValue) response")
        }
    }
}
