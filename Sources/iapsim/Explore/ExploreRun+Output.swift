import Foundation
import IAPSimCore
import IAPSimScenario

extension ExploreRun.Result {
    var runsPerSecond: Double { Double(report.runs) / max(exploreSeconds, 1e-9) }
    var eventsPerSecond: Double { Double(report.events) / max(exploreSeconds, 1e-9) }
    var factsPerSecond: Double { Double(report.facts) / max(exploreSeconds, 1e-9) }

    func human() -> String {
        var lines: [String] = []
        let r = run
        lines.append(
            "explore: policy \(r.policy.rawValue), \(report.runs) runs from seed \(r.seed)"
                + (r.skip > 0 ? " (skipping \(r.skip))" : "") + ", \(r.steps) steps each, \(r.jobs) job(s)"
                + (r.shard == .whole
                    ? "" : ", shard \(r.shard) (run indices i with i % \(r.shard.count) == \(r.shard.index))"))
        if let line = r.catalog.headerLine { lines.append("  " + line) }
        lines.append(
            ExploreRun.progressLine(
                runs: report.runs, of: report.runs, perSecond: runsPerSecond,
                unresolved: report.unresolved)
                + " in \(report.failingRunCount) run(s), \(report.failingRuns.count) type(s)")
        lines.append(
            "  \(report.events) events simulated, \(Int(eventsPerSecond)) events/s "
                + "(\(report.facts) facts logged, \(Int(factsPerSecond)) facts/s)")
        lines.append("")
        lines.append(table())
        lines.append("")
        if findings.isEmpty {
            lines.append("No run ended with an open or permanent anomaly; every attack was blocked.")
        } else {
            lines.append("Findings (per type, the shortest shrunk of its first four failing runs):")
            for f in findings {
                lines.append(
                    "  \(f.type.rawValue): run \(f.run.index), \(f.originalSteps) -> \(f.shrunkSteps) steps, "
                        + "\(report.failingRuns[f.type] ?? 0) of \(report.runs) runs")
                lines.append("    iapsim run \(ShellWord.quoted(f.file))")
                lines.append("    " + r.reproduceCommand(run: f.run.index))
            }
        }
        lines.append(String(format: "%.2f s in all", seconds))
        return lines.joined(separator: "\n")
    }

    func table() -> String { ExploreRun.table { report.count($0, $1) } }

    func json() -> String { file.encoded() }
}

extension ExploreRun {
    /// The count of each anomaly type (a row) by status (a column), aligned.
    static func table(_ count: (AnomalyType, AnomalyStatus) -> Int) -> String {
        let statuses = AnomalyStatus.allCases
        var rows = [["type"] + statuses.map(\.rawValue)]
        for type in AnomalyType.simulatedWorld {
            rows.append([type.rawValue] + statuses.map { String(count(type, $0)) })
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == 0
                    ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
