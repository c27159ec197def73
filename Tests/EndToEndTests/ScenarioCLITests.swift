import Foundation
import IAPSimCore
import Testing

/// Runs the built `iapsim` binary and captures what it prints.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary beside the test bundle (same build folder), or `IAPSIM_BIN`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["IAPSIM_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the runner sits inside the .xctest bundle.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("iapsim")
    }

    static func fixture(_ name: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/cli/\(name)").path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Runs the binary (or `executable`) in the repository's root (or `directory`).
    static func run(_ arguments: [String], executable: URL? = nil, in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("iapsim-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(name)").path
    }
}

@Suite(.serialized) struct ScenarioCLITests {
    /// The glossary (掉单, 漏单, ...) is for a person who asks (`--glossary`; the TUI's and
    /// `learn`'s page): a failing verdict of `run` ends without it.
    @Test func theGlossaryComesOnlyWhenAskedFor() throws {
        let file = "scenarios/double-credit-crash-before-finish-naive.yaml"
        let plain = try CLI.run(["run", "--quiet", file])
        #expect(plain.stdout.contains("double-credit"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("glossary:") && !plain.stdout.contains("掉单"), "\(plain.stdout)")
        let asked = try CLI.run(["run", "--quiet", "--glossary", file])
        #expect(asked.stdout.contains("glossary:"), "\(asked.stdout)")
    }

