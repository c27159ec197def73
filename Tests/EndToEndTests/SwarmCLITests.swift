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
}
