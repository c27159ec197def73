/// One fault model (docs/world.md, "Faults"): each part owns its faults, their words, the
/// commands that end them and the one-shots it disarms (`Network`, `AppStore`,
/// `MerchantServer`, `AppProcess`, each in its `+Faults.swift`). The status line, the
/// `heal` command and the heal phase of explore, the what-if and a replay ask every part,
/// as a TigerBeetle component heals itself on its way into liveness mode.
extension Simulation {
    /// Faults armed and waiting to fire, in words: the next payment's fate, dropped
    /// messages, latency, the App Store's, its Server API's and the merchant server's state,
    /// billing, a device offline.
    package var armedFaults: [String] {
        store.armedFaults(payment: policy.storekit == .two ? "purchase()" : "payment") + app.armedFaults
            + network.armedFaults + server.armedFaults
    }

    /// Whether any part has a fault armed (what `armedFaults` would list, without its words:
    /// asked once a run by explore's heal phase and the verdict).
    package var hasArmedFaults: Bool {
        !network.deviceOnline || network.routeLatencyMs != Network.defaultLatencies || !network.dropNextRequest.isEmpty
            || !network.dropNextResponse.isEmpty || store.interruptNext || store.nextFailure != nil || store.askToBuy
            || store.outage || store.nextStatus != nil || store.apiFaults != ServerAPIFaultState() || store.billingFails
            || store.subscriptionBook?.delayNextMs != nil || app.skipFinishNextFailed || server.outage
    }

    /// `heal`: every part ends what it has armed. The one-shots no command takes back are
    /// disarmed first (a drop must not meet what the healing sends), then each part's
    /// ending commands run, the network's last, so that the app hears its return with the
    /// rest healed.
    mutating func healFaults() {
        let disarmed = network.disarm() + store.disarm() + app.disarm()
        if !disarmed.isEmpty {
            outbox.narrate(.fault, .faultArmed("no longer armed: " + disarmed.joined(separator: ", ")))
        }
        for command in store.healing + server.healing + network.healing { perform(command) }
    }

    /// The heal phase of a fault run: every fault off (`heal`), the app in the foreground
    /// and running, somebody logged in. What is recoverable must then recover while the world
    /// settles. Made only of commands, so that a scenario can replay it; returns the commands
    /// it applied.
    @discardableResult
    package mutating func heal() -> [Command] {
        var applied: [Command] = []
        func run(_ c: Command, _ sim: inout Simulation) {
            var none: [LogEntry]?
            _ = sim.apply(c, into: &none)
            applied.append(c)
        }
        if hasArmedFaults { run(.heal, &self) }
        if app.inBackground { run(.foreground, &self) }
        if !app.isRunning { run(.launch, &self) }
        if app.loggedIn == nil, let user = config.users.first { run(.login(user: user), &self) }
        return applied
    }
}
