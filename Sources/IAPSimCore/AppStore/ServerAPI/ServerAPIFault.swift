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
