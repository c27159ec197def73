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
        // A held clock (paused, a step or a lesson's question waiting) moves no log either: the
        // keys are worked out then too, not only at the end (walkthrough 6: the split named no
        // key for as long as a lesson's step waited).
        let ended = result != nil
        let settled = ended || paused || waitingForStep || lessonWaitsForDecidingStep
        guard let twin, simulation.isIdle || settled,
            twin.simulation.isIdle || (settled && twin.simulation.now >= simulation.now)
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

extension UIModel {
    /// The split screen: this world on the left, the twin on the right, each as a label with
    /// its policy and what it prevented, then its Auditor, Merchant server and Events.
    func renderSplit(_ twin: ScenarioPlayer, _ grid: inout Grid, _ area: Rect) {
        let left = area.width / 2
        var other = self
        other.player = twin
        other.split.close()
        other.panels.rewind()
        other.notes = []
        let halves: [(UIModel, Rect, String)] = [
            (self, Rect(x: 0, y: area.y, width: left, height: area.height), "this run"),
            (other, Rect(x: left, y: area.y, width: area.width - left, height: area.height), "same inputs"),
        ]
        var keyLines: [[String]] = []
        for (i, (model, r, _)) in halves.enumerated() {
            let otherWorld = i == 0 ? twin.simulation : simulation
            let saved = i == 0 ? splitAvoided?.left : splitAvoided?.right
            let open = (i == 0 ? splitAvoided?.leftOpen : splitAvoided?.rightOpen) ?? []
            let prevented = UIModel.prevented(in: otherWorld, by: model.simulation)
            keyLines.append(model.keyLines(prevented: prevented, saved: saved, open: open, width: r.width))
        }
        // Both halves keep their panels level: the taller key line sets the height, the
        // longer Auditor the Auditor's.
        let header = 1 + (keyLines.map(\.count).max() ?? 1)
        let auditorLines =
            halves.map { model, r, _ in
                PanelContent(sim: model.simulation, glyphs: glyphs, ascii: options.ascii, width: r.width - 2).total(
                    .auditor)
            }.max() ?? 0
        for (i, (model, r, role)) in halves.enumerated() {
            let otherWorld = i == 0 ? twin.simulation : simulation
            let avoided = !UIModel.prevented(in: otherWorld, by: model.simulation).isEmpty
            // A twin that settled further on (its reconciliation, its notifications' retries)
            // says its own clock: its Auditor's ages run from there (walkthrough 6, N2).
            let at = i == 1 && twin.simulation.now != simulation.now ? DurationText.clock(twin.simulation.now) : nil
            model.renderHalf(
                &grid, r, role: role, at: at, keyLines: keyLines[i], avoided: avoided, header: header,
                auditorLines: auditorLines)
        }
    }

    /// What one half avoided, wrapped to its width (two lines at most): the replays' words
    /// ("lost-order o1, by observer launch") once worked out (`saved`); until then the
    /// anomalies it avoided, by type and status. A key is never cut mid-word.
    /// When it avoided nothing, what both sides have (`open`) and the keys that prevent it.
    func keyLines(prevented: [(Anomaly, String)], saved: [String]?, open: [String] = [], width: Int) -> [String] {
        var words: String
        if let saved, !saved.isEmpty {
            words =
                "avoided: " + saved.prefix(3).joined(separator: "; ")
                + (saved.count > 3 ? " +\(saved.count - 3)" : "")
        } else if prevented.isEmpty {
            words = "avoided: nothing the other side has"
            if let first = open.first {
                words += "; both have " + first + (open.count > 1 ? " +\(open.count - 1)" : "")
            }
        } else {
            // Before the replays: what it avoided, and when its keys come.
            words =
                "avoided: "
                + prevented.prefix(4).map { "\($0.0.type.rawValue) \(PanelContent.shortId($0.0.txn)) \($0.1)" }.joined(
                    separator: ", ")
                + (prevented.count > 4 ? " +\(prevented.count - 4)" : "")
                + " (its keys once the clock stops: Space)"
        }
        // Ids as the panels write them (`…0001`), on both halves and at every moment.
        words = Self.shortIds(words)
        let wrapped = Wrap.words(words, width: width - 1).map { " " + $0 }
        // The keys of what both sides have take a third line; a narrow half (80 columns) one
        // more, so that its first whole alternative fits.
        let most = (open.isEmpty ? 2 : 3) + (width < 60 ? 1 : 0)
        guard wrapped.count > most else { return wrapped }
        return Array(wrapped.prefix(most - 1)) + [Self.cutMarked(wrapped[most - 1], width: width, mark: glyphs.more)]
    }

