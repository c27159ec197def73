import Foundation
import IAPSimCore
import IAPSimScenario

/// One explore invocation: runs, report, shrunk findings as scenario files (written by the
/// command, all or none).
struct ExploreRun {
    var policy: PolicyPreset
    var runs: Int
    var seed: UInt64
    var jobs: Int
    var steps: Int
    var skip: Int
    /// The share of the runs this process runs (`--shard I/N`).
    var shard: Shard = .whole
    /// `--swarm on`: each run draws its own fault weights.
    var swarm = false
    var outDir: String
    var showProgress: Bool
    /// The products the runs buy (`--storekit`, `--grants`).
    var catalog: LoadedCatalog = .builtIn
    /// The command line's catalog flags, made absolute: findings and the reproduce command name them.
    var storekitPath: String?
    var grantsPath: String?

    struct Finding {
        var type: AnomalyType
        var run: RunOutcome
        var file: String
        /// The scenario file's text, to be written to `file`.
        var contents: String
        var originalSteps: Int
        var shrunkSteps: Int
        /// Every failing run of this type that was shrunk (`ExploreReport.candidates`), this one
        /// among them, lowest index first.
        var candidates: [Finding] = []

        /// The finding a type keeps: the shortest shrunk scenario, ties by the lower run index.
        func isBetter(than other: Finding) -> Bool {
            (shrunkSteps, run.index) < (other.shrunkSteps, other.run.index)
        }
    }

    struct Result {
        var run: ExploreRun
        var report: ExploreReport
        var findings: [Finding]
        var seconds: Double
        var exploreSeconds: Double
    }

    func execute() -> Result {
        var explorer = Explorer(
            policy: policy.policy, seed: seed, steps: steps, catalog: catalog.catalog, swarm: swarm)
        if catalog.catalog.settings.billingGracePeriod {
            explorer.catalogGracePeriodMs = CatalogOptions.fileGracePeriodMs
        }
        let started = Date()
        // The live line is for a person at a terminal; logs and pipes get the final line only.
        // A terminal that says it is dumb (or says nothing) gets no escape sequence.
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        let live = showProgress && isatty(STDERR_FILENO) != 0 && !term.isEmpty && term != "dumb"
        let range = skip..<(skip + runs)
        let total = shard.runs(in: range)
        var progress: (@Sendable (ParallelRuns.Progress) -> Void)?
        if live {
            progress = { @Sendable (p: ParallelRuns.Progress) in
                let rate = Double(p.runs) / max(Date().timeIntervalSince(started), 1e-9)
                let line =
                    ExploreRun.progressLine(
                        runs: p.runs, of: total, perSecond: rate,
                        unresolved: p.unresolved) + " so far"
                Output.raw("\r\(line)\u{1B}[K")
            }
        }
        let report = ParallelRuns.run(explorer, range: range, shard: shard, jobs: jobs, progress: progress)
        let exploreSeconds = Date().timeIntervalSince(started)
        if live { Output.raw("\r\u{1B}[K") }
        var findings: [Finding] = []
        for type in AnomalyType.simulatedWorld {
            let shrunk = (report.candidates[type] ?? []).map { finding(type, $0, explorer) }
            guard var best = shrunk.min(by: { $0.isBetter(than: $1) }) else { continue }
            best.candidates = shrunk
            findings.append(best)
        }
        return Result(
            run: self, report: report, findings: findings,
            seconds: Date().timeIntervalSince(started), exploreSeconds: exploreSeconds)
    }

    /// "  1500/2000 runs, 7600 runs/s, 212 unresolved anomalies": the live line, and the
    /// first line of the report.
    static func progressLine(runs: Int, of total: Int, perSecond: Double, unresolved: Int) -> String {
        "  \(runs)/\(total) runs, \(Int(perSecond)) runs/s, \(unresolved) unresolved "
            + (unresolved == 1 ? "anomaly" : "anomalies")
    }

    /// The command that replays run `index` alone: every flag that shapes its world (the
    /// policy, the seed, the steps, the catalog's files), each word quoted for `sh` (`ShellWord`).
    func reproduceCommand(run index: Int) -> String {
        var words = [
            "iapsim", "explore", "--policy", policy.rawValue, "--runs", "1", "--seed", "\(seed)", "--steps",
            "\(steps)", "--skip", "\(index)",
        ]
        if swarm { words += ["--swarm", "on"] }
        if let storekitPath { words += ["--storekit", storekitPath] }
        if let grantsPath { words += ["--grants", grantsPath] }
        return ShellWord.command(words)
    }

    func finding(_ type: AnomalyType, _ o: RunOutcome, _ explorer: Explorer) -> Finding {
        let original = explorer.schedule(o.index)
        let small = explorer.shrink(original, seed: o.seed, type: type)
        var scenario = ScheduleExport.scenario(
            small, seed: o.seed, preset: policy, type: type,
            origin: reproduceCommand(run: o.index), catalog: catalog)
        scenario.storekitPath = storekitPath
        let path = (outDir as NSString).appendingPathComponent("\(type.rawValue).yaml")
        return Finding(
            type: type, run: o, file: path,
            contents: FindingNotes.annotated(ScenarioWriter.yaml(scenario), file: path),
            originalSteps: original.steps.count,
            shrunkSteps: small.steps.count)
    }
}
