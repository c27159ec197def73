import IAPSimCore

/// The replays' answers about a finding of explore, as YAML comments after the scenario it
/// is written as: the file still reads (and runs) as before, and whoever opens it sees what
/// caused each anomaly and what would have prevented or did save it, as `iapsim run` prints.
package enum FindingNotes {
    /// `yaml` (a scenario file's text) followed by the comments; `yaml` alone when it does
    /// not read back (it always should) or the run stops at a step.
    package static func annotated(_ yaml: String, file: String) -> String {
        guard let scenario = try? ScenarioParser.parse(text: yaml, file: file) else { return yaml }
        let result = ScenarioPlayer.run(scenario).result
        guard result.timeout == nil else { return yaml }
        let sim = result.simulation
        let report = scenario.whatIf(sim)
        var lines = ["", "# Why and what if (found by replaying this file; `iapsim run` prints the same):"]
        for a in sim.auditor.anomalies {
            lines.append("# A\(a.id) \(a.type.rawValue) \(a.status.rawValue)")
            lines += (report.explanation(of: a.id)?.lines ?? []).map { "#   " + $0 }
        }
        lines += report.avoided.map {
            "# avoided under this policy (ends badly under \(scenario.preset.other.rawValue)): " + $0.line
        }
        return yaml + lines.map(VisibleText.escaped).joined(separator: "\n") + "\n"
    }
}
