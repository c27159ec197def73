/// The App Store Server API's faults (`server-api-fail`, `server-api-slow`,
/// `server-api-outage`). In the simulated world they meet the merchant server's calls on the
/// route `server-api`; under `iapsim serve` the edge arms the API it serves to the backend.
extension Simulation {
    mutating func armServerAPI(_ fault: ServerAPIFault) {
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

    /// The error a faulty API answers `m` with (and sends), or nil when it answers normally.
    mutating func apiErrorAnswer(_ m: Message, call: String) -> Bool? {
        guard let (status, code) = store.apiFaults.take() else { return nil }
        outbox.log(.appStore, .noted("\(call) answered HTTP \(status) (errorCode \(code))"))
        outbox.send(.serverAPI, .response, .app, exchange: m.exchange, .apiError(status: status, code: code))
        return true
    }
}
