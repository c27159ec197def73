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
        causedBy.isEmpty
            ? "caused by: no injected input (it happens without any fault, account switch, attack or refund)"
            : "caused by: " + causedBy.map(\.words).joined(separator: "; ")
    }

    /// `prevented by: observer launch | sweep-unfinished true`, a pair joined by ` + `; nil
    /// for an anomaly that ends well.
    package var preventedByLine: String? {
        guard endsBadly else { return nil }
        guard !preventedBy.isEmpty else { return "prevented by: nothing within one or two policy changes" }
        return "prevented by: " + preventedBy.map { $0.map(\.words).joined(separator: " + ") }.joined(separator: " | ")
    }

    /// `saved by: observer launch`; nil when no single setting of the policy saved it.
    var savedByLine: String? {
        savedBy.isEmpty ? nil : "saved by: " + savedBy.map(\.words).joined(separator: savedTogether ? " + " : ", ")
    }

    /// Every line, in the order they are printed.
    package var lines: [String] { [causedByLine] + [preventedByLine, savedByLine].compactMap { $0 } }
}

extension AvoidedAnomaly {
    /// `lost-order o1, by observer launch`
    package var line: String {
        words + ", by "
            + (savedBy.isEmpty
                ? "more than two settings together" : savedBy.map(\.words).joined(separator: together ? " + " : ", "))
    }
}
