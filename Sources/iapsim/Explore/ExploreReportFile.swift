import Foundation
import IAPSimCore
import IAPSimScenario

/// The JSON object `explore --json` prints: the report of one explore, or of one shard of it
/// (`--shard I/N`), complete enough for `iapsim merge` to add shards up to the report of the
/// unsharded command. Keys are snake case and sorted; the timing fields (`seconds`, the rates,
/// `jobs`) measure the machine, every other field depends only on the flags.
struct ExploreReportFile: Codable, Equatable {
    var policy: String
    var seed: UInt64
    var steps: Int
    var skip: Int
    /// `--runs`: the runs of the whole command, over every shard.
    var totalRuns: Int
    /// `I/N`; `0/1` for every run (and for a merge).
    var shard: String
    /// `iapsim --version`: shards of different builds may draw different runs.
    var version: String
    /// The catalog's identity (`ExploreReportFile.catalogIdentity`).
    var catalog: String
    /// `--swarm on`: true; absent with `--swarm off` (the report as before swarm).
    var swarm: Bool?
    /// The runs this report counts, their engine events and log facts.
    var runs: Int
    var events: Int
    var facts: Int
    /// Per anomaly type, per status: how many.
    var anomalies: [String: [String: Int]]
    /// Each failing run's index (as text) and the types it left unresolved.
    var failingRuns: [String: [String]]
    /// Per type found: the scenario file written.
    var findings: [String: String]
    /// Per type found: the run it was shrunk from and the shrunk scenario's text: of the type's
    /// first four failing runs (`candidates`), the shortest shrunk scenario, ties by run index.
    var shrunk: [String: Shrunk]
    /// Per type found: its first four failing runs, each shrunk, lowest index first (`merge`
    /// keeps the first four of every shard's and picks the shortest again).
    var candidates: [String: [Shrunk]]
    var jobs: Int
    var seconds: Double
    var runsPerSecond: Double
    var eventsPerSecond: Double
    var factsPerSecond: Double

    struct Shrunk: Codable, Equatable {
        var run: Int
        var originalSteps: Int
        var steps: Int
        /// The command that replays the run alone.
        var reproduce: String
        /// The scenario file's text.
        var scenario: String

        /// The finding a type keeps: the shortest shrunk scenario, ties by the lower run index.
        func isBetter(than other: Shrunk) -> Bool { (steps, run) < (other.steps, other.run) }
    }

    /// Per type: runs that ended with it unresolved.
    var failingRunCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for types in failingRuns.values { for type in types { counts[type, default: 0] += 1 } }
        return counts
    }

    var clean: Bool { failingRuns.isEmpty }

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func decoded(_ data: Data) throws -> ExploreReportFile {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ExploreReportFile.self, from: data)
    }

    /// `built-in`, or an FNV-1a hash of the StoreKit file's and the grants file's bytes: two
    /// shards of one explore read the same catalog.
    static func catalogIdentity(storekit: String?, grants: String?) -> String {
        guard storekit != nil || grants != nil else { return "built-in" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, path) in [("storekit", storekit), ("grants", grants)] {
            let bytes = Array(name.utf8) + [0] + (path.flatMap { FileManager.default.contents(atPath: $0) } ?? Data())
            for byte in bytes + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return "fnv1a64:" + String(hash, radix: 16)
    }
}

extension ExploreRun.Result {
    /// The report as `--json` prints it.
    var file: ExploreReportFile {
        var anomalies: [String: [String: Int]] = [:]
        for type in AnomalyType.simulatedWorld {
            var byStatus: [String: Int] = [:]
            for status in AnomalyStatus.allCases { byStatus[status.rawValue] = report.count(type, status) }
            anomalies[type.rawValue] = byStatus
        }
        var failing: [String: [String]] = [:]
        for (index, types) in report.failingRunTypes { failing[String(index)] = types.map(\.rawValue) }
        var files: [String: String] = [:]
        var shrunk: [String: ExploreReportFile.Shrunk] = [:]
        var candidates: [String: [ExploreReportFile.Shrunk]] = [:]
        func entry(_ f: ExploreRun.Finding) -> ExploreReportFile.Shrunk {
            ExploreReportFile.Shrunk(
                run: f.run.index, originalSteps: f.originalSteps, steps: f.shrunkSteps,
                reproduce: run.reproduceCommand(run: f.run.index), scenario: f.contents)
        }
        for f in findings {
            files[f.type.rawValue] = f.file
            shrunk[f.type.rawValue] = entry(f)
            candidates[f.type.rawValue] = f.candidates.map(entry)
        }
        return ExploreReportFile(
            policy: run.policy.rawValue, seed: run.seed, steps: run.steps, skip: run.skip, totalRuns: run.runs,
            shard: run.shard.description, version: IAPSimVersion.line,
            catalog: ExploreReportFile.catalogIdentity(storekit: run.storekitPath, grants: run.grantsPath),
            swarm: run.swarm ? true : nil, runs: report.runs, events: report.events, facts: report.facts,
            anomalies: anomalies,
            failingRuns: failing, findings: files, shrunk: shrunk, candidates: candidates, jobs: run.jobs,
            seconds: seconds,
            runsPerSecond: runsPerSecond, eventsPerSecond: eventsPerSecond, factsPerSecond: factsPerSecond)
    }
}
