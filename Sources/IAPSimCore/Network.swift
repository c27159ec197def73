/// One message as the network inspector shows it.
public struct TrafficRecord: Sendable, Hashable {
    public var id: Int
    public var exchange: Int
    public var route: Route
    public var direction: Direction
    public var sender: Sender
    public var bytes: Int
    public var sentAt: VirtualTime
    public var latencyMs: VirtualTime?
    public var fate: MessageFate
}

/// Per-route totals for the inspector.
public struct RouteTotals: Sendable, Hashable {
    public var messages = 0
    public var bytes = 0
    public var delivered = 0
    public var dropped = 0
    public var timedOut = 0
    public var offline = 0
    public var retries = 0
}

/// The network between app, merchant server and App Store: one interception point that
/// decides every message's fate and records it.
public struct Network: Sendable, Hashable {
    /// Device connectivity (routes `order` and `recharge`; `verify` is server to server).
    public var deviceOnline = true
    public var latencyMs: [Route: VirtualTime] = [.order: 80, .recharge: 80, .verify: 80]
    public var dropNextRequest: Set<Route> = []
    public var dropNextResponse: Set<Route> = []
    /// The most recent messages, oldest first (bounded to `recentLimit`).
    public internal(set) var recent: [TrafficRecord] = []
    public internal(set) var totals: [Route: RouteTotals] = [:]
    public var recentLimit = 200

    public static let clientTimeoutMs: VirtualTime = 10_000

    public init() {}

    public func totals(for route: Route) -> RouteTotals { totals[route] ?? RouteTotals() }

    public func latency(_ route: Route) -> VirtualTime { latencyMs[route] ?? 80 }

    /// Takes a message from a sender and decides its fate.
    mutating func transmit(_ m: Message, _ out: inout Outbox) {
        let bytes = m.payload.bytes
        totals[m.route, default: RouteTotals()].messages += 1
        totals[m.route, default: RouteTotals()].bytes += bytes
        if case .rechargeRequest(let r) = m.payload, r.reason != .firstDelivery {
            totals[m.route, default: RouteTotals()].retries += 1
        }
        var record = TrafficRecord(id: m.id, exchange: m.exchange, route: m.route,
                                   direction: m.direction, sender: m.sender, bytes: bytes,
                                   sentAt: m.sentAt, latencyMs: nil, fate: .inFlight)
        out.log(.network, .messageSent(id: m.id, route: m.route, direction: m.direction,
                                       bytes: bytes, sender: m.sender))
        let onDevice = m.route != .verify && m.sender == .app
        if onDevice && !deviceOnline {
            record.fate = .offline
            totals[m.route, default: RouteTotals()].offline += 1
            out.log(.network, .requestFailedOffline(route: m.route))
            if m.direction == .request {
                out.after(0, .appRequestFailedOffline(exchange: m.exchange))
            }
        } else if takeDrop(m) {
            record.fate = .dropped
            totals[m.route, default: RouteTotals()].dropped += 1
            out.log(.fault, .faultFired("\(m.route.rawValue) \(m.direction.rawValue) dropped"))
            out.log(.network, .messageDropped(id: m.id, route: m.route, direction: m.direction))
        } else {
            out.after(latency(m.route), .arrive(m))
        }
        remember(record)
    }

    mutating func takeDrop(_ m: Message) -> Bool {
        switch m.direction {
        case .request: return dropNextRequest.remove(m.route) != nil
        case .response: return dropNextResponse.remove(m.route) != nil
        }
    }

    mutating func remember(_ record: TrafficRecord) {
        recent.append(record)
        if recent.count > recentLimit { recent.removeFirst(recent.count - recentLimit) }
    }

    /// Marks a message as arrived (or lost at a receiver that is gone).
    mutating func arrived(_ m: Message, receiverAlive: Bool, _ out: inout Outbox) {
        let latency = out.now - m.sentAt
        setFate(m.id, receiverAlive ? .delivered : .lost, latency: latency)
        if receiverAlive { totals[m.route, default: RouteTotals()].delivered += 1 }
        out.log(.network, .messageArrived(id: m.id, route: m.route, direction: m.direction,
                                          latencyMs: latency))
    }

    /// The sender gave up waiting for the answer to this exchange.
    mutating func timedOut(exchange: Int, route: Route, _ out: inout Outbox) {
        totals[route, default: RouteTotals()].timedOut += 1
        let id = recent.last(where: { $0.exchange == exchange && $0.direction == .request })?.id ?? 0
        for i in recent.indices where recent[i].exchange == exchange
            && (recent[i].fate == .delivered || recent[i].fate == .inFlight) && recent[i].direction == .request {
            recent[i].fate = .timedOut
        }
        out.log(.network, .requestTimedOut(id: id, route: route))
    }

    mutating func setFate(_ id: Int, _ fate: MessageFate, latency: VirtualTime?) {
        guard let i = recent.lastIndex(where: { $0.id == id }) else { return }
        recent[i].fate = fate
        recent[i].latencyMs = latency
    }
}