    @Test func runOfAPassingFileExitsZeroWithNarrationLogAndVerdict() throws {
        let result = try CLI.run(["run", CLI.fixture("pass.yaml")])
        #expect(result.status == 0)
        #expect(result.lines.first == "== Crash while the App Store charges, observer registered at launch")
        #expect(
            result.lines.contains("   | Alice buys 100 coins. The App Store charges her, but the app is killed before"))
        #expect(result.lines.contains("-- step 2 (line 14) when charged: crash"))
        #expect(result.lines.contains("   | The app dies right after the charge, before the callback."))
        #expect(result.lines.contains("0:00:02.160  App Store        charged 0.99 for coins_100 (1000000000001)"))
        #expect(result.lines.contains("  holds  credited alice: expected 100, actual 100"))
        #expect(result.lines.contains("PASS: 4 of 4 expectations hold"))
        #expect(result.stderr.isEmpty)
    }

    @Test func runOfAFailingFileExitsOneWithExpectedAndActual() throws {
        let result = try CLI.run(["run", "--quiet", CLI.fixture("fail.yaml")])
        #expect(result.status == 1)
        #expect(result.lines.contains("  FAILS  credited alice: expected 999, actual 100"))
        #expect(result.lines.contains("FAIL: 1 of 4 expectations fail"))
        #expect(!result.stdout.contains("-- step"))
    }

    @Test func runOfAnInvalidFileExitsTwoWithOneMessageAndRunsNothing() throws {
        let file = CLI.fixture("invalid.yaml")
        let result = try CLI.run(["run", file])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "\(file):15:9: unknown command 'explode'; commands are: "
                + CommandSpec.words.joined(separator: ", ") + "\n")
    }

    @Test func runOfAMissingFileExitsTwo() throws {
        let result = try CLI.run(["run", "no/such/file.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr == "no/such/file.yaml:1:1: cannot read the file: no such file\n")
    }

    /// Walkthrough 5: a mistyped command is named as a command, with the commands there are,
    /// not refused as an argument of the sandbox with the sandbox's usage; flags still reach
    /// the sandbox, and `help` is ArgumentParser's.
    @Test func anUnknownCommandIsNamedWithTheCommandsThereAre() throws {
        let result = try CLI.run(["frobnicate", "--seed", "1"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "unknown command 'frobnicate'; the commands are sandbox, play, run, check, explore, matrix, "
                + "merge, certs, learn, serve, catalog (with none: the sandbox; `iapsim --help` tells more)\n")
        let flag = try CLI.run(["--no-such-flag"])
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("--no-such-flag"))
        #expect(try CLI.run(["help", "run"]).stdout.contains("USAGE: iapsim run"))
    }

    /// Walkthrough 6, N10: a flag people reach for that is named otherwise here gets the
    /// flag it means (`--catalog`: `--storekit`), over ArgumentParser's nearest spelling
    /// (`--grace`: `--grace-period`, not `--grants`), and only where the command has it.
    @Test func aSynonymOfAFlagIsPointedToTheFlag() throws {
        let catalog = try CLI.run(["--catalog", "scenarios/dungeon.storekit"])
        #expect(catalog.status == 2)
        #expect(catalog.stderr.hasPrefix("Error: Unknown option '--catalog'. Did you mean '--storekit'?\n"))
        let grace = try CLI.run(["--grace", "3d"])
        #expect(grace.stderr.hasPrefix("Error: Unknown option '--grace'. Did you mean '--grace-period'?\n"))
        // `run` has no --policy: no hint that would be refused in turn.
        let run = try CLI.run(["run", "--preset", "naive", "x.yaml"])
        #expect(run.status == 2)
        #expect(!run.stderr.contains("Did you mean '--policy'"))
    }

    /// Walkthrough 5, F5: `learn` away from the checkout says where the lessons come from.
    @Test func learnWithoutTheShippedScenariosSaysHowToFindThem() throws {
        let result = try CLI.run(["learn", "--scenarios", "no/such/folder"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "no/such/folder/lost-order-crash-at-charge-naive.yaml: no such file; the lessons are the shipped "
                + "scenarios: run `iapsim learn` from the checkout, or give their folder with --scenarios DIR\n")
    }

    @Test func aWhenThatNeverComesExitsOneNamingTheStep() throws {
        let result = try CLI.run(["run", CLI.fixture("stops.yaml")])
        #expect(result.status == 1)
        #expect(
            result.lines.contains(
                "!! step 2 (line 6): 'when: charged' did not happen within 30s; the run stops here"))
        #expect(result.lines.contains("FAIL: stopped at step 2 (line 6)"))
    }

    @Test func logIsJSONLinesAndDiagramIsASequenceDiagram() throws {
        let log = CLI.temporaryFile("run.jsonl"), diagram = CLI.temporaryFile("run.md")
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: diagram)
        }
        let result = try CLI.run(["run", CLI.fixture("pass.yaml"), "--log", log, "--diagram", diagram])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 20)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["kind"] is String, "\(line)")
            #expect(object?["t"] is Int, "\(line)")
        }
        #expect(try String(contentsOfFile: diagram, encoding: .utf8).hasPrefix("sequenceDiagram\n"))
    }

    @Test func checkOfTheShippedScenariosPasses() throws {
        let count = try FileManager.default.contentsOfDirectory(
            atPath: CLI.root.appendingPathComponent("scenarios").path
        ).filter { $0.hasSuffix(".yaml") }.count
        let result = try CLI.run(["check", "scenarios"])
        #expect(result.status == 0)
        #expect(result.lines.dropLast().last == "\(count) passed, 0 failed")
        #expect(result.lines.filter { $0.hasPrefix("PASS     scenarios/") }.count == count)
    }

    @Test func checkCountsFailuresAndExitsTwoWhenOneIsInvalid() throws {
        let result = try CLI.run([
            "check", CLI.fixture("pass.yaml"), CLI.fixture("fail.yaml"),
            CLI.fixture("invalid.yaml"),
        ])
        #expect(result.status == 2)
        let lines = result.lines.dropLast()
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("PASS     \(CLI.fixture("pass.yaml"))  (virtual 0:01:32.161, "))
        #expect(lines[1].hasPrefix("FAIL     \(CLI.fixture("fail.yaml"))  (virtual 0:01:32.161, "))
        #expect(lines[1].hasSuffix(")  credited alice: expected 999, actual 100"))
        #expect(lines[2].hasPrefix("INVALID  \(CLI.fixture("invalid.yaml")):15:9: unknown command 'explode'"))
        #expect(lines[3] == "1 passed, 2 failed")
    }

    @Test func checkExitsOneWhenOneFailsAndNoneIsInvalid() throws {
        let result = try CLI.run(["check", CLI.fixture("pass.yaml"), CLI.fixture("fail.yaml")])
        #expect(result.status == 1)
        #expect(result.lines.dropLast().last == "1 passed, 1 failed")
    }
}
