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
                + (r.skip > 0 ? " (skipping \(r.skip))" : "") + ", \(r.steps) steps each, \(r.jobs) job(s)")
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
            lines.append("Findings (first failing run per type, shrunk):")
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

    func table() -> String {
        let statuses = AnomalyStatus.allCases
        var rows = [["type"] + statuses.map(\.rawValue)]
        for type in AnomalyType.simulatedWorld {
            rows.append([type.rawValue] + statuses.map { String(report.count(type, $0)) })
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

    func json() -> String {
        var anomalies: [String: [String: Int]] = [:]
        for type in AnomalyType.simulatedWorld {
            var byStatus: [String: Int] = [:]
            for status in AnomalyStatus.allCases { byStatus[status.rawValue] = report.count(type, status) }
            anomalies[type.rawValue] = byStatus
        }
        var files: [String: String] = [:]
        for f in findings { files[f.type.rawValue] = f.file }
        let object: [String: Any] = [
            "policy": run.policy.rawValue, "runs": report.runs, "seed": run.seed,
            "anomalies": anomalies, "findings": files, "seconds": seconds,
            "runs_per_second": runsPerSecond, "jobs": run.jobs, "events": report.events,
            "events_per_second": eventsPerSecond, "facts": report.facts,
            "facts_per_second": factsPerSecond, "skip": run.skip, "steps": run.steps,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
