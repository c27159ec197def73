import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimCurses
import IAPSimScenario

/// `iapsim merge REPORT...`: the shards of one explore (`--shard I/N --json`) added up to the
/// report, findings and exit status of the unsharded run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of explore's shards into the report of the unsharded run.",
        discussion: """
            Each REPORT is the JSON object `iapsim explore --shard I/N --json` printed, saved to a file (one per shard, 0/N to N-1/N). Runs, events and anomaly counts are summed; each anomaly type keeps one finding (as the unsharded explore: of its first four failing runs, each shrunk, the shortest scenario, ties by run index), written to DIR/TYPE.yaml. The report (and --json object) is the unsharded run's.

            Exit 0 when every run ended clean, 1 when one did not, 2 when the reports are not every shard of one explore (another seed, policy, catalog, step count, run count, skip or version; a shard missing or given twice).
            """
    )

    @Argument(help: ArgumentHelp("The shards' reports (`explore --shard I/N --json > FILE`).", valueName: "report"))
    var reports: [String] = []

    @Option(help: "Where to write the findings' scenarios (one TYPE.yaml per finding).")
    var out: String = "explore-findings"

    @Flag(help: "Print the merged report as one JSON object (the unsharded `explore --json`'s).")
    var json = false

    func validate() throws {
        guard !reports.isEmpty else {
            throw ValidationError("merge needs the shards' reports: iapsim merge shard-0.json shard-1.json ...")
        }
    }

    func run() throws {
        StagedFile.installCleanup()
        var read: [(path: String, report: ExploreReportFile)] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else {
                Output.error("Error: cannot read the report \(ShellWord.quoted(path))")
                throw ExitCode(2)
            }
            do {
                read.append((path, try ExploreReportFile.decoded(data)))
            } catch {
                Output.error(
                    "Error: \(ShellWord.quoted(path)) is not a report of `iapsim explore --json`: "
                        + Self.reason(error))
                throw ExitCode(2)
            }
        }
        let merged: ExploreReportFile
        do {
            merged = try ExploreReportFile.merge(read, out: out)
        } catch {
            Output.error("Error: \(error)")
            throw ExitCode(2)
        }
        try write(merged)
        if !merged.clean { throw ExitCode(1) }
    }

    /// The findings, all or none, then the report; a directory this command made for no
    /// finding is removed again.
    func write(_ merged: ExploreReportFile) throws {
        var files = OutputFiles()
        do {
            try OutputCheck.check(
                [.directory(flag: "--out", path: out, files: FindingsDirectory.names)],
                inputs: reports.map(OutputCheck.Input.scenario))
            try files.makeDirectory(out, flag: "--out")
        } catch {
            files.discard()
            Output.error("Error: \(error.message)")
            throw ExitCode(2)
        }
        let findings = AnomalyType.simulatedWorld.compactMap { type in
            merged.shrunk[type.rawValue].map { (type, merged.findings[type.rawValue] ?? "", $0.scenario) }
        }
        try FindingsDirectory.publish(
            findings, in: out, files: &files, report: json ? [merged.encoded()] : human(merged))
    }

    /// What is wrong with a report that does not decode, in one phrase.
    static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "it has no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what explore writes"
        default: return "it is not JSON"
        }
    }

    func human(_ r: ExploreReportFile) -> [String] {
        var lines = [
            "merge: \(reports.count) shard report(s) of explore: policy \(r.policy), \(r.runs) runs from seed \(r.seed)"
                + (r.skip > 0 ? " (skipping \(r.skip))" : "") + ", \(r.steps) steps each",
            "  \(r.unresolved) unresolved " + (r.unresolved == 1 ? "anomaly" : "anomalies")
                + " in \(r.failingRuns.count) run(s), \(r.shrunk.count) type(s)",
            "  \(r.events) events simulated (\(r.facts) facts logged)", "",
        ]
        lines += ExploreRun.table { type, status in r.anomalies[type.rawValue]?[status.rawValue] ?? 0 }
            .split(separator: "\n").map(String.init)
        lines.append("")
        if r.shrunk.isEmpty {
            lines.append("No run ended with an open or permanent anomaly; every attack was blocked.")
            return lines
        }
        lines.append("Findings (per type, the shortest shrunk of its first four failing runs):")
        let counts = r.failingRunCounts
        for type in AnomalyType.simulatedWorld {
            guard let f = r.shrunk[type.rawValue] else { continue }
            lines.append(
                "  \(type.rawValue): run \(f.run), \(f.originalSteps) -> \(f.steps) steps, "
                    + "\(counts[type.rawValue] ?? 0) of \(r.runs) runs")
            lines.append("    iapsim run \(ShellWord.quoted(r.findings[type.rawValue] ?? ""))")
            lines.append("    " + f.reproduce)
        }
        return lines
    }
}
