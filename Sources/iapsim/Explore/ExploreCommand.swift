import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimCurses
import IAPSimScenario

extension PolicyPreset: ExpressibleByArgument {}

/// `iapsim explore`: random fault schedules, their verdicts, and each failure shrunk to a
/// minimal scenario file.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run random fault schedules under a policy and shrink each failure to a scenario.",
        discussion: """
            Each run draws a schedule of purchases and faults from SEED and its index, runs it,
            heals (faults off, app launched, a user logged in) and settles. For every anomaly type
            that ends open or permanent (or a replay that was not blocked), the first failing
            schedule is shrunk and written to DIR/TYPE.yaml. Exit 0 when every run ends clean, 1 when
            one does not, 2 on bad flags.

            Over several machines: each runs `--shard I/N` (I from 0 to N-1; or IAPSIM_SHARD=I/N; or
            --shards N in a Kubernetes Indexed Job) with --json > shard-I.json, and
            `iapsim merge shard-*.json` prints the report, findings and exit status of the unsharded run.
            """
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Option(help: "The policy preset: \(PolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
    var policy: PolicyPreset = .hardened

    @Option(name: .customLong("runs"), parsing: .unconditional, help: "How many runs.")
    var runsFlag = NumberFlag("1000")

    @Option(help: "Where to write the shrunk scenarios (one TYPE.yaml per finding).")
    var out: String = "explore-findings"

    @Option(
        name: .customLong("skip"), parsing: .unconditional,
        help: "Skip the first K runs (to replay run K alone: --runs 1 --skip K).")
    var skipFlag = NumberFlag("0")

    @OptionGroup(title: "Schedules") var schedule: ScheduleFlags

    @OptionGroup(title: "Sharding (over machines; then iapsim merge)") var sharding: ShardFlags

    // Read after `validate()` has checked them.
    var runs: Int { (try? runsFlag.whole("--runs", in: FlagRange.runs)) ?? 1 }
    var seed: UInt64 { schedule.seed }
    var jobs: Int { schedule.jobs }
    var steps: Int { schedule.steps }
    var skip: Int { (try? skipFlag.whole("--skip", in: FlagRange.skip)) ?? 0 }

    @Flag(
        help:
            "Print one JSON object instead of the human report (the report `iapsim merge` reads: save it to a file).")
    var json = false

    @Option(help: ArgumentHelp("Also write the runs as JUnit XML (one testcase per run).", valueName: "file"))
    var junit: String?

    func validate() throws {
        let runs = try runsFlag.whole("--runs", in: FlagRange.runs)
        try schedule.check()
        try sharding.check()
        let skip = try skipFlag.whole("--skip", in: FlagRange.skip)
        guard skip <= Int.max - runs else {
            throw ValidationError("--skip plus --runs must be at most \(Int.max), got \(skip) + \(runs)")
        }
    }

    /// The output directory is checked and made before the first run (and removed again if
    /// this command made it and nothing is written); the findings are written all or none,
    /// and replace (not join) the findings an earlier run left there.
    func run() throws {
        StagedFile.installCleanup()
        var files = OutputFiles()
        let inputs = catalog.inputs(scenarios: [])
        var report = try JUnitReport(
            suite: "iapsim explore --policy \(policy.rawValue) --seed \(seed)", path: junit, inputs: inputs,
            properties: JUnitReport.properties(
                seed: "\(seed)", idBlock: "core", policy: policy.rawValue, catalog: catalog))
        do {
            var targets: [OutputCheck.Target] = [
                .directory(flag: "--out", path: out, files: FindingsDirectory.names)
            ]
            if let junit { targets.append(.file(flag: "--junit", path: junit)) }
            try OutputCheck.check(targets, inputs: inputs)
            try files.makeDirectory(out, flag: "--out")
        } catch {
            files.discard()
            Output.error("Error: \(error.message)")
            throw ExitCode(2)
        }
        let loaded = try catalog.load()
        let result = ExploreRun(
            policy: policy, runs: runs, seed: seed, jobs: jobs, steps: steps,
            skip: skip, shard: sharding.shard, swarm: schedule.swarm, outDir: out, showProgress: !json,
            catalog: loaded,
            storekitPath: catalog.storekit.map(TerminalUI.absolutePath),
            grantsPath: catalog.grants.map(TerminalUI.absolutePath)
        ).execute()
        try FindingsDirectory.publish(
            result.findings.map { ($0.type, $0.file, $0.contents) }, in: out, files: &files,
            report: json
                ? [result.json()]
                : result.human().split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        if junit != nil {
            let range = skip..<(skip + runs)
            let shard = sharding.shard
            for k in 0..<shard.runs(in: range) {
                let index = shard.run(k, in: range)
                let name = "run \(index), seed \(seed)"
                guard let types = result.report.failingRunTypes[index] else {
                    report.add(name, .passed)
                    continue
                }
                let first = types.map(\.rawValue).joined(separator: ", ") + " unresolved"
                report.add(name, .failed(lines: [first, result.run.reproduceCommand(run: index)]))
            }
            try report.write()
        }
        if !result.report.clean { throw ExitCode(1) }
    }
}
