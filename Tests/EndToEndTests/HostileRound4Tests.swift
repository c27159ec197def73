import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fourth hostile round (issue 51): the team's catalog and grants are inputs too. No
/// output may be any file a command reads, by any path; every command line printed to be
/// pasted is quoted for `sh` and replays the same world; a backend that dies mid-run leaves
/// the files before it, JUnit and `--log`.
@Suite(.serialized) struct HostileRound4Tests {
    static let storekit = "scenarios/dungeon.storekit"
    static let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// A folder holding `p.storekit` (Dungeon Dash's catalog), `g.yaml` (its grants), a hard
    /// link `hard.storekit` and a symbolic link `link.storekit` to `p.storekit`, `s.yaml` (a
    /// scenario of the catalog, given by `--storekit`) and `k.yaml` (one whose `storekit:`
    /// names `p.storekit`), and `b.sh` (a script).
    static func field(_ name: String) throws -> String {
        let dir = try HostileInputTests.scratch("r4-\(name)")
        try FileManager.default.copyItem(atPath: CLI.root.path + "/" + storekit, toPath: dir + "/p.storekit")
        try HostileInputTests.write("gems_small: 80 gems\n", dir + "/g.yaml")
        #expect(link(dir + "/p.storekit", dir + "/hard.storekit") == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.storekit", withDestinationPath: "p.storekit")
        let steps = "steps:\n  - do: buy gems_small\nexpect:\n  charged: 1\n"
        try HostileInputTests.write("format: 1\ntitle: t\n" + steps, dir + "/s.yaml")
        try HostileInputTests.write("format: 1\ntitle: t\nstorekit: p.storekit\n" + steps, dir + "/k.yaml")
        try HostileInputTests.write("#!/bin/sh\nexit 0\n", dir + "/b.sh")
        return dir
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Every output flag onto `--storekit`, `--grants`, a scenario's `storekit:` and serve's
    /// `--spawn` script, by a plain, relative, `..`, symbolic-link and hard-link path: refused
    /// before anything runs (exit 2, nothing on stdout), naming both, each input unchanged.
    @Test func outputsOntoTheCatalogTheGrantsAndTheScriptAreRefusedByAnyPath() throws {
        let dir = try Self.field("outputs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = dir + "/p.storekit", g = dir + "/g.yaml"
        let relative = "../" + (dir as NSString).lastPathComponent + "/p.storekit"
        let up = dir + "/../" + (dir as NSString).lastPathComponent + "/p.storekit"
        let before = try Self.bytes(p), grants = try Self.bytes(g), script = try Self.bytes(dir + "/b.sh")
        let serve = ["serve", "--backend", "http://127.0.0.1:9", "--explore", "--runs", "1"]
        // (arguments, output flag and path, the input's words in the refusal)
        let cases: [([String], String, String)] = [
            (["check", "--storekit", p, "--junit", p, dir + "/s.yaml"], "--junit \(p)", "--storekit \(p)"),
            (["check", "--storekit", p, "--junit", up, dir + "/s.yaml"], "--junit \(up)", "--storekit \(p)"),
            (
                ["check", "--storekit", dir + "/hard.storekit", "--junit", p, dir + "/s.yaml"], "--junit \(p)",
                "--storekit \(dir)/hard.storekit"
            ),
            (
                ["check", "--storekit", dir + "/link.storekit", "--junit", p, dir + "/s.yaml"], "--junit \(p)",
                "--storekit \(dir)/link.storekit"
            ),
            (["check", "--junit", p, dir + "/k.yaml"], "--junit \(p)", "\(p) (the storekit: of \(dir)/k.yaml)"),
            (["run", dir + "/k.yaml", "--log", p], "--log \(p)", "\(p) (the storekit: of \(dir)/k.yaml)"),
            (
                ["run", "--storekit", p, "--grants", g, dir + "/s.yaml", "--log", g], "--log \(g)",
                "--grants \(g)"
            ),
            (
                ["run", "--storekit", p, dir + "/s.yaml", "--diagram", dir + "/hard.storekit"],
                "--diagram \(dir)/hard.storekit", "--storekit \(p)"
            ),
            (
                ["explore", "--storekit", p, "--runs", "3", "--out", dir + "/o", "--junit", p], "--junit \(p)",
                "--storekit \(p)"
            ),
            (
                ["explore", "--storekit", p, "--grants", g, "--runs", "3", "--out", dir + "/o", "--junit", g],
                "--junit \(g)", "--grants \(g)"
            ),
            (serve + ["--storekit", p, "--junit", p], "--junit \(p)", "--storekit \(p)"),
            (serve + ["--storekit", p, "--port-file", p], "--port-file \(p)", "--storekit \(p)"),
            (serve + ["--storekit", p, "--log", p], "--log \(p)", "--storekit \(p)"),
            (serve + ["--storekit", p, "--grants", g, "--log", g], "--log \(g)", "--grants \(g)"),
            (
                ["serve", "--spawn", "sh \(dir)/b.sh", "--explore", "--runs", "1", "--log", dir + "/b.sh"],
                "--log \(dir)/b.sh", "--spawn's script \(dir)/b.sh"
            ),
        ]
        for (arguments, output, input) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): nothing runs")
            #expect(
                result.stderr.contains(
                    "\(output): the same file as the input \(input); every output needs its own path"),
                "\(arguments): \(result.stderr)")
            #expect(try Self.bytes(p) == before, "\(arguments)")
            #expect(try Self.bytes(g) == grants, "\(arguments)")
            #expect(try Self.bytes(dir + "/b.sh") == script, "\(arguments)")
        }
        // A relative path, from another working directory.
        let fromParent = try CLI.run(
            ["check", "--storekit", p, "--junit", relative, dir + "/s.yaml"], executable: nil, in: dir)
        #expect(fromParent.status == 2, "\(fromParent.stderr)")
        #expect(fromParent.stderr.contains("the same file as the input --storekit \(p)"), "\(fromParent.stderr)")
        #expect(try Self.bytes(p) == before)
    }

    /// A folder with `iapsim` on its PATH, to run pasted lines as a person would.
    static func shell(_ line: String, in dir: String, check: Bool = false) throws -> CLI.Result {
        let bin = dir + "/bin"
        if !FileManager.default.fileExists(atPath: bin + "/iapsim") {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/iapsim", withDestinationPath: CLI.binary.path)
        }
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CLI.run(
            ["PATH=\(path)", "/bin/sh"] + (check ? ["-n"] : []) + ["-c", line],
            executable: URL(fileURLWithPath: "/usr/bin/env"), in: dir)
    }

    /// explore's printed lines (the finding's `iapsim run` and the replay command) with a
    /// catalog and grants whose names hold a space, `;`, `$(...)` and backquotes: each passes
    /// `sh -n`, runs nothing it names, and replays the same run (the same finding, byte for byte).
    @Test func exploresReplayLinesAreQuotedAndReplayTheSameWorld() throws {
        let dir = try Self.field("quote")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hostile = dir + "/a b;$(touch PWNED)`id`.storekit"
        let grants = dir + "/g $(touch PWNED2) 'q'.yaml"
        try FileManager.default.copyItem(atPath: dir + "/p.storekit", toPath: hostile)
        try FileManager.default.copyItem(atPath: dir + "/g.yaml", toPath: grants)
        let out = dir + "/found"
        let result = try CLI.run([
            "explore", "--policy", "naive", "--runs", "200", "--seed", "3", "--steps", "16", "--storekit", hostile,
            "--grants", grants, "--out", out,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let replays = result.lines.filter { $0.hasPrefix("    iapsim explore ") }
        let runs = result.lines.filter { $0.hasPrefix("    iapsim run ") }
        #expect(!replays.isEmpty && replays.count == runs.count, "\(result.stdout)")
        for line in replays.prefix(2) + runs.prefix(2) {
            #expect(line.contains("--storekit") || line.hasPrefix("    iapsim run "), "\(line)")
            let parsed = try Self.shell(line, in: dir, check: true)
            #expect(parsed.status == 0, "sh -n: \(line): \(parsed.stderr)")
        }
        // Each finding is three lines: "  TYPE: run N, ...", its `iapsim run`, its replay.
        let lines = result.lines
        let found = lines.indices.filter { lines[$0].hasPrefix("    iapsim explore ") && $0 >= 2 }
        #expect(found.count >= 2)
        for i in found.prefix(2) {
            let line = lines[i]
            let type = String(lines[i - 2].drop { $0 == " " }.prefix { $0 != ":" })
            #expect(line.contains(" --steps 16 ") && line.contains(" --seed 3 ") && line.contains(" --grants "))
            let replay = try Self.shell(line, in: dir)
            #expect(replay.status == 1, "\(line): \(replay.stderr)")
            #expect(replay.lines.contains { $0.hasPrefix("  \(type): run ") }, "\(line): \(replay.stdout)")
            // The replayed run's finding is the original's, byte for byte.
            let again = dir + "/explore-findings/\(type).yaml"
            #expect(try Self.bytes(again) == Self.bytes(out + "/\(type).yaml"), "\(type)")
        }
        for line in runs.prefix(2) {
            let run = try Self.shell(line, in: dir)
            #expect(run.status == 0, "\(line): \(run.stdout)\(run.stderr)")
        }
        for trap in ["PWNED", "PWNED2"] {
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + trap), "a pasted line ran \(trap)")
            #expect(!FileManager.default.fileExists(atPath: CLI.root.path + "/" + trap))
        }
    }

    /// `serve --explore`'s replay command carries `--storekit` and `--grants` (and the
    /// backend, quoted): pasted, it plays the same world and finds the same anomaly.
    @Test(.enabled(if: python, "python3 is not installed"))
    func serveExploresReplayLinesCarryTheCatalogAndReplayTheSameWorld() throws {
        let dir = try Self.field("serve-quote")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hostile = dir + "/a b;$(touch PWNED).storekit"
        try FileManager.default.copyItem(atPath: dir + "/p.storekit", toPath: hostile)
        let server = CLI.root.path + "/Tests/Fixtures/serve/other_backend.py"
        let config = CLI.root.path + "/Tests/Fixtures/serve/other_backend.yaml"
        let result = try CLI.run([
            "serve", "--config", config, "--spawn", "BUGS=no-dedup python3 \(server)", "--explore", "--policy",
            "sk2-naive", "--runs", "6", "--storekit", hostile, "--grants", dir + "/g.yaml",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let firsts = result.lines.filter { $0.contains("; first run ") }
        #expect(!firsts.isEmpty, "\(result.stdout)")
        guard let first = firsts.first, let range = first.range(of: "iapsim serve ") else { return }
        let line = String(first[range.lowerBound...])
        let type = String(first.drop { $0 == " " }.prefix { $0 != ":" })
        #expect(line.contains(" --storekit ") && line.contains(" --grants "), "\(line)")
        #expect(try Self.shell(line, in: dir, check: true).status == 0, "sh -n: \(line)")
        let replay = try Self.shell(line, in: CLI.root.path)
        #expect(replay.status == 1, "\(line): \(replay.stdout)\(replay.stderr)")
        #expect(replay.lines.contains { $0.hasPrefix("  \(type): 1 runs; first run ") }, "\(replay.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/PWNED"))
        #expect(!FileManager.default.fileExists(atPath: CLI.root.path + "/PWNED"))
    }

    /// A backend that dies during the second file: the file is named, the first keeps its
    /// PASS, JUnit holds both (the second as an error), `--log` what happened, exit 3.
    @Test(.enabled(if: python, "python3 is not installed"))
    func aBackendThatDiesMidRunLeavesTheFilesBeforeItJUnitAndTheLog() throws {
        let dir = try HostileInputTests.scratch("r4-dies")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = CLI.root.path + "/Tests/Fixtures/serve/dying_backend.py"
        let files = ["purchase-credited", "refund-clawed-back"].map { "scenarios/serve/\($0).yaml" }
        let result = try CLI.run(
            [
                "serve", "--config", "Tests/Fixtures/serve/other_backend.yaml", "--spawn", "python3 \(server)",
                "--junit", dir + "/j.xml", "--log", dir + "/l.jsonl",
            ] + files)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.contains { $0.hasPrefix("PASS     \(files[0])") }, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("Error: \(files[1]): "), "\(result.stderr)")
        let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"2\" failures=\"0\" errors=\"1\""), "\(junit)")
        #expect(junit.contains("<testcase name=\"\(files[0])\""))
        #expect(junit.contains("<testcase name=\"\(files[1])\""))
        #expect(junit.contains("<error message=\"\(files[1]): "), "\(junit)")
        let log = try String(contentsOfFile: dir + "/l.jsonl", encoding: .utf8)
        #expect(log.contains("\"source\":\"\(files[0])\""), "\(log.prefix(500))")
        #expect(log.contains("\"source\":\"\(files[1])\""))
        #expect(log.split(separator: "\n").count > 10)
    }
}
