/// The App Store Server API's faults (`server-api-fail`, `server-api-slow`,
/// `server-api-outage`). In the simulated world they meet the merchant server's calls on the
/// route `server-api`; under `iapsim serve` the edge arms the API it serves to the backend.
extension Simulation {
    mutating func armServerAPI(_ fault: ServerAPIFault) {
        switch fault {
        case .fail(let count, let code):
            store.apiFaults.failures += count
            store.apiFaults.code = code
            outbox.narrate(
                .fault, .faultArmed("the next \(count) App Store Server API call(s) answer HTTP 500 (\(code))"))
        case .slow(let ms):
            store.apiFaults.slowMs = ms
            outbox.narrate(
                .fault,
                .faultArmed(
                    ms == 0
                        ? "the App Store Server API answers at its usual speed"
                        : "the App Store Server API answers \(DurationText.format(ms)) later"))
        case .outage(let on):
            store.apiFaults.outage = on
            outbox.narrate(
                .fault,
                .faultArmed(
                    on ? "the App Store Server API answers 503 to every call" : "the App Store Server API is back"))
        }
        if isExternal { _ = askBackend(.apiFault(fault)) }
    }

    /// The error a faulty API answers `m` with (and sends), or nil when it answers normally.
    mutating func apiErrorAnswer(_ m: Message, call: String) -> Bool? {
        guard let (status, code) = store.apiFaults.take() else { return nil }
        outbox.log(.appStore, .noted("\(call) answered HTTP \(status) (errorCode \(code))"))
        outbox.send(.serverAPI, .response, .app, exchange: m.exchange, .apiError(status: status, code: code))
        return true
    }
}

/// What the App Store Server API's faults have armed.
package struct ServerAPIFaultState: Sendable, Hashable {
    package var failures = 0
    package var code = ServerAPIFault.defaultCode
    package var slowMs: VirtualTime = 0
    package var outage = false

    /// The error the next call meets, if any: 503 during an outage, else one of the armed failures.
    mutating func take() -> (status: Int, code: Int)? {
        if outage { return (503, 5_000_000) }
        guard failures > 0 else { return nil }
        failures -= 1
        return (500, code)
    }
}
