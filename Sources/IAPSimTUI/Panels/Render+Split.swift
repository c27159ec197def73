import IAPSimCore
import IAPSimScenario

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
        // Both halves keep their panels level: the taller key line sets the height.
        let header = 1 + (keyLines.map(\.count).max() ?? 1)
        for (i, (model, r, role)) in halves.enumerated() {
            let otherWorld = i == 0 ? twin.simulation : simulation
            let avoided = !UIModel.prevented(in: otherWorld, by: model.simulation).isEmpty
            model.renderHalf(&grid, r, role: role, keyLines: keyLines[i], avoided: avoided, header: header)
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
            words =
                "avoided: "
                + prevented.prefix(4).map { "\($0.0.type.rawValue) \(PanelContent.shortId($0.0.txn)) \($0.1)" }.joined(
                    separator: ", ")
                + (prevented.count > 4 ? " +\(prevented.count - 4)" : "")
        }
        let wrapped = Wrap.words(words, width: width - 1).map { " " + $0 }
        // The keys of what both sides have take a third line.
        let most = open.isEmpty ? 2 : 3
        return wrapped.count > most
            ? Array(wrapped.prefix(most - 1)) + [wrapped[most - 1] + " \(glyphs.more)"] : wrapped
    }

    /// One half of the split screen: its label, its key lines, then its Auditor, Merchant
    /// server and Events from row `header`.
    func renderHalf(_ grid: inout Grid, _ r: Rect, role: String, keyLines: [String], avoided: Bool, header: Int) {
        // A narrow half keeps the policy's name and the verdict.
        let label =
            r.width >= 60 ? " policy \(policyName) (\(role)): \(verdictWords)" : " \(policyName): \(verdictWords)"
        grid.put(label, x: r.x, y: r.y, Style(.title, bold: true, reverse: true), maxWidth: r.width)
        for (k, line) in keyLines.enumerated() {
            grid.put(line, x: r.x, y: r.y + 1 + k, Style(avoided ? .good : .dim, bold: avoided), maxWidth: r.width)
        }
        let body = r.height - header
        let auditor = max(5, body * 35 / 100), server = max(4, body * 25 / 100)
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
