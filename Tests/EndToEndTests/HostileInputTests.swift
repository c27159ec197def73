import Foundation
import Testing

/// The real binary against hostile files, flags and outputs: each case ends in a clear
/// refusal or a correct run, with the right status, one message, and nothing left broken.
/// (How fast each refusal is, is measured by bench/hostile.sh, not asserted here.)
@Suite struct HostileInputTests {
    /// A fresh directory for one test's files.
    static func scratch(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("iapsim-hostile-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let passing = "format: 1\ntitle: t\nsteps:\n  - do: buy coins_100\nexpect:\n  charged: 1\n"

    static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// `iapsim ARGUMENTS` with its standard output sent where `stdout` says (a shell
    /// redirection such as `>/dev/full` or `>&-`), standard error captured.
    static func run(_ arguments: [String], stdout: String, limits: String = "") throws -> CLI.Result {
        let command = ([CLI.binary.path] + arguments).map(Tmux.quote).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(limits) exec \(command) \(stdout)"]
        process.currentDirectoryURL = CLI.root
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `iapsim ARGUMENTS` writing into a pipe whose reader is already gone.
    static func runIntoClosedPipe(_ arguments: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLI.root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    // MARK: - Input

    @Test func nonRegularFilesAreRefusedAtOnce() throws {
        let dir = try Self.scratch("kinds")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, reason) in [
            (fifo, "it is a FIFO (named pipe), not a regular file"),
            ("/dev/zero", "it is a device, not a regular file"),
            (dir, "it is a directory, not a scenario file"),
        ] {
            for command in ["run", "play"] {
                let result = try CLI.run([command, path])
                #expect(result.status == 2, "\(command) \(path)")
                #expect(result.stderr == "\(path):1:1: cannot read the file: \(reason)\n")
            }
            guard path != dir else { continue }  // `check DIR` checks the files in it
            let check = try CLI.run(["check", path])
            #expect(check.status == 2)
            #expect(check.stdout.hasPrefix("INVALID  \(path):1:1: cannot read the file: \(reason)\n"))
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let dir = try Self.scratch("big")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let big = dir + "/big.yaml"
        let text = Self.passing + "#" + String(repeating: "x", count: 5_000_000) + "\n"
        try Self.write(text, big)
        let result = try CLI.run(["run", big])
        #expect(result.status == 2)
        #expect(
            result.stderr == "\(big):1:1: the file is \(text.utf8.count) bytes; the limit is "
                + "4194304 bytes (4 MB)\n")
    }

    @Test func anchorTricksAreRefusedAndABOMIsAccepted() throws {
        let dir = try Self.scratch("yaml")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The file of the report: complex keys built from nine levels of aliases.
        var bomb = "format: 1\ntitle: t\nsteps: []\nx: &a [a, b]\n"
        var previous = "a"
        for level in 0..<9 {
            bomb +=
                "? &l\(level) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ")
                + "]\n: v\n"
            previous = "l\(level)"
        }
        try Self.write(bomb, dir + "/bomb.yaml")
        let refused = try CLI.run(["run", dir + "/bomb.yaml"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.hasPrefix(
                "\(dir)/bomb.yaml:5:3: YAML not accepted in a scenario: "
                    + "a map key must be plain text"))
        try Data([0xEF, 0xBB, 0xBF] + Array(Self.passing.utf8)).write(to: URL(fileURLWithPath: dir + "/bom.yaml"))
        let bom = try CLI.run(["run", "--quiet", dir + "/bom.yaml"])
        #expect(bom.status == 0, "\(bom.stderr)")
        #expect(bom.lines.contains("PASS: 1 of 1 expectations hold"))
    }

    @Test func aWaitThenAnEarlierAtIsRefusedNamingBothSteps() throws {
        let dir = try Self.scratch("order")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(
            "format: 1\ntitle: t\nsteps:\n  - do: wait 2m\n  - at: 10s\n    do: crash\n",
            dir + "/order.yaml")
        let result = try CLI.run(["run", dir + "/order.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "\(dir)/order.yaml:5:9: 'at: 10s' is earlier than the step at line 4, "
                + "which ends at 2m at the earliest; 'at' counts from the start of the run\n")
    }

    // MARK: - Terminal safety

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let dir = try Self.scratch("escapes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let evil =
            "format: 1\ntitle: \"retitle \\e]0;owned\\a\"\nstory: \"clear \\e[2J\"\n"
            + "steps:\n  - do: settle\n    say: \"clipboard \\e]52;c;aGk=\\a \\x9b2J\"\n"
        let file = dir + "/evil\u{1B}[31m.yaml"
        try Self.write(evil, file)
        let diagram = dir + "/d.md"
        let run = try CLI.run(["run", file, "--diagram", diagram])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.first == "== retitle \\e]0;owned\\x07")
        #expect(
            run.stdout.contains("evil\\e[31m.yaml") && run.stdout.contains("| clear \\e[2J")
                && run.stdout.contains("| clipboard \\e]52;c;aGk=\\x07 \\x9B2J"))
        let check = try CLI.run(["check", file])
        try Self.write("format: 1\ntitle: t\nusers: [\"\\e[2J\"]\nsteps: []\n", dir + "/bad\u{7}.yaml")
        let invalid = try CLI.run(["run", dir + "/bad\u{7}.yaml"])
        #expect(
            invalid.stderr == "\(dir)/bad\\x07.yaml:3:9: bad user name '\\e[2J'; "
                + "a name is letters, digits, '_', '-' or '.'\n")
        let flag = try CLI.run(["explore", "--out", "x\u{1B}]0;t\u{7}", "--runs", "0"])
        #expect(flag.stderr.hasPrefix("Error: --runs must be from 1 to 10000000, got 0"))
        let written = try String(contentsOfFile: diagram, encoding: .utf8)
        for text in [run.stdout, run.stderr, check.stdout, invalid.stderr, flag.stderr, written] {
            #expect(
                !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
                "\(text.debugDescription)")
        }
    }

