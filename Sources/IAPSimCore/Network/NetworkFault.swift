/// The network's faults on one route: the next request or answer lost, a latency. One family
/// of `Command` (`Command.networkFault`): its words, its refusal, how it is armed and its
/// narration, each an exhaustive switch here. (`network on|off` is the device's connectivity,
/// a command of its own; how the network words and heals what is armed is
/// `Network+Faults.swift`.)
package enum NetworkFault: Sendable, Hashable {
    /// `drop-next-request ROUTE`: the next request on ROUTE is lost on the way.
    case dropNextRequest(Route)
    /// `drop-next-response ROUTE`: the server handles the next request on ROUTE, its answer is lost.
    case dropNextResponse(Route)
    /// `latency ROUTE DURATION`: one-way latency on ROUTE from now on.
    case latency(Route, VirtualTime)

    /// The route the fault is on.
    var route: Route {
        switch self {
        case .dropNextRequest(let r), .dropNextResponse(let r), .latency(let r, _): return r
        }
    }

    /// The command's text as a scenario file writes it.
    var scenarioText: String {
        switch self {
        case .dropNextRequest(let r): return "drop-next-request \(r.rawValue)"
        case .dropNextResponse(let r): return "drop-next-response \(r.rawValue)"
        case .latency(let r, let ms): return "latency \(r.rawValue) \(DurationText.format(ms))"
        }
    }

    /// Its row of the vocabulary.
    var spec: CommandSpec {
        switch self {
        case .dropNextRequest: return .dropNextRequest
        case .dropNextResponse: return .dropNextResponse
        case .latency: return .latency
        }
    }

    /// A line a generated story says for it (explore's findings).
    var narration: String {
        switch self {
        case .dropNextRequest(let r): return "The next \(r.rawValue) request will be lost."
        case .dropNextResponse(let r): return "The next \(r.rawValue) response will be lost."
        case .latency: return scenarioText + "."
        }
    }
}

extension Command {
    package static func dropNextRequest(_ route: Route) -> Command { .networkFault(.dropNextRequest(route)) }
    package static func dropNextResponse(_ route: Route) -> Command { .networkFault(.dropNextResponse(route)) }
    package static func latency(_ route: Route, _ ms: VirtualTime) -> Command { .networkFault(.latency(route, ms)) }
}

extension World {
    /// Why a network fault cannot be armed now, or nil: its route must exist in this world.
    mutating func refusing(_ fault: NetworkFault) -> String? {
        switch fault {
        case .dropNextRequest, .dropNextResponse, .latency:
            if !fault.route.exists(in: policy.storekit) {
                return
                    "StoreKit 2 has no \(fault.route.rawValue) route: the server checks the signed transaction itself"
            }
        }
        return nil
    }

    /// Arms the fault on its route.
    mutating func perform(_ fault: NetworkFault) {
        switch fault {
        case .dropNextRequest(let route):
            network.dropNextRequest.insert(route)
            outbox.narrate(.fault, .faultArmed("the next \(route.rawValue) request will be lost"))
        case .dropNextResponse(let route):
            network.dropNextResponse.insert(route)
            outbox.narrate(.fault, .faultArmed("the next \(route.rawValue) response will be lost"))
        case .latency(let route, let ms):
            network.routeLatencyMs[route.index] = ms
            outbox.narrate(
                .fault, .faultArmed("one-way latency on \(route.rawValue) is now \(DurationText.format(ms))"))
        }
    }
}

/// A route's faults as rows of the vocabulary (docs/scenario-format.md).
extension CommandSpec {
    static let dropNextRequest = CommandSpec(
        "drop-next-request", usage: "drop-next-request ROUTE", fault: true,
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .dropNextRequest(try a.route(0))
        },
        explore: ExploreDraw(slot: 3, weight: 1) { rng, m in
            rng.below(2) == 0 ? .dropNextRequest(m.route) : .dropNextResponse(m.route)
        }, doc: "the next request on ROUTE is lost on the way (the receiver never sees it)")
    static let dropNextResponse = CommandSpec(
        "drop-next-response", usage: "drop-next-response ROUTE", fault: true,
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .dropNextResponse(try a.route(0))
        }, doc: "the next request on ROUTE is handled but its answer is lost")
    static let latency = CommandSpec(
        "latency", usage: "latency ROUTE DURATION", fault: true,
        read: { a throws(CommandError) in
            try a.exactly(2)
            return .latency(try a.route(0), try a.duration(1))
        },
        explore: ExploreDraw(slot: 13, weight: 1) { rng, m in
            .latency(m.route, [80, 500, 2_000][rng.below(3)])
        },
        simpler: { command in
            if case .networkFault(.latency(let r, let ms)) = command, ms > 500 { return [.latency(r, 500)] }
            return []
        }, doc: "the one-way latency of ROUTE from now on")
}

extension NetworkFault {
    /// The family's rows of the vocabulary, in the format's order (`CommandSpec.all` is built
    /// from the families).
    static let specs: [CommandSpec] = [.dropNextRequest, .dropNextResponse, .latency]
}
