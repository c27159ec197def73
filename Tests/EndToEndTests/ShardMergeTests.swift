import Foundation
import Testing

/// `explore --shard I/N` on N processes and `iapsim merge`: the merged report is the
/// unsharded run's (issue 55).
@Suite(.serialized) struct ShardMergeTests {
    /// Runs the binary with `environment` added to the test's own.
    static func run(_ arguments: [String], environment: [String: String]) throws -> CLI.Result {
        try CLI.run(
            environment.map { "\($0.key)=\($0.value)" } + [CLI.binary.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    /// Each field of the report as canonical JSON text, the timings left out and each
    /// finding's path replaced by the file's contents.
    static func fields(_ result: CLI.Result) throws -> [String: String] {
        var object = try ExploreCLITests.json(result).filter { !ExploreCLITests.timing.contains($0.key) }
        let files = try #require(object["findings"] as? [String: String])
        object["findings"] = try files.mapValues { try String(contentsOfFile: $0, encoding: .utf8) }
        return try object.mapValues { value in
            let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Runs the N shards of `arguments` (each `--json` saved to a file) and merges them.
    static func sharded(_ arguments: [String], shards n: Int, name: String) throws -> (
        shards: [CLI.Result], merged: CLI.Result
    ) {
        var reports: [String] = []
        var shards: [CLI.Result] = []
        for i in 0..<n {
            let out = ExploreCLITests.scratch("\(name)-\(n)-\(i)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try CLI.run(arguments + ["--shard", "\(i)/\(n)", "--out", out, "--json"])
            let report = CLI.temporaryFile("\(name)-\(n)-\(i).json")
            try result.stdout.write(toFile: report, atomically: true, encoding: .utf8)
            reports.append(report)
            shards.append(result)
        }
        defer { for report in reports { try? FileManager.default.removeItem(atPath: report) } }
        let out = ExploreCLITests.scratch("\(name)-\(n)-merged")
        let merged = try CLI.run(["merge"] + reports.reversed() + ["--out", out, "--json"])
        return (shards, merged)
    }

    @Test(arguments: [1, 2, 4, 7])
    func mergedShardsAreTheUnshardedRunFieldByField(shards n: Int) throws {
        let arguments = ["explore", "--policy", "naive", "--runs", "300", "--seed", "5"]
        let out = ExploreCLITests.scratch("unsharded-\(n)")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let whole = try CLI.run(arguments + ["--out", out, "--json"])
        #expect(whole.status == 1, "naive fails: \(whole.stderr)")
        let (shards, merged) = try Self.sharded(arguments, shards: n, name: "naive")
        for (i, shard) in shards.enumerated() {
            let object = try ExploreCLITests.json(shard)
            #expect(object["shard"] as? String == "\(i)/\(n)")
            #expect(object["runs"] as? Int == (0..<300).filter { $0 % n == i }.count)
            let failing = try #require(object["failing_runs"] as? [String: [String]])
            #expect(failing.keys.allSatisfy { Int($0)! % n == i }, "shard \(i)/\(n) ran another shard's run")
        }
        #expect(merged.status == whole.status, "\(merged.stderr)")
        let expected = try Self.fields(whole)
        let got = try Self.fields(merged)
        #expect(Set(got.keys) == Set(expected.keys))
        for (key, value) in expected {
            #expect(got[key] == value, "\(key) differs after merging \(n) shards")
        }
    }

    /// Issue 55: one finding per type, the shortest shrunk scenario, ties by run index. Naive,
    /// seed 5: replay-fraud fails first at run 13 (shrunk to 3 steps), but run 31 shrinks to 2;
    /// the finding is run 31's, in the unsharded report and in the merge of 7 shards, where run
    /// 13 is shard 6's and run 31 shard 3's.
    @Test func theFindingIsTheShortestShrunkScenarioNotTheFirstFailingRuns() throws {
        let arguments = ["explore", "--policy", "naive", "--runs", "300", "--seed", "5"]
        let out = ExploreCLITests.scratch("shortest")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let whole = try CLI.run(arguments + ["--out", out, "--json"])
        let object = try ExploreCLITests.json(whole)
        let shrunk = try #require(object["shrunk"] as? [String: [String: Any]])
        let candidates = try #require(object["candidates"] as? [String: [[String: Any]]])
        #expect(Set(shrunk.keys) == Set(candidates.keys))
        var notFirst: [String] = []
        for (type, finding) in shrunk {
            let runs = try #require(candidates[type]).map { ($0["run"] as! Int, $0["steps"] as! Int) }
            #expect(runs.count <= 4 && !runs.isEmpty)
            #expect(runs.map(\.0) == runs.map(\.0).sorted(), "\(type): candidates lowest index first")
            let best = runs.min { ($0.1, $0.0) < ($1.1, $1.0) }!
            #expect(finding["run"] as? Int == best.0, "\(type): \(runs)")
            #expect(finding["steps"] as? Int == best.1)
            if best.0 != runs[0].0 { notFirst.append(type) }
        }
        let replay = try #require(shrunk["replay-fraud"])
        #expect(replay["run"] as? Int == 31 && replay["steps"] as? Int == 2, "\(replay)")
        #expect(notFirst.contains("replay-fraud"))
        // The finding's file is the chosen run's scenario.
        let file = try String(contentsOfFile: out + "/replay-fraud.yaml", encoding: .utf8)
        #expect(file.contains("--skip 31"))
        let (_, merged) = try Self.sharded(arguments, shards: 7, name: "shortest")
        let mergedShrunk = try #require(try ExploreCLITests.json(merged)["shrunk"] as? [String: [String: Any]])
        #expect(mergedShrunk["replay-fraud"]?["run"] as? Int == 31)
    }

    @Test func aCleanPolicyMergesToExitZero() throws {
        let arguments = ["explore", "--policy", "hardened", "--runs", "120", "--seed", "2"]
        let out = ExploreCLITests.scratch("clean-whole")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let whole = try CLI.run(arguments + ["--out", out, "--json"])
        let (_, merged) = try Self.sharded(arguments, shards: 3, name: "clean")
        #expect(whole.status == 0)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try Self.fields(merged) == Self.fields(whole))
    }

    /// Writes shard `i`/`n` of a naive explore's report and returns its path.
    static func report(
        seed: Int, shard: String, policy: String = "naive", steps: String = "24", extra: [String] = []
    ) throws -> String {
        let out = ExploreCLITests.scratch(
            "refuse-\(seed)-\(policy)-\(steps)-\(shard.replacingOccurrences(of: "/", with: "of"))")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run(
            [
                "explore", "--policy", policy, "--runs", "40", "--seed", "\(seed)", "--steps", steps,
                "--shard", shard, "--out", out, "--json",
            ] + extra)
        let path = out + "\(extra.count).json"
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReportOfAnotherExploreIsRefusedNamingTheDifference() throws {
        let base = try Self.report(seed: 5, shard: "0/2")
        for (other, field) in [
            (try Self.report(seed: 6, shard: "1/2"), "seed 6"),
            (try Self.report(seed: 5, shard: "1/2", policy: "retransmit"), "policy retransmit"),
            (try Self.report(seed: 5, shard: "1/2", steps: "12"), "steps 12"),
            (
                try Self.report(seed: 5, shard: "1/2", extra: ["--storekit", "Tests/Fixtures/storekit/v5.storekit"]),
                "from catalog fnv1a64:"
            ),
        ] {
            let result = try CLI.run(["merge", base, other, "--out", ExploreCLITests.scratch("refused")])
            #expect(result.status == 2)
            #expect(result.stderr.contains(field), "\(field): \(result.stderr)")
            #expect(result.stderr.contains(other))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aFileThatIsNoReportIsRefusedNamingIt() throws {
        let path = CLI.temporaryFile("not-a-report.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "{}".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["merge", path, "--out", ExploreCLITests.scratch("no-report")])
        #expect(result.status == 2)
        #expect(result.stderr == "Error: \(path) is not a report of `iapsim explore --json`: it has no policy\n")
    }

    @Test func aMissingOrRepeatedShardIsNamed() throws {
        let reports = try ["0/4", "1/4", "3/4"].map { try Self.report(seed: 5, shard: $0) }
        let missing = try CLI.run(["merge"] + reports + ["--out", ExploreCLITests.scratch("missing")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("shard 2/4 is missing"), "\(missing.stderr)")
        let twice = try CLI.run(["merge", reports[0], reports[0], "--out", ExploreCLITests.scratch("twice")])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("both shard 0/4"), "\(twice.stderr)")
    }

    @Test func theShardComesFromTheFlagOrTheEnvironment() throws {
        let arguments = ["explore", "--policy", "naive", "--runs", "40", "--seed", "5", "--json"]
        let flag = try CLI.run(arguments + ["--shard", "2/3", "--out", ExploreCLITests.scratch("flag")])
        let env = try Self.run(
            arguments + ["--out", ExploreCLITests.scratch("env")], environment: ["IAPSIM_SHARD": "2/3"])
        let indexed = try Self.run(
            arguments + ["--shards", "3", "--out", ExploreCLITests.scratch("indexed")],
            environment: ["JOB_COMPLETION_INDEX": "2"])
        for result in [flag, env, indexed] {
            let object = try ExploreCLITests.json(result)
            #expect(object["shard"] as? String == "2/3", "\(result.stderr)")
            #expect(object["runs"] as? Int == 13)
        }
    }

    @Test(arguments: [
        (["--shard", "9/4"], "--shard must be I/N", "got 9/4"),
        (["--shard", "1/0"], "--shard must be I/N", "got 1/0"),
        (["--shard", "x"], "--shard must be I/N", "got x"),
        (["--shards", "4"], "JOB_COMPLETION_INDEX", "not set"),
    ])
    func aBadShardExitsTwoWithOneMessage(flags: [String], message: String, got: String) throws {
        for command in ["explore", "matrix"] {
            let result = try CLI.run([command, "--runs", "10"] + flags)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message) && result.stderr.contains(got), "\(command): \(result.stderr)")
        }
    }

    @Test func matrixShardsShareTheRunsOfTheSeed() throws {
        let result = try CLI.run(["matrix", "--runs", "40", "--shard", "1/4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines[0].hasPrefix("Share of the 10 runs of shard 1/4 (of 40 runs) (seed 1"), "\(result.stdout)")
    }

    /// Each testcase of a JUnit file: its name and whether it failed.
    static func testcases(_ path: String) throws -> [String: Bool] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var cases: [String: Bool] = [:]
        for part in text.components(separatedBy: "<testcase name=\"").dropFirst() {
            let name = String(part.prefix { $0 != "\"" })
            let body = part.components(separatedBy: "</testcase>").first ?? part
            cases[name] = body.contains("<failure")
        }
        return cases
    }

    @Test(.enabled(if: HostileRound4Tests.python, "python3 is not installed"))
    func serveExploreShardsPlayTheUnshardedRunsBetweenThem() throws {
        let dir = ExploreCLITests.scratch("serve-shards")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = CLI.root.path + "/Tests/Fixtures/serve/other_backend.py"
        let serve = [
            "serve", "--config", CLI.root.path + "/Tests/Fixtures/serve/other_backend.yaml", "--spawn",
            "BUGS=no-dedup python3 \(server)", "--explore", "--policy", "sk2-naive", "--runs", "6",
        ]
        let whole = try CLI.run(serve + ["--junit", dir + "/whole.xml"])
        var union: [String: Bool] = [:]
        for i in 0..<2 {
            let shard = try CLI.run(serve + ["--shard", "\(i)/2", "--junit", dir + "/\(i).xml"])
            #expect(shard.lines.first?.hasPrefix("3 runs (shard \(i)/2 of 6) of sk2-naive") == true, "\(shard.stdout)")
            let cases = try Self.testcases(dir + "/\(i).xml")
            #expect(cases.keys.allSatisfy { Int($0.dropFirst(4).prefix { $0 != "," })! % 2 == i }, "\(cases)")
            union.merge(cases) { a, _ in a }
        }
        let expected = try Self.testcases(dir + "/whole.xml")
        #expect(expected.count == 6, "\(whole.stdout)\(whole.stderr)")
        #expect(union == expected)
    }
}
