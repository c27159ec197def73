import Foundation
import Testing

/// `--swarm on|off` on the real binary (issue 55 item 4).
@Suite(.serialized) struct SwarmCLITests {
    static func explore(_ extra: [String], name: String) throws -> CLI.Result {
        let out = ExploreCLITests.scratch("swarm-\(name)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        return try CLI.run(
            ["explore", "--policy", "naive", "--runs", "200", "--seed", "3", "--out", out, "--json"] + extra)
    }

    @Test func swarmOffIsTheReportWithoutTheFlag() throws {
        let plain = try ExploreCLITests.json(try Self.explore([], name: "plain"))
        let off = try ExploreCLITests.json(try Self.explore(["--swarm", "off"], name: "off"))
        for key in ["failing_runs", "anomalies", "events", "facts", "shrunk"] {
            #expect(
                NSDictionary(dictionary: ["v": plain[key] as Any]) == NSDictionary(dictionary: ["v": off[key] as Any]),
                "\(key) moved with --swarm off")
        }
        #expect(off["swarm"] == nil, "a report without swarm names none")
    }

    @Test func swarmOnIsRecordedReplaysByRunIndexAndDrawsOtherRuns() throws {
        let on = try ExploreCLITests.json(try Self.explore(["--swarm", "on"], name: "on"))
        let again = try ExploreCLITests.json(try Self.explore(["--swarm", "on"], name: "on-again"))
        let off = try ExploreCLITests.json(try Self.explore([], name: "off-2"))
        #expect(on["swarm"] as? Bool == true)
        let failing = try #require(on["failing_runs"] as? [String: [String]])
        #expect(failing == (again["failing_runs"] as? [String: [String]]))
        #expect(failing != (off["failing_runs"] as? [String: [String]]), "swarm drew the same runs as without")
        // Each finding's reproduce command replays it with swarm on, and that run fails the same way.
        let shrunk = try #require(on["shrunk"] as? [String: [String: Any]])
        let (type, finding) = try #require(shrunk.first)
        let reproduce = try #require(finding["reproduce"] as? String)
        #expect(reproduce.hasSuffix("--swarm on"))
        #expect((finding["scenario"] as? String)?.contains("--swarm on") == true)
        let index = try #require(finding["run"] as? Int)
        let out = ExploreCLITests.scratch("swarm-replay")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let replay = try CLI.run(
            [
                "explore", "--policy", "naive", "--runs", "1", "--seed", "3", "--skip", "\(index)", "--swarm", "on",
                "--out", out, "--json",
            ])
        let replayed = try ExploreCLITests.json(replay)
        #expect((replayed["failing_runs"] as? [String: [String]])?["\(index)"]?.contains(type) == true)
    }

    @Test func mergeRefusesMixingSwarmOnAndOff() throws {
        let on = try ShardMergeTests.report(seed: 5, shard: "0/2", extra: ["--swarm", "on"])
        let off = try ShardMergeTests.report(seed: 5, shard: "1/2")
        let result = try CLI.run(["merge", on, off, "--out", ExploreCLITests.scratch("swarm-mixed")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("from swarm off"), "\(result.stderr)")
        #expect(result.stderr.contains("from swarm on"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func swarmShardsMergeToTheUnshardedSwarmRun() throws {
        let arguments = ["explore", "--policy", "naive", "--runs", "120", "--seed", "5", "--swarm", "on"]
        let out = ExploreCLITests.scratch("swarm-unsharded")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let whole = try ShardMergeTests.fields(try CLI.run(arguments + ["--out", out, "--json"]))
        let (_, merged) = try ShardMergeTests.sharded(arguments, shards: 3, name: "swarm")
        let fields = try ShardMergeTests.fields(merged)
        for key in ["failing_runs", "anomalies", "events", "facts", "swarm", "runs"] {
            #expect(whole[key] == fields[key], "\(key)")
        }
    }

    @Test(arguments: [["explore"], ["matrix"], ["serve", "--explore"]])
    func aSwarmWordOtherThanOnOrOffIsRefused(command: [String]) throws {
        let result = try CLI.run(command + ["--swarm", "maybe"])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first == "Error: --swarm must be on or off, got maybe", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// bench/zoo.sh on 2 seeds of 300 naive runs (its presets part only): a row per anomaly type
    /// with its runs to the first detection, as the failing runs of each report say.
    @Test func theZooPrintsRunsToFirstDetectionPerBug() throws {
        let result = try CLI.run(
            [
                "IAPSIM_BIN=\(CLI.binary.path)", "ZOO_PARTS=presets", CLI.root.path + "/bench/zoo.sh", "2", "300",
                "naive",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("| naive | ") }
        #expect(rows.count >= 4, "\(result.stdout)")
        // The first detection of a type is the first failing run of the explore (index + 1).
        let out = ExploreCLITests.scratch("zoo-check")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let report = try ExploreCLITests.json(
            try CLI.run(["explore", "--policy", "naive", "--runs", "300", "--seed", "1", "--out", out, "--json"]))
        let failing = try #require(report["failing_runs"] as? [String: [String]])
        let firstReplay = failing.filter { $0.value.contains("replay-fraud") }.keys.compactMap { Int($0) }.min()
        let row = try #require(rows.first { $0.contains("| replay-fraud |") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        // Seed 1 is at most the worst of the two seeds; the median is between their values.
        let worst = try #require(Int(cells[3]))
        let first = try #require(firstReplay)
        #expect(worst >= first + 1)
    }
}
