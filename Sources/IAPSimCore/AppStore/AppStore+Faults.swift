/// The App Store's faults (docs/world.md, "Faults"): the next payment's fate, Ask to Buy,
/// verification's outage and status, the App Store Server API's faults, and the subscription
/// faults (billing, a delayed notification). Worded, ended and disarmed here alone.
extension AppStore {
    /// What is armed, in words; `payment` names a payment as the world's StoreKit does.
    /// Whether the App Store has a fault armed (what `armedFaults` lists, without its words):
    /// the next payment's fate, Ask to Buy, its outage or status, its Server API's faults,
    /// billing, a delayed notification.
    var hasArmedFaults: Bool {
        interruptNext || nextFailure != nil || askToBuy || outage || nextStatus != nil
            || apiFaults != ServerAPIFaultState() || billingFails || subscriptionBook?.delayNextMs != nil
    }

    func armedFaults(payment: String) -> [String] {
        var out: [String] = []
        if interruptNext { out.append("next \(payment) interrupted") }
        if let f = nextFailure { out.append("next \(payment) fails (\(f.rawValue))") }
        if askToBuy { out.append("Ask to Buy on") }
        if outage { out.append("App Store outage") }
        if let code = nextStatus { out.append("next verification answers \(code)") }
        out += apiFaults.armedFaults
        if billingFails { out.append("billing fails") }
        if let ms = subscriptionBook?.delayNextMs { out.append("next notification \(DurationText.format(ms)) late") }
        return out
    }

    /// The commands that end what stays armed once the one-shots are disarmed, added to `out`.
    func healing(_ out: inout [Command]) {
        if outage { out.append(.storeOutage(on: false)) }
        if nextStatus != nil { out.append(.storeStatus(VerifyStatus.valid)) }
        if askToBuy { out.append(.askToBuy(on: false)) }
        apiFaults.healing(&out)
        if billingFails { out.append(.billingFail(on: false)) }
    }

    /// Disarms the one-shot faults no command takes back (the next payment's failure or
    /// interruption, a delayed notification); adds what it disarmed, in words, to `out`.
    mutating func disarm(_ out: inout [String]) {
        if interruptNext {
            interruptNext = false
            out.append("the next payment's interruption")
        }
        if let f = nextFailure {
            nextFailure = nil
            out.append("the next payment's failure (\(f.rawValue))")
        }
        if subscriptionBook?.delayNextMs != nil {
            subscriptionBook?.delayNextMs = nil
            out.append("the next notification's delay")
        }
    }
}
