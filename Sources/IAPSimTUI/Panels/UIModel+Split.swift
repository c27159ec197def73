import IAPSimCore
import IAPSimScenario

/// The split screen (`V`): a second world with another policy, driven by the same inputs in
/// lockstep (the same steps, keys and faults, at the same virtual times), each with its
/// own Auditor, so that naive and hardened can be compared on one screen.
extension UIModel {
    /// The preset put beside the file's policy: hardened beside anything else, naive beside
    /// hardened (StoreKit 2's pair in a StoreKit 2 world).
    var twinPreset: PolicyPreset {
        let sk2 = simulation.policy.storekit == .two
        let hardened: PolicyPreset = sk2 ? .sk2Hardened : .hardened
        return simulation.policy == hardened.policy ? (sk2 ? .sk2Naive : .naive) : hardened
    }

    mutating func toggleSplit() {
        if split.twin != nil {
            split.close()
            status = "split closed"
            return
        }
        let preset = twinPreset
        startTwin(policy: preset.policy)
        // Under serve there is no twin: startTwin said why; nothing claims a split.
        guard twin != nil else { return }
        // The Subscriptions view covers the panels the split shows: it closes.
        let closed = subscriptionsView.shown ? "; Subscriptions closed" : ""
        subscriptionsView.shown = false
        status = "split: the same inputs under \(preset.rawValue) on the right (V closes)" + closed
    }

    /// Builds the twin by replaying what this world was given so far (the session's steps)
    /// under `policy`, up to this world's clock; from then on both move together.
    mutating func startTwin(policy: Policy) {
        guard !simulation.isExternal else {
            status = "no split screen under serve: your backend cannot be copied"
            return
        }
        let start = player.scenario
        var scenario = start
        scenario.policy = policy
        scenario.steps = session
        var other = ScenarioPlayer(scenario, logLimit: options.logLimit)
        while !other.stepsDone { _ = other.playStep() }
        _ = other.advance(until: simulation.now)
        // Play mode: the twin plays the file's remaining steps itself, one per Enter.
        var ahead = scenario
        ahead.steps = start.steps
        if isPlay {
            other = ScenarioPlayer(ahead, logLimit: options.logLimit)
            for _ in 0..<player.nextStep where !other.stepsDone { _ = other.playStep() }
            for command in injected { _ = other.inject(command) }
            _ = other.advance(until: simulation.now)
        }
        split.twin = other
    }

    /// The commands given by hand since the start (play: keys pressed beside the file).
    var injected: [Command] { isPlay ? offScript : [] }

    /// Gives the twin a command this world got (not a policy change: each keeps its own).
    mutating func twinInject(_ command: Command) {
        guard twin != nil else { return }
        switch command {
        case .setPolicy, .setPreset: return
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login, .logout,
            .network, .networkFault, .storeFault, .askToBuy, .approve, .decline, .replay, .forge, .serverOutage,
            .serverAPIFault, .refundLoop, .spend, .subscription, .heal, .wait, .settle:
            _ = split.twin!.inject(command)
        }
    }

    /// Brings the twin's clock up to this world's.
    mutating func syncTwin() {
        split.sync(to: simulation.now)
        refreshSplitAvoided()
    }

    /// Works out, by the replays, what each half avoided and what saved it ("lost-order o1, by
    /// observer launch"). Only once both worlds are idle (replays cost whole runs: not at every
    /// frame) and only when either log has moved since the last time.
    mutating func refreshSplitAvoided() {
        // A subscription world is never idle (its next renewal is always due): an ended file
        // counts as settled, its twin once it has caught up with it.
        let ended = result != nil
        guard let twin, simulation.isIdle || ended,
            twin.simulation.isIdle || (ended && twin.simulation.now >= simulation.now)
        else { return }
        let stamp = [simulation.logCount, twin.simulation.logCount, session.count]
        if split.avoided?.stamp == stamp { return }
        let mine = sessionScenario
        var theirs = mine
        theirs.policy = twin.simulation.policy
        theirs.preset = twin.simulation.policy.matchingPreset ?? twinPreset
        let left = mine.whatIf(simulation, against: twin.simulation.policy)
        let right = theirs.whatIf(twin.simulation, against: simulation.policy)
        split.avoided = SplitAvoided(
            stamp: stamp, left: left.avoided.map(\.line), right: right.avoided.map(\.line),
            leftOpen: UIModel.bothHave(simulation, twin.simulation, left),
            rightOpen: UIModel.bothHave(twin.simulation, simulation, right))
    }

    /// The anomalies of `world` that end badly there and beside it in `other` too (neither
    /// side avoided them), each with its account from the replays (`report`): the keys
    /// that prevent it, which neither policy has (`refund-unclawed …0001 permanent,
    /// prevented by: server-notifications true + server-clawback full`).
    static func bothHave(_ world: Simulation, _ other: Simulation, _ report: WhatIfReport) -> [String] {
        world.auditor.anomalies.filter(\.status.isUnresolved).compactMap { a in
            guard
                other.auditor.anomalies.contains(where: {
                    $0.type == a.type && $0.txn == a.txn && $0.status.isUnresolved
                }),
                let x = report.explanation(of: a.id)
            else { return nil }
            return "\(a.type.rawValue) \(PanelContent.shortId(a.txn)) \(a.status.rawValue), \(x.account.line)"
        }
    }

    /// What `other`'s policy did about each unresolved anomaly of `world`: prevented (no
    /// anomaly of the same type on the same transaction) or made right (resolved, blocked).
    static func prevented(in world: Simulation, by other: Simulation) -> [(Anomaly, String)] {
        world.auditor.anomalies.filter(\.status.isUnresolved).compactMap { a in
            guard let twin = other.auditor.anomalies.first(where: { $0.type == a.type && $0.txn == a.txn }) else {
                return (a, "prevented")
            }
            return twin.status.isUnresolved ? nil : (a, twin.status.rawValue)
        }
    }
}

extension UIModel {
    /// What the person did beside the file, in the file's words (the last few).
    var offScriptWords: String {
        let words = offScript.map(\.scenarioText)
        return words.suffix(4).joined(separator: ", ") + (words.count > 4 ? " (+\(words.count - 4) more)" : "")
    }
}

/// What each half of the split screen avoided, in the replays' words, and the logs' sizes
/// they were worked out for.
package struct SplitAvoided: Sendable, Hashable {
    var stamp: [Int]
    var left: [String]
    var right: [String]
    /// What each half has and the other has too, with the keys that prevent it.
    var leftOpen: [String] = []
    var rightOpen: [String] = []
}