    // MARK: - Standard output

    @Test func aStandardOutputThatFailsEndsEveryCommandWithOneLineAndStatusTwo() throws {
        let commands = [
            ["run", "scenarios/ask-to-buy.yaml"], ["check", "scenarios/ask-to-buy.yaml"],
            ["explore", "--runs", "3", "--out", "/tmp/iapsim-hostile-never"],
            ["matrix", "--runs", "2"],
        ]
        for arguments in commands {
            for (redirect, reason) in [
                (">/dev/full", "No space left on device"),
                (">&-", "Bad file descriptor"),
            ] {
                let result = try Self.run(arguments, stdout: redirect)
                #expect(result.status == 2, "\(arguments) \(redirect)")
                #expect(
                    result.stderr == "iapsim: cannot write to standard output: \(reason)\n",
                    "\(arguments) \(redirect)")
            }
            let piped = try Self.runIntoClosedPipe(arguments)
            #expect(piped.status == 2, "\(arguments) into a closed pipe")
            #expect(piped.stderr == "iapsim: cannot write to standard output: Broken pipe\n")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/iapsim-hostile-never"))
    }

    // MARK: - Output files

    @Test func clashingOutputsAreRefusedBeforeAnythingRuns() throws {
        let dir = try Self.scratch("clash")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/s.yaml"
        try Self.write(Self.passing, input)
        let cases: [([String], String)] = [
            (["--log", dir + "/x", "--diagram", dir + "/./x"], "Error: --diagram \(dir)/./x: the same file as --log"),
            (["--log", dir + "/../" + (dir as NSString).lastPathComponent + "/s.yaml"], "Error: --log"),
            (
                ["--diagram", dir + "/nowhere/d.md"],
                "Error: --diagram \(dir)/nowhere/d.md: cannot write in "
                    + "\(dir)/nowhere: No such file or directory"
            ),
            (["--log", dir], "Error: --log \(dir): it is a directory; give a file name"),
        ]
        for (flags, message) in cases {
            let result = try CLI.run(["run", input] + flags)
            #expect(result.status == 2, "\(flags)")
            #expect(result.stdout.isEmpty, "\(flags)")
            #expect(result.stderr.hasPrefix(message), "\(flags): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.passing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.yaml"])
    }

    @Test func whenOneOutputFailsNoneIsLeftAndNoVerdictIsPrinted() throws {
        let dir = try Self.scratch("atomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/s.yaml"
        try Self.write(Self.passing, input)
        // A file size limit makes the diagram's write fail half-way (EFBIG), after the log was
        // staged: neither is left.
        let result = try Self.run(
            ["run", input, "--log", dir + "/log.jsonl", "--diagram", dir + "/d.md"],
            stdout: ">/dev/null", limits: "ulimit -f 1; trap '' XFSZ;")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: \(dir)/"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": cannot write: File too large\n"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.yaml"])
        let good = try CLI.run(["run", input, "--log", dir + "/log.jsonl", "--diagram", dir + "/d.md"])
        #expect(good.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
                == ["d.md", "log.jsonl", "s.yaml"])
    }

    @Test func exploreOutIsCheckedFirstAndReplacesEarlierFindings() throws {
        let dir = try Self.scratch("out")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write("not a directory", dir + "/file")
        for (out, reason) in [
            (dir + "/file", "it is not a directory; give a directory"),
            (dir + "/file/sub", "\(dir)/file is not a directory"),
            ("/proc/iapsim", "cannot create /proc/iapsim: No such file or directory"),
        ] {
            let result = try CLI.run(["explore", "--runs", "5", "--policy", "naive", "--out", out])
            #expect(result.status == 2, "\(out)")
            #expect(result.stdout.isEmpty, "\(out)")
            #expect(result.stderr.hasPrefix("Error: --out \(out): \(reason)\n"), "\(out)")
        }
        let findings = dir + "/findings"
        try FileManager.default.createDirectory(atPath: findings, withIntermediateDirectories: false)
        try Self.write("stale", findings + "/replay-fraud.yaml")
        try Self.write("mine", findings + "/notes.txt")
        let clean = try CLI.run(["explore", "--runs", "20", "--policy", "hardened", "--out", findings])
        #expect(clean.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: findings) == ["notes.txt"])
    }

    // MARK: - Flags

    @Test func everyNumericFlagIsRangeChecked() throws {
        let cases: [[String]] = [
            ["explore", "--runs", "0"], ["explore", "--runs", "10000001"], ["explore", "--jobs", "0"],
            ["explore", "--jobs", "257"], ["explore", "--steps", "0"], ["explore", "--steps", "1001"],
            ["explore", "--skip", "-1"], ["explore", "--skip", "9223372036854775807", "--runs", "1"],
            ["explore", "--runs", "99999999999999999999"], ["explore", "--seed", "-1"],
            ["matrix", "--runs", "0"], ["matrix", "--jobs", "300"], ["matrix", "--steps", "5000"],
            ["sandbox", "--speed", "1000"], ["sandbox", "--seed", "18446744073709551616"],
            ["play", "scenarios/ask-to-buy.yaml", "--speed", "-1"],
        ]
        for arguments in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
        }
        let last = try CLI.run([
            "explore", "--skip", "9223372036854775806", "--runs", "1",
            "--out", "/tmp/iapsim-hostile-last", "--json",
        ])
        #expect(last.status == 0 || last.status == 1, "\(last.stderr)")
        try? FileManager.default.removeItem(atPath: "/tmp/iapsim-hostile-last")
    }
}
