import ArgumentParser
import Foundation
import IAPSimCore
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
            """
    )

    @Option(help: "The policy preset: \(PolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
    var policy: PolicyPreset = .hardened

    @Option(help: "How many runs.")
    var runs: Int = 1_000

    @Option(help: "The explore seed; each run's seed derives from it and the run's index.")
    var seed: UInt64 = 1

    @Option(help: "Threads to run on; the results do not depend on it.")
    var jobs: Int = 1

    @Option(help: "Where to write the shrunk scenarios (one TYPE.yaml per finding).")
    var out: String = "explore-findings"

    @Option(help: "Steps per generated schedule.")
    var steps: Int = 24

    @Option(help: "Skip the first K runs (to replay run K alone: --runs 1 --skip K).")
    var skip: Int = 0

    @Flag(help: "Print one JSON object instead of the human report.")
    var json = false

    func validate() throws {
        guard runs >= 1 && runs <= 10_000_000 else {
            throw ValidationError("--runs must be from 1 to 10000000, got \(runs)")
        }
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be from 1 to 256, got \(jobs)") }
        guard steps >= 1 && steps <= 1_000 else {
            throw ValidationError("--steps must be from 1 to 1000, got \(steps)")
        }
        guard skip >= 0 else { throw ValidationError("--skip must be 0 or more, got \(skip)") }
        guard skip <= Int.max - runs else {
            throw ValidationError("--skip plus --runs must be at most \(Int.max), got \(skip) + \(runs)")
        }
    }

    /// The output directory is made ready before the first run; the findings are written
    /// all or none, and replace (not join) the findings an earlier run left there.
    func run() throws {
        let created: [String]
        do {
            created = try FindingsDirectory.prepare(out)
        } catch {
            Output.error("--out \(error.message)")
            throw ExitCode(2)
        }
        let result = ExploreRun(
            policy: policy, runs: runs, seed: seed, jobs: jobs, steps: steps,
            skip: skip, outDir: out, showProgress: !json
        ).execute()
        var files = OutputFiles()
        do {
            for finding in result.findings { try files.stage(finding.contents, to: finding.file) }
            try Output.print(
                json
                    ? [result.json()]
                    : result.human().split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            try files.commit()
        } catch let failure as OutputFiles.Failure {
            FindingsDirectory.removeIfUnused(created)
            Output.error(failure.message)
            throw ExitCode(2)
        } catch {
            files.discard()
            FindingsDirectory.removeIfUnused(created)
            throw error
        }
        FindingsDirectory.removeStale(out, keeping: result.findings.map(\.type))
        FindingsDirectory.removeIfUnused(created)
        if !result.report.clean { throw ExitCode(1) }
    }
}
