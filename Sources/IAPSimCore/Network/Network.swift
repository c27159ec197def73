/// One message as the network inspector shows it.
package struct TrafficRecord: Sendable, Hashable {
    package var id: Int
    package var exchange: Int
    package var route: Route
    package var direction: Direction
    package var sender: Sender
    package var bytes: Int
    package var sentAt: VirtualTime
    package var latencyMs: VirtualTime?
    package var fate: MessageFate
}

/// Per-route totals for the inspector.
package struct RouteTotals: Sendable, Hashable {
    package var messages = 0
    package var bytes = 0
    package var delivered = 0
    package var dropped = 0
    package var timedOut = 0
    package var offline = 0
    package var retries = 0
}

/// The network between app, merchant server and App Store: one interception point that
/// decides every message's fate and records it.
package struct Network: Sendable, Hashable {
    /// Device connectivity (routes `order` and `recharge`; `verify` is server to server).
    package var deviceOnline = true
    /// One-way latency per route.
    package var latencyMs: [Route: VirtualTime] {
        get { Dictionary(uniqueKeysWithValues: Route.allCases.map { ($0, routeLatencyMs[$0.index]) }) }
        set {
            for route in Route.allCases { routeLatencyMs[route.index] = newValue[route] ?? Network.defaultLatencyMs }
        }
    }
    /// Per-route latency, indexed by `Route.index` (an array: read on every message).
    var routeLatencyMs = Network.defaultLatencies
    // Built once: every world starts from these (a copy shares them until its first change).
    static let routes = Route.allCases
    static let defaultLatencies = [VirtualTime](repeating: defaultLatencyMs, count: routes.count)
    static let noTotals = [RouteTotals](repeating: RouteTotals(), count: routes.count)

    /// One-way latency on every route unless a `latency` command says otherwise.
    static let defaultLatencyMs: VirtualTime = 80
    package var dropNextRequest: RouteSet = []
    package var dropNextResponse: RouteSet = []
    /// The most recent messages, oldest first (bounded to `recentLimit`; 0 keeps none, as in
    /// a world that keeps no log).
    package var recent: [TrafficRecord] { Array(window) }
    var recentLimit: Int
    /// Every message since the last trim; `recent` is its tail from `recentStart`.
    /// Trimmed in chunks, so that remembering a message stays amortised O(1).
    var history: [TrafficRecord] = []
    var recentStart = 0
    var window: ArraySlice<TrafficRecord> { history[recentStart...] }
    /// Per-route totals, indexed by `Route.index`.
    var routeTotals = Network.noTotals

    static let clientTimeoutMs: VirtualTime = 10_000

    package init(recentLimit: Int = 200) { self.recentLimit = recentLimit }

    package static func == (a: Network, b: Network) -> Bool {
        a.deviceOnline == b.deviceOnline && a.routeLatencyMs == b.routeLatencyMs
            && a.dropNextRequest == b.dropNextRequest && a.dropNextResponse == b.dropNextResponse
            && a.window == b.window && a.routeTotals == b.routeTotals && a.recentLimit == b.recentLimit
    }

    package func hash(into h: inout Hasher) {
        h.combine(deviceOnline)
        h.combine(window.count)
        h.combine(routeTotals)
    }

    package func totals(for route: Route) -> RouteTotals { routeTotals[route.index] }

    package func latency(_ route: Route) -> VirtualTime { routeLatencyMs[route.index] }

    /// Takes a message from a sender and decides its fate.
    mutating func transmit(_ m: consuming Message, _ out: inout Outbox) {
        let bytes = m.payload.bytes
        routeTotals[m.route.index].messages += 1
        routeTotals[m.route.index].bytes += bytes
        if case .rechargeRequest(let r) = m.payload, r.reason != .firstDelivery {
            routeTotals[m.route.index].retries += 1
        }
        var record = TrafficRecord(
            id: m.id, exchange: m.exchange, route: m.route,
            direction: m.direction, sender: m.sender, bytes: bytes,
            sentAt: m.sentAt, latencyMs: nil, fate: .inFlight)
        out.log(
            .network,
            .messageSent(
                id: m.id, route: m.route, direction: m.direction,
                bytes: bytes, sender: m.sender))
        let onDevice = m.route.fromDevice && m.sender == .app
        if onDevice && !deviceOnline {
            record.fate = .offline
            routeTotals[m.route.index].offline += 1
            out.log(.network, .requestFailedOffline(route: m.route))
            if m.direction == .request {
                out.after(0, .appRequestFailedOffline(exchange: m.exchange))
            }
        } else if takeDrop(m) {
            record.fate = .dropped
            routeTotals[m.route.index].dropped += 1
            out.narrate(.fault, .faultFired("\(m.route.rawValue) \(m.direction.rawValue) dropped"))
            out.log(.network, .messageDropped(id: m.id, route: m.route, direction: m.direction))
        } else {
            let delay = latency(m.route)
            out.after(delay, .arrive(consume m))
        }
        remember(record)
    }

    mutating func takeDrop(_ m: Message) -> Bool {
        switch m.direction {
        case .request: return !dropNextRequest.isEmpty && dropNextRequest.remove(m.route) != nil
        case .response: return !dropNextResponse.isEmpty && dropNextResponse.remove(m.route) != nil
        }
    }

    mutating func remember(_ record: TrafficRecord) {
        guard recentLimit > 0 else { return }
        history.append(record)
        recentStart = max(recentStart, history.count - recentLimit)
        if recentStart >= max(recentLimit, 64) {
            history.removeFirst(recentStart)
            recentStart = 0
        }
    }

    /// Marks a message as arrived (or lost at a receiver that is gone).
    mutating func arrived(_ m: Message, receiverAlive: Bool, _ out: inout Outbox) {
        let latency = out.now - m.sentAt
        setFate(m.id, receiverAlive ? .delivered : .lost, latency: latency)
        if receiverAlive { routeTotals[m.route.index].delivered += 1 }
        out.log(
            .network,
            receiverAlive
                ? .messageArrived(id: m.id, route: m.route, direction: m.direction, latencyMs: latency)
                : .messageUnclaimed(id: m.id, route: m.route, direction: m.direction, latencyMs: latency))
    }

    /// The sender gave up waiting for the answer to this exchange.
    mutating func timedOut(exchange: Int, route: Route, _ out: inout Outbox) {
        routeTotals[route.index].timedOut += 1
        let id = window.last(where: { $0.exchange == exchange && $0.direction == .request })?.id ?? 0
        for i in window.indices
        where history[i].exchange == exchange
            && (history[i].fate == .delivered || history[i].fate == .inFlight) && history[i].direction == .request
        {
            history[i].fate = .timedOut
        }
        out.log(.network, .requestTimedOut(id: id, route: route))
    }

    mutating func setFate(_ id: Int, _ fate: MessageFate, latency: VirtualTime?) {
        guard let i = window.lastIndex(where: { $0.id == id }) else { return }
        history[i].fate = fate
        history[i].latencyMs = latency
    }
}
