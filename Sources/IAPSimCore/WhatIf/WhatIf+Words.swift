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

    /// Alternatives joined by ` | `, each a change or changes joined by ` + `; the single
    /// changes of one key folded into one (its first value, then the others in brackets).
    package static func alternatives(_ fixes: [[PolicyChange]]) -> String {
        var words: [String] = []
        var folded: [PolicyKey] = []
        for fix in fixes {
            guard fix.count == 1, let key = fix.first?.key else {
                words.append(fix.map(\.words).joined(separator: " + "))
                continue
            }
            guard !folded.contains(key) else { continue }
            folded.append(key)
            let values = fixes.filter { $0.count == 1 && $0[0].key == key }.map { $0[0].value }
            let rest = Array(values.dropFirst())
            let others =
                switch rest.count {
                case 0: ""
                case 1: " (or \(rest[0]))"
                default: " (or \(rest[0]) … \(rest[rest.count - 1]))"
                }
            words.append("\(key.rawValue) \(values[0])" + others)
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
