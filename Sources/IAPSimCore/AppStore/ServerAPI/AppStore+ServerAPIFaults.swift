/// The App Store Server API's faults (`server-api-fail`, `server-api-slow`,
/// `server-api-outage`). In the simulated world they meet the merchant server's calls on the
/// route `server-api`; under `iapsim serve` the edge arms the API it serves to the backend.
extension World {
    /// The error a faulty API answers `m` with (and sends), or nil when it answers normally.
    mutating func apiErrorAnswer(_ m: Message, call: String) -> Bool? {
        guard let (status, code) = store.apiFaults.take() else { return nil }
        outbox.log(.appStore, .noted("\(call) answered HTTP \(status) (errorCode \(code))"))
        outbox.send(.serverAPI, .response, .app, exchange: m.exchange, .apiError(status: status, code: code))
        return true
    }
}
