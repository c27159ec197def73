/// The replays' answers in words: the lines `run` prints under an anomaly, the inspector
/// shows and a handout writes.
extension ReplayStep {
    /// `step 2 (line 14): crash`; `step 2: crash` for an input no file holds.
    package var words: String {
        "step \(number)" + (line > 0 ? " (line \(line))" : "") + ": " + command.scenarioText
    }
}

extension AnomalyExplanation {
    /// `caused by: step 2 (line 14): crash; step 4 (line 20): login bob`
    package var causedByLine: String {
        if causeUnknown {
            return "caused by: not worked out (the replays that would find it stopped at their budget)"
        }
        return causedBy.isEmpty
            ? "caused by: no injected input (it happens without any fault, account switch, attack or refund)"
            : "caused by: " + causedBy.map(\.words).joined(separator: "; ")
    }

    /// The account's line (`AnomalyAccount`): `prevented by: …` or `resolved by: …`.
    package var preventedByLine: String? { account.line }

    /// Alternatives joined by ` | `, each a change or changes joined by ` + `; alternatives
    /// that differ only in the value of one key folded into one, that key last (its first
    /// value, then the others in brackets): `retry-immediate 1 (or 2 … 10)`,
    /// `server-grace honor + server-status-poll 1h (or 12h … 24h)`.
    package static func alternatives(_ fixes: [[PolicyChange]]) -> String {
        var words: [String] = []
        var done = Set<Int>()
        for (n, fix) in fixes.enumerated() where !done.contains(n) && !fix.isEmpty {
            // The position whose key's other values make the most other alternatives.
            var best: (position: Int, mates: [Int]) = (fix.count - 1, [])
            for p in fix.indices {
                let mates = fixes.indices.filter { m in
                    m != n && !done.contains(m) && fixes[m].count == fix.count && fixes[m][p].key == fix[p].key
                        && fixes[m].indices.allSatisfy { $0 == p || fixes[m][$0] == fix[$0] }
                }
                if mates.count > best.mates.count { best = (p, mates) }
            }
            done.insert(n)
            done.formUnion(best.mates)
            let varying = fix[best.position]
            let rest = best.mates.map { fixes[$0][best.position].value }
            let others =
                switch rest.count {
                case 0: ""
                case 1: " (or \(rest[0]))"
                default: " (or \(rest[0]) … \(rest[rest.count - 1]))"
                }
            let fixed = fix.indices.filter { $0 != best.position }.map { fix[$0].words }
            words.append((fixed + [varying.words + others]).joined(separator: " + "))
        }
        return words.joined(separator: " | ")
    }

    /// Every line, in the order they are printed.
    package var lines: [String] { [causedByLine, account.line] }
}

extension AvoidedAnomaly {
    /// `lost-order o1, resolved by: observer launch`
    package var line: String { words + ", " + account.line }
}
