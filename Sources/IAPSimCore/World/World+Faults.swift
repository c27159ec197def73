/// One fault model (docs/world.md, "Faults"): each part owns its faults, their words, the
/// commands that end them and the one-shots it disarms (`Network`, `AppStore`,
/// `MerchantServer`, `AppProcess`, each in its `+Faults.swift`). The status line, the
/// `heal` command and the heal phase of explore, the what-if and a replay ask every part,
/// as a TigerBeetle component heals itself on its way into liveness mode.
extension World {
    /// Faults armed and waiting to fire, in words: the next payment's fate, dropped
    /// messages, latency, the App Store's, its Server API's and the merchant server's state,
    /// billing, a device offline.
    package var armedFaults: [String] {
        store.armedFaults(payment: policy.storekit == .two ? "purchase()" : "payment") + app.armedFaults
            + network.armedFaults + server.armedFaults
    }

    /// Whether any part has a fault armed (what `armedFaults` would list, without its words:
    /// asked once a run by explore's heal phase and the verdict): each part answers for its own.
    package var hasArmedFaults: Bool {
        network.hasArmedFaults || store.hasArmedFaults || app.hasArmedFaults || server.hasArmedFaults
    }

    /// `heal`: every part ends what it has armed. The one-shots no command takes back are
    /// disarmed first (a drop must not meet what the healing sends), then each part's
    /// ending commands run, the network's last, so that the app hears its return with the
    /// rest healed.
    mutating func healFaults() {
        // Into one list each (a list a part, then their sum, cost a third of a heal).
        var disarmed: [String] = []
        network.disarm(&disarmed)
        store.disarm(&disarmed)
        app.disarm(&disarmed)
        if !disarmed.isEmpty {
            outbox.narrate(.fault, .faultArmed("no longer armed: " + disarmed.joined(separator: ", ")))
        }
        var healing: [Command] = []
        store.healing(&healing)
        server.healing(&healing)
        network.healing(&healing)
        for command in healing { perform(command) }
    }
}
