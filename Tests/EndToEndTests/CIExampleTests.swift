import Foundation
import Testing
import Yams

/// The two CI examples in docs/ci (issue 55): each parsed as YAML, and its commands run here
/// as the CI would, with one process per shard, on fewer runs.
@Suite(.serialized) struct CIExampleTests {
    static func document(_ name: String) throws -> String {
        try String(contentsOfFile: CLI.root.appendingPathComponent("docs/ci/\(name)").path, encoding: .utf8)
    }

    /// A fresh directory to run the commands in.
    static func workspace(_ name: String) throws -> String {
        let path = ExploreCLITests.scratch(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `sh -c command` in `directory`, `iapsim` on PATH, with `environment`; started, not waited for.
    static func start(_ command: String, in directory: String, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["IAPSIM_SHARD"] = nil
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs one command per shard, all at once, and returns their exit statuses.
    static func shards(_ commands: [(String, [String: String])], in directory: String) throws -> [Int32] {
        let processes = try commands.map { try start($0.0, in: directory, environment: $0.1) }
        for process in processes { process.waitUntilExit() }
        return processes.map(\.terminationStatus)
    }

    /// Runs `command` and returns its exit status and standard output.
    static func merge(_ command: String, in directory: String, environment: [String: String] = [:]) throws -> (
        Int32, String
    ) {
        let process = try start("exec > merged.txt; " + command, in: directory, environment: environment)
        process.waitUntilExit()
        let out = try String(contentsOfFile: directory + "/merged.txt", encoding: .utf8)
        return (process.terminationStatus, out)
    }

    /// The flags of the run, smaller: the same explore over 400 runs, under `policy`.
    static func smaller(_ text: String, policy: String) -> String {
        text.replacingOccurrences(of: "--runs 1000000", with: "--runs 400")
            .replacingOccurrences(of: "--policy hardened", with: "--policy \(policy)")
    }

    /// What the unsharded explore of `flags` exits with.
    static func unsharded(_ flags: String, in directory: String) throws -> Int32 {
        try merge("iapsim explore \(flags) --out unsharded", in: directory).0
    }

    @Test(arguments: ["hardened", "naive"])
    func theGitHubActionsWorkflowRunsEightShardsAndMergesThem(policy: String) throws {
        let yaml = try #require(try Yams.load(yaml: Self.document("github-actions-explore.yml")) as? [String: Any])
        let jobs = try #require(yaml["jobs"] as? [String: Any])
        let explore = try #require(jobs["explore"] as? [String: Any])
        let strategy = try #require(explore["strategy"] as? [String: Any])
        let matrix = try #require(strategy["matrix"] as? [String: Any])
        let shardList = try #require(matrix["shard"] as? [Int])
        #expect(shardList == Array(0..<8))
        let merge = try #require(jobs["merge"] as? [String: Any])
        #expect(merge["needs"] as? String == "explore")
        func runs(_ job: [String: Any]) throws -> [String] {
            try #require(job["steps"] as? [[String: Any]]).compactMap { $0["run"] as? String }
        }
        func uploads(_ job: [String: Any]) throws -> [String] {
            try #require(job["steps"] as? [[String: Any]]).filter {
                ($0["uses"] as? String)?.hasPrefix("actions/upload-artifact") == true
            }.compactMap { ($0["with"] as? [String: Any])?["path"] as? String }
        }
        #expect(try uploads(explore).joined().contains("junit-${{ matrix.shard }}.xml"), "each shard uploads its JUnit")
        let shardRun = try #require(try runs(explore).first { $0.contains("iapsim explore") })
        let mergeRun = try #require(try runs(merge).first { $0.contains("iapsim merge") })
        let env = try #require(yaml["env"] as? [String: String])
        let flags = Self.smaller(try #require(env["EXPLORE"]), policy: policy)

        let directory = try Self.workspace("gha-\(policy)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let statuses = try Self.shards(
            shardList.map {
                (shardRun.replacingOccurrences(of: "${{ matrix.shard }}", with: "\($0)"), ["EXPLORE": flags])
            },
            in: directory)
        #expect(statuses == Array(repeating: 0, count: 8), "a shard's step failed")
        for shard in shardList {
            let junit = try String(contentsOfFile: directory + "/junit-\(shard).xml", encoding: .utf8)
            #expect(junit.components(separatedBy: "<testcase").count - 1 == 50, "shard \(shard)'s JUnit")
        }
        let (status, out) = try Self.merge(mergeRun, in: directory, environment: ["EXPLORE": flags])
        #expect(status == (try Self.unsharded(flags, in: directory)), "\(out)")
        #expect(out.hasPrefix("merge: 8 shard report(s) of explore: policy \(policy), 400 runs from seed 1"), "\(out)")
    }

    @Test(arguments: ["hardened", "naive"])
    func theKubernetesIndexedJobRunsEightPodsAndMergesThem(policy: String) throws {
        let documents = try Array(Yams.load_all(yaml: Self.document("kubernetes-explore-job.yaml")))
        #expect(documents.count == 2)
        let job = try #require(documents.first as? [String: Any])
        #expect(job["kind"] as? String == "Job")
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect(completions == 8)
        func command(_ document: Any?) throws -> String {
            let spec = try #require((document as? [String: Any])?["spec"] as? [String: Any])
            let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
            let container = try #require((template["containers"] as? [[String: Any]])?.first)
            #expect(container["command"] as? [String] == ["sh", "-c"])
            return try #require((container["args"] as? [String])?.first)
        }
        let directory = try Self.workspace("k8s-\(policy)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func local(_ text: String) -> String {
            Self.smaller(text, policy: policy).replacingOccurrences(of: "/reports", with: directory)
        }
        let pod = local(try command(documents[0]))
        let statuses = try Self.shards(
            (0..<completions).map { (pod, ["JOB_COMPLETION_INDEX": "\($0)"]) }, in: directory)
        #expect(statuses == Array(repeating: 0, count: completions), "a pod failed")
        let (status, out) = try Self.merge(local(try command(documents[1])), in: directory)
        let flags = local("--policy hardened --runs 1000000 --seed 1")
        #expect(status == (try Self.unsharded(flags, in: directory)), "\(out)")
        #expect(out.hasPrefix("merge: 8 shard report(s) of explore: policy \(policy), 400 runs from seed 1"), "\(out)")
        #expect(FileManager.default.fileExists(atPath: directory + "/junit-7.xml"))
    }
}
