/// The App Store Server API's faults (`server-api-fail`, `server-api-slow`,
/// `server-api-outage`): one family of `Command` (`Command.serverAPIFault`), its words, its row
/// and what arming it says, each an exhaustive switch here; its state, rule and heal are
/// `ServerAPIFaultState` (the world's and serve's alike), its rows `CommandSpec+ServerAPI.swift`.
///
/// A fault of the App Store Server API (`server-api-fail`, `server-api-slow`,
/// `server-api-outage`): what the merchant server's calls to it meet. In the simulated
/// world they meet the simulated merchant's Get Transaction History and Send Consumption
/// Information; under `iapsim serve`, every call of the user's backend to the API iapsim serves.
package enum ServerAPIFault: Sendable, Hashable {
    /// The next `count` calls answer `code`'s HTTP status with error `code` (Apple's 5000001,
    /// HTTP 500, by default); `count` replaces what was armed, 0 ends it.
    case fail(count: Int, code: Int)
    /// Every answer takes this much longer (0: back to normal).
    case slow(VirtualTime)
    /// `on`: every call answers HTTP 503 until `off`.
    case outage(Bool)

    /// Apple's "An unknown error occurred. Please try again." (`GeneralInternalRetryableError`).
    package static let defaultCode = 5_000_001
    /// The codes `server-api-fail` takes: Apple's are the HTTP status and four digits, and only
    /// an error status (4xx, 5xx) makes sense as a failure (a 1xx would announce a body to come).
    package static let codes = 4_000_000...5_999_999

    var text: String {
        switch self {
        case .fail(let n, let code): return "server-api-fail \(n)" + (code == Self.defaultCode ? "" : " \(code)")
        case .slow(let ms): return "server-api-slow \(DurationText.format(ms))"
        case .outage(let on): return "server-api-outage \(on ? "on" : "off")"
        }
    }

    /// Its row of the vocabulary.
    var spec: CommandSpec {
        switch self {
        case .fail: return .serverAPIFail
        case .slow: return .serverAPISlow
        case .outage: return .serverAPIOutage
        }
    }
}

extension World {
    /// The error a faulty API answers `m` with (and sends), or nil when it answers normally: in
    /// the simulated world the faults meet the merchant server's calls on the route
    /// `server-api`; under `iapsim serve` the edge arms the API it serves to the backend.
    mutating func apiErrorAnswer(_ m: Message, call: String) -> Bool? {
        guard let (status, code) = store.apiFaults.take() else { return nil }
        outbox.log(.appStore, .noted("\(call) answered HTTP \(status) (errorCode \(code))"))
        outbox.send(.serverAPI, .response, .app, exchange: m.exchange, .apiError(status: status, code: code))
        return true
    }

    /// Arms the fault (under `iapsim serve`, on the API the edge serves to the backend too).
    mutating func perform(_ fault: ServerAPIFault) {
        store.apiFaults.apply(fault)
        switch fault {
        case .fail(let count, let code):
            outbox.narrate(
                .fault,
                .faultArmed(
                    count == 0
                        ? "the App Store Server API's calls no longer fail"
                        : "the next \(count) App Store Server API call(s) answer HTTP "
                            + "\(ServerAPIFaultState.status(of: code)) (\(code))"))
        case .slow(let ms):
            outbox.narrate(
                .fault,
                .faultArmed(
                    ms == 0
                        ? "the App Store Server API answers at its usual speed"
                        : "the App Store Server API answers \(DurationText.format(ms)) later"))
        case .outage(let on):
            outbox.narrate(
                .fault,
                .faultArmed(
                    on ? "the App Store Server API answers 503 to every call" : "the App Store Server API is back"))
        }
        if isExternal { _ = askBackend(.apiFault(fault)) }
    }
}

/// The App Store Server API's faults as rows of the vocabulary (docs/scenario-format.md).
extension CommandSpec {
    static let serverAPIFail = CommandSpec(
        "server-api-fail", usage: "server-api-fail N [CODE]",
        faultIf: { if case .serverAPIFault(.fail(let n, _)) = $0 { n > 0 } else { false } },
        read: { a throws(CommandError) in try a.serverAPIFail() },
        doc: "the next N calls to the App Store Server API (0 to 100; it replaces what was armed, `0` ends it) "
            + "answer with `errorCode` CODE and its HTTP status, CODE's first three digits (a 7-digit Apple error "
            + "code from `4000000` to `5999999`: a 4xx or 5xx; default `5000001`, HTTP 500, retryable), in the "
            + "simulated world and under `iapsim serve` alike; the caller retries on its next run")
    static let serverAPISlow = CommandSpec(
        "server-api-slow", usage: "server-api-slow DURATION", faultIf: { $0 != .serverAPIFault(.slow(0)) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .serverAPIFault(.slow(try a.duration(0)))
        },
        doc: "every answer of the App Store Server API takes DURATION longer (`0s` ends it); under `iapsim serve` "
            + "it is wall time, so a backend's timeout shows")
    static let serverAPIOutage = CommandSpec(
        "server-api-outage", usage: "server-api-outage on|off", faultIf: { $0 == .serverAPIFault(.outage(true)) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .serverAPIFault(.outage(try a.onOff(0)))
        },
        doc: "`on`: every call to the App Store Server API answers HTTP 503 until it is turned `off`")
}

extension ServerAPIFault {
    /// The family's rows of the vocabulary, in the format's order (`CommandSpec.all` is built
    /// from the families).
    static let specs: [CommandSpec] = [.serverAPIFail, .serverAPISlow, .serverAPIOutage]
}

extension CommandArguments {
    /// `server-api-fail N [CODE]`.
    func serverAPIFail() throws(CommandError) -> Command {
        if words.count != 2 { try exactly(1) }
        guard let n = Int(words[0].text), (0...100).contains(n) else {
            throw CommandError(
                offset: words[0].offset,
                problem: .badArgument(name.text, words[0].text, expected: "a whole number of calls from 0 to 100"))
        }
        guard words.count == 2 else { return .serverAPIFault(.fail(count: n, code: ServerAPIFault.defaultCode)) }
        guard let code = Int(words[1].text), ServerAPIFault.codes.contains(code) else {
            throw CommandError(
                offset: words[1].offset,
                problem: .badArgument(
                    name.text, words[1].text,
                    expected: "a 7-digit Apple error code from 4000000 to 5999999 (its first three digits, the HTTP "
                        + "status, a 4xx or 5xx), such as 5000001"))
        }
        return .serverAPIFault(.fail(count: n, code: code))
    }
}