    /// `text` with each transaction id (13 digits or more) shortened as the panels write it.
    static func shortIds(_ text: String) -> String {
        var out = ""
        var digits = ""
        func flush() {
            out += digits.count >= 13 ? PanelContent.shortId(digits) : digits
            digits = ""
        }
        for ch in text {
            if ch.isASCII, ch.isNumber {
                digits.append(ch)
            } else {
                flush()
                out.append(ch)
            }
        }
        flush()
        return out
    }

    /// `line` cut so that it ends with `mark` within `width` columns: after its last whole
    /// alternative (` | `) when it has one, else after a whole word; a key is never dropped
    /// without the mark (walkthrough 5, M4).
    static func cutMarked(_ line: String, width: Int, mark: Character) -> String {
        let room = width - 2
        var kept = line
        if let bar = kept.range(of: " | ", options: .backwards), TextWidth.of(kept) > room {
            kept = String(kept[..<bar.lowerBound]) + " |"
        }
        var words = kept.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        while words.count > 2, TextWidth.of(words.joined(separator: " ")) > room { words.removeLast() }
        return words.joined(separator: " ") + " \(mark)"
    }

    /// One half of the split screen: its label, its key lines, then its Auditor, Merchant
    /// server and Events from row `header`.
    /// The Auditor, whose money and counts the halves are compared by, takes the rows its
    /// `auditorLines` need from Events and the Merchant server when the screen is short
    /// (80x24), down to one row of each.
    func renderHalf(
        _ grid: inout Grid, _ r: Rect, role: String, at: String? = nil, keyLines: [String], avoided: Bool,
        header: Int,
        auditorLines: Int
    ) {
        // The first label that fits: the verdict is what the halves are compared by, so the
        // word "policy", the role and last the twin's own clock (a twin that settled further
        // on: its Auditor's ages run from there) give way before it. A narrow half (80
        // columns) names no role.
        let tail = ": \(verdictWords)"
        var candidates: [String] = []
        if let at {
            if r.width >= 60 {
                candidates += [" policy \(policyName) (\(role), at \(at))", " \(policyName) (\(role), at \(at))"]
            }
            candidates.append(" \(policyName) at \(at)")
        }
        if r.width >= 60 { candidates.append(" policy \(policyName) (\(role))") }
        candidates.append(" \(policyName)")
        let label = (candidates.first { TextWidth.of($0 + tail) <= r.width } ?? candidates[candidates.count - 1]) + tail
        grid.put(label, x: r.x, y: r.y, Style(.title, bold: true, reverse: true), maxWidth: r.width)
        for (k, line) in keyLines.enumerated() {
            grid.put(line, x: r.x, y: r.y + 1 + k, Style(avoided ? .good : .dim, bold: avoided), maxWidth: r.width)
        }
        let body = r.height - header
        let auditor = max(5, body * 35 / 100, min(auditorLines + 2, body - 3 - 3))
        let server = max(3, min(max(4, body * 25 / 100), body - auditor - 3))
        var y = r.y + header
        for (panel, h) in [(Panel.auditor, auditor), (.server, server), (.events, body - auditor - server)] {
            renderPanel(panel, &grid, Rect(x: r.x, y: y, width: r.width, height: h))
            y += h
        }
    }

    /// The policy by its preset's name, or the nearest preset and how many keys differ
    /// (`sk2-hardened +1`), never a bare "custom". Only the keys the policy panel lists
    /// count: under serve a `server-*` key, which the backend ignores, is no difference.
    var policyName: String {
        let policy = simulation.policy
        if let preset = policy.matchingPreset { return preset.rawValue }
        let near = PolicyPreset.allCases.filter { $0.policy.storekit == policy.storekit }
            .map { ($0, listedDifferences(from: $0.policy).count) }
            .min { $0.1 < $1.1 }
        return near.map { $0.1 == 0 ? $0.0.rawValue : "\($0.0.rawValue) +\($0.1)" } ?? policy.displayName
    }

    /// The keys the policy panel lists whose value differs from `other`'s.
    func listedDifferences(from other: Policy) -> [PolicyKey] {
        let differs = simulation.policy.differences(from: other)
        return simulation.isExternal ? differs.filter(policyKeys.contains) : differs
    }

    /// The auditor's count of anomalies by status, in a few words.
    var verdictWords: String {
        let all = simulation.auditor.anomalies
        if all.isEmpty { return "no anomaly" }
        let unresolved = all.filter { $0.status.isUnresolved }.count
        return "\(all.count) anomal\(all.count == 1 ? "y" : "ies"), \(unresolved) unresolved"
    }
}

extension PanelContent {
    /// A transaction id shortened to its last digits, as the panels write it.
    static func shortId(_ id: String?) -> String {
        guard let id else { return "" }
        return id.count > 6 ? PanelContent.short(id, ascii: false) : id
    }
}
