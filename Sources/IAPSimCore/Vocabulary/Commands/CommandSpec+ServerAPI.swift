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
