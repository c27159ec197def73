/// What the App Store Server API's faults have armed: the one state and the one rule of
/// `server-api-fail`, `server-api-slow` and `server-api-outage`, for the simulated world
/// (the App Store keeps it) and for `iapsim serve` (the API it serves keeps one too).
///
/// The rule: `server-api-fail N [CODE]` makes the next N calls fail, replacing what was armed
/// (`0` ends it); a call that fails answers CODE's HTTP status, its first three digits
/// (`4040010` is 404, `5000001` 500); an outage answers 503 `5000000` to every call.
package struct ServerAPIFaultState: Sendable, Hashable {
    package var failures = 0
    package var code = ServerAPIFault.defaultCode
    /// Each answer's delay: virtual milliseconds in the world, wall milliseconds under serve.
    package var slowMs: VirtualTime = 0
    package var outage = false

    package init() {}

    /// Arms or ends `fault`.
    package mutating func apply(_ fault: ServerAPIFault) {
        switch fault {
        case .fail(let count, let code):
            failures = count
            self.code = code
        case .slow(let ms): slowMs = ms
        case .outage(let on): outage = on
        }
    }

    /// The error the next call meets, if any: 503 during an outage, else one of the armed failures.
    package mutating func take() -> (status: Int, code: Int)? {
        if outage { return (503, 5_000_000) }
        guard failures > 0 else { return nil }
        failures -= 1
        return (Self.status(of: code), code)
    }

    /// The HTTP status of an Apple error code: its first three digits (4040010 -> 404), or 500
    /// when those are no error status.
    package static func status(of code: Int) -> Int {
        let status = code / 10_000
        return (400...599).contains(status) ? status : 500
    }

    /// What is armed, in words (empty: the API answers normally).
    var armedFaults: [String] {
        var out: [String] = []
        if outage { out.append("App Store Server API outage") }
        if failures > 0 { out.append("next \(failures) App Store Server API call(s) fail (\(code))") }
        if slowMs > 0 { out.append("App Store Server API \(DurationText.format(slowMs)) slow") }
        return out
    }

    /// The commands that end what is armed, added to `out`.
    func healing(_ out: inout [Command]) {
        if outage { out.append(.serverAPIFault(.outage(false))) }
        if failures > 0 { out.append(.serverAPIFault(.fail(count: 0, code: ServerAPIFault.defaultCode))) }
        if slowMs > 0 { out.append(.serverAPIFault(.slow(0))) }
    }
}
