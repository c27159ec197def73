import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// The anomalies as the Auditor lists them: newest first.
    var inspectableAnomalies: [Anomaly] {
        Array(simulation.auditor.anomalies.suffix(PanelContent.historyLimit).reversed())
    }

    /// The transactions as the Payment queue lists them: unfinished, then finished newest first.
    var inspectableTransactions: [StoreTransaction] {
        let all = simulation.store.transactions
        return all.filter { !$0.finished } + all.filter(\.finished).suffix(PanelContent.historyLimit).reversed()
    }

    /// The selected row of `panel`, kept inside the list as it grows or shrinks.
    func selectedIndex(_ panel: Panel) -> Int {
        let count = panel == .auditor ? inspectableAnomalies.count : inspectableTransactions.count
        return panels.selected(panel, of: count)
    }

    /// `i`: the selected row's inspector: the Auditor's or the queue's when one of them has
    /// focus; from any other panel, the Auditor's selected anomaly, else the queue's row.
    mutating func inspectSelected() {
        if subscriptionsView.shown {
            let rows = simulation.subscribers
            guard !rows.isEmpty else { status = "no subscription yet: nothing to inspect"; return }
            let k = subscriptionsView.selected(of: rows.count)
            overlay = .inspect(.subscription(original: rows[k].subscription.originalTransactionId), scroll: 0)
            return
        }
        let anomalies = inspectableAnomalies, transactions = inspectableTransactions
        let anomaly = anomalies.isEmpty ? nil : anomalies[selectedIndex(.auditor)].id
        let transaction = transactions.isEmpty ? nil : transactions[selectedIndex(.queue)].id
        switch focus {
        case .auditor:
            guard let anomaly else { status = "no anomaly yet: nothing to inspect"; return }
            overlay = .inspect(.anomaly(id: anomaly), scroll: 0)
            workOutWhatIf()
        case .queue:
            guard let transaction else { status = "no transaction yet: nothing to inspect"; return }
            overlay = .inspect(.transaction(id: transaction), scroll: 0)
        case .app, .server, .network, .events:
            if let anomaly {
                overlay = .inspect(.anomaly(id: anomaly), scroll: 0)
                workOutWhatIf()
            } else if let transaction {
                overlay = .inspect(.transaction(id: transaction), scroll: 0)
            } else {
                status = "nothing to inspect yet: no anomaly, no transaction"
            }
        }
    }

    /// `R`: the sandbox starts again with the same seed, users and policy as now; play goes
    /// back to step 0 of its file. The view (size, focus, recording) is kept.
    mutating func restart() {
        let start = player.scenario
        var fresh: UIModel
        switch mode {
        case .sandbox:
            // A preset of the other StoreKit world, chosen in the policy panel, starts here.
            // The preset the world is at now (the header's), so that a saved session says so.
            // Its catalog (a StoreKit file's) and grace period stay.
            var scenario = start
            scenario.policy = pendingPreset?.policy ?? simulation.policy
            scenario.preset = pendingPreset ?? simulation.policy.matchingPreset ?? start.preset
            scenario.environment = pendingEnvironment ?? simulation.config.environment
            fresh = UIModel(scenario: scenario, mode: .sandbox, options: options)
        case .play(let file):
            fresh = UIModel(play: start, file: file, options: options)
        }
        fresh.keepView(of: self)
        // `R` in a lesson plays it again from its start: the question is asked again.
        if var t = fresh.tour {
            t.stage = .playing
            fresh.tour = t
            fresh.split.close()
        }
        self = fresh
        status =
            isPlay
            ? "restarted: back to step 0"
            : "restarted: a fresh world, seed \(start.seed), policy \(policyName)"
    }

    /// `B` in play: a deterministic replay from the start to the step before the last one run.
    /// Keys pressed in between are not part of the file, so they are not replayed.
    mutating func stepBack() {
        guard case .play(let file) = mode else { return }
        let target = max(0, player.nextStep - 1)
        var fresh = UIModel(play: player.scenario, file: file, options: options)
        for _ in 0..<target { fresh.playNextStep() }
        fresh.keepView(of: self)
        fresh.paused = true
        self = fresh
        status =
            target == 0
            ? "back to the start (step 0)"
            : "back to step \(target): replayed the file's first \(target) step(s); paused"
    }

    mutating func keepView(of old: UIModel) {
        width = old.width
        height = old.height
        panels.keep(old.panels)
        speedIndex = old.speedIndex
        recording = old.recording
        eventsView = old.eventsView
        playlist = old.playlist
        playlistGroups = old.playlistGroups
        playlistTitles = old.playlistTitles
        tour = old.tour
        if let connect = old.backend { connectBackend(connect) }
        if let other = old.twin { startTwin(policy: other.scenario.policy) }
    }

    /// `F`: Events shows every part, then one part at a time.
    mutating func cycleEventFilter() {
        status = eventsView.cycleFilter()
        panels.scroll[.events] = 0
    }
}
