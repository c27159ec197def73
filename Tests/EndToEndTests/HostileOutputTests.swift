import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real binary's outputs against hostile paths and signals: every output flag is
/// checked the same way before anything runs, a failure or a signal leaves no staged file
/// and every file that existed as it was, and names are written and shown as given.
@Suite(.serialized) struct HostileOutputTests {
    static let passing = HostileInputTests.passing

    /// A directory holding an input `s.yaml`, a regular file `keep.txt` ("keep"), a FIFO, a
    /// symbolic link to `keep.txt` and a subdirectory.
    static func field(_ name: String) throws -> String {
        let dir = try HostileInputTests.scratch("out-\(name)")
        try HostileInputTests.write(passing, dir + "/s.yaml")
        try HostileInputTests.write("keep", dir + "/keep.txt")
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/keep.txt")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        return dir
    }

    static func listing(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    /// What each output flag looks like on the command line, for a path.
    static let fileFlags: [(String, @Sendable (String, String) -> [String])] = [
        ("--log", { input, path in ["run", input, "--log", path] }),
        ("--diagram", { input, path in ["run", input, "--diagram", path] }),
        ("--record", { input, path in ["play", input, "--record", path] }),
    ]

    @Test func everyFileOutputRefusesEveryPathThatIsNotANewOrRegularFile() throws {
        let dir = try Self.field("kinds")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/s.yaml"
        let cases: [(String, String)] = [
            ("", "the path is empty; give a file name"),
            (dir + "/sub", "it is a directory; give a file name"),
            (dir + "/sub/", "it names a directory; give a file name"),
            (dir + "/fifo", "it is a FIFO (named pipe); give a regular file"),
            ("/dev/null", "it is a device; give a regular file"),
            (dir + "/link", "it is a symbolic link; give the file itself (iapsim does not write through links)"),
            (input, "the same file as the input \(input); every output needs its own path"),
            (dir + "/none/x", "cannot write in \(dir)/none: No such file or directory"),
        ]
        for (flag, arguments) in Self.fileFlags {
            for (path, reason) in cases {
                let result = try CLI.run(arguments(input, path))
                #expect(result.status == 2, "\(flag) \(path)")
                #expect(result.stdout.isEmpty, "\(flag) \(path)")
                let shown = path.isEmpty ? "Error: \(flag): " : "Error: \(flag) \(path): "
                #expect(result.stderr.hasPrefix(shown + reason + "\n"), "\(flag) '\(path)': \(result.stderr)")
            }
        }
        #expect(try String(contentsOfFile: dir + "/keep.txt", encoding: .utf8) == "keep")
        #expect(try Self.listing(dir) == ["fifo", "keep.txt", "link", "s.yaml", "sub"])
    }

    @Test func directoryOutputsAreCheckedWithTheFilesTheyWillHold() throws {
        let dir = try Self.field("dirs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/s.yaml"
        try FileManager.default.createDirectory(atPath: dir + "/trap", withIntermediateDirectories: false)
        #expect(mkfifo(dir + "/trap/root.cer", 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/trap/signed.jsonl", withDestinationPath: dir + "/keep.txt")
        let commands: [(String, (String) -> [String])] = [
            ("--signed", { ["run", input, "--signed", $0] }),
            ("--out", { ["certs", "--out", $0] }),
            ("--out", { ["explore", "--runs", "3", "--out", $0] }),
        ]
        let cases: [(String, String)] = [
            ("", "the path is empty; give a directory"),
            (dir + "/keep.txt", "it is not a directory; give a directory"),
            (dir + "/link", "it is a symbolic link; give the directory itself (iapsim does not write through links)"),
            (dir + "/keep.txt/x", "\(dir)/keep.txt is not a directory"),
            ("/dev/null", "it is not a directory; give a directory"),
        ]
        for (flag, arguments) in commands {
            for (path, reason) in cases {
                let result = try CLI.run(arguments(path))
                #expect(result.status == 2, "\(arguments(path))")
                let shown = path.isEmpty ? "Error: \(flag): " : "Error: \(flag) \(path): "
                #expect(result.stderr.hasPrefix(shown + reason + "\n"), "\(arguments(path)): \(result.stderr)")
            }
        }
        // The files a directory output will hold are file outputs: a FIFO or a link is refused.
        let fifo = try CLI.run(["certs", "--out", dir + "/trap"])
        #expect(fifo.stderr.hasPrefix("Error: --out \(dir)/trap/root.cer: it is a FIFO (named pipe)"))
        try FileManager.default.removeItem(atPath: dir + "/trap/root.cer")
        let link = try CLI.run(["run", input, "--signed", dir + "/trap"])
        #expect(link.stderr.hasPrefix("Error: --signed \(dir)/trap/signed.jsonl: it is a symbolic link"))
        // And a clash with another output is found before the run.
        let clash = try CLI.run(["run", input, "--log", dir + "/sub/signed.jsonl", "--signed", dir + "/sub"])
        #expect(clash.status == 2)
        #expect(
            clash.stderr.hasPrefix(
                "Error: --signed \(dir)/sub/signed.jsonl: the same file as --log; every output needs its own path"))
        #expect(try String(contentsOfFile: dir + "/keep.txt", encoding: .utf8) == "keep")
        #expect(try Self.listing(dir + "/sub").isEmpty)
        #expect(try Self.listing(dir + "/trap") == ["signed.jsonl"])
    }

    @Test func aRefusedRunDestroysNothingAndASuccessfulOneReplacesOnlyItsOutputs() throws {
        let dir = try Self.field("keep")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/s.yaml"
        try HostileInputTests.write("earlier log", dir + "/keep.jsonl")
        // The issue's case: an existing log, a diagram and --signed on a directory.
        let refused = try CLI.run([
            "run", input, "--log", dir + "/keep.jsonl", "--diagram", dir + "/sub", "--signed", dir + "/sub",
        ])
        #expect(refused.status == 2)
        #expect(!refused.stdout.contains("PASS"))
        #expect(try String(contentsOfFile: dir + "/keep.jsonl", encoding: .utf8) == "earlier log")
        #expect(try Self.listing(dir + "/sub").isEmpty)
        let good = try CLI.run(["run", input, "--log", dir + "/keep.jsonl", "--signed", dir + "/new/signed"])
        #expect(good.status == 0)
        #expect(try String(contentsOfFile: dir + "/keep.jsonl", encoding: .utf8).hasPrefix("{\"t\":0"))
        #expect(try Self.listing(dir + "/new/signed") == ["root.cer", "signed.jsonl"])
        #expect(
            try Self.listing(dir) == ["fifo", "keep.jsonl", "keep.txt", "link", "new", "s.yaml", "sub"])
    }

    @Test func aFailedRunRemovesTheDirectoriesItMadeAndNothingElse() throws {
        let dir = try Self.field("made")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The scenario is invalid only once it runs: a `when` that never comes fails (exit 1,
        // the outputs are still written), so use a write failure instead: a file size limit.
        let big =
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n"
            + String(repeating: "  - do: buy coins_100\n", count: 40)
        try HostileInputTests.write(big, dir + "/big.yaml")
        let result = try HostileInputTests.run(
            ["run", dir + "/big.yaml", "--signed", dir + "/a/b/c"], stdout: ">/dev/null",
            limits: "ulimit -f 8; trap '' XFSZ;")
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("cannot write: File too large\n"), "\(result.stderr)")
        #expect(try Self.listing(dir) == ["big.yaml", "fifo", "keep.txt", "link", "s.yaml", "sub"])
    }

    /// Starts `iapsim ARGUMENTS`, waits until a staged file appears in `dir`, sends `signal`.
    static func interrupt(_ arguments: [String], in dir: String, with signal: Int32) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && process.isRunning {
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasSuffix(".tmp") }
            if staged?.isEmpty == false { break }
            usleep(20_000)
        }
        #expect(process.isRunning, "the run ended before it was interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalDuringTheWritesRemovesTheStagedFilesAndKeepsTheEarlierOnes(signal: Int32) throws {
        let dir = try Self.field("signal-\(signal)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Many StoreKit 2 purchases: the signed file is written for seconds.
        let long =
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n"
            + String(repeating: "  - after: 1m\n    do: buy coins_100\n", count: 20_000)
        try HostileInputTests.write(long, dir + "/long.yaml")
        let out = dir + "/signed"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try HostileInputTests.write("prior root", out + "/root.cer")
        try HostileInputTests.write("prior lines", out + "/signed.jsonl")
        try HostileInputTests.write("prior log", dir + "/log.jsonl")
        let process = try Self.interrupt(
            ["run", dir + "/long.yaml", "--signed", out, "--log", dir + "/log.jsonl", "--quiet"], in: out,
            with: signal)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(try Self.listing(out) == ["root.cer", "signed.jsonl"])
        #expect(try String(contentsOfFile: out + "/root.cer", encoding: .utf8) == "prior root")
        #expect(try String(contentsOfFile: out + "/signed.jsonl", encoding: .utf8) == "prior lines")
        #expect(try String(contentsOfFile: dir + "/log.jsonl", encoding: .utf8) == "prior log")
        #expect(!(try Self.listing(dir)).contains { $0.hasPrefix(".") })
    }

    @Test func aSignalRemovesTheDirectoriesTheRunCreated() throws {
        let dir = try Self.field("signal-dirs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let long =
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n"
            + String(repeating: "  - after: 1m\n    do: buy coins_100\n", count: 20_000)
        try HostileInputTests.write(long, dir + "/long.yaml")
        let process = try Self.interrupt(
            ["run", dir + "/long.yaml", "--signed", dir + "/new/signed", "--quiet"], in: dir + "/new/signed",
            with: SIGTERM)
        #expect(process.terminationStatus == SIGTERM)
        #expect(try Self.listing(dir) == ["fifo", "keep.txt", "link", "long.yaml", "s.yaml", "sub"])
    }

    @Test func namesThatAreNotUTF8AreWrittenAsGivenAndShownEscaped() throws {
        let dir = try Self.field("bytes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Written with the shell: a Swift String cannot hold the byte 0xFF.
        let script =
            "cp \(Tmux.quote(dir + "/s.yaml")) \"$(printf '\(dir)/in\\377.yaml')\" && "
            + "exec \(Tmux.quote(CLI.binary.path)) run \"$(printf '\(dir)/in\\377.yaml')\" "
            + "--log \"$(printf '\(dir)/out\\376.jsonl')\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout.contains("\(dir)/in\\xFF.yaml: policy hardened"), "\(stdout.prefix(300))")
        // The directory holds exactly the bytes given, read without any decoding.
        var names: [[UInt8]] = []
        if let handle = opendir(dir) {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Array(raw.prefix(while: { $0 != 0 }))
                }
                names.append(name)
            }
            closedir(handle)
        }
        #expect(names.contains(Array("in".utf8) + [0xFF] + Array(".yaml".utf8)))
        #expect(names.contains(Array("out".utf8) + [0xFE] + Array(".jsonl".utf8)))
    }

    @Test func reproduceLinesAreShellQuotedAndBidiControlsEscaped() throws {
        let dir = try HostileInputTests.scratch("quote")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/x; rm -rf y"
        let result = try CLI.run(["explore", "--policy", "naive", "--runs", "200", "--out", out])
        #expect(result.status == 1)
        let runs = result.lines.filter { $0.hasPrefix("    iapsim run ") }
        #expect(!runs.isEmpty)
        for line in runs { #expect(line.hasPrefix("    iapsim run '\(out)/"), "\(line)") }
        let title = dir + "/t.yaml"
        try HostileInputTests.write("format: 1\ntitle: \"a\u{202E}b\"\nsteps: []\n", title)
        let shown = try CLI.run(["run", title])
        #expect(shown.lines.first == "== a\\u202Eb")
        #expect(!shown.stdout.unicodeScalars.contains("\u{202E}"))
    }

    /// What explore writes to a terminal (`script` gives it one) under `TERM=term`.
    static func exploreOnATerminal(term: String, out: String) throws -> Data {
        let command =
            "TERM=\(term) \(Tmux.quote(CLI.binary.path)) explore --runs 600 --out \(Tmux.quote(out))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return bytes
    }

    @Test func aDumbTerminalGetsNoEscapeSequence() throws {
        let dir = try HostileInputTests.scratch("dumb")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The live line on a terminal that can take it erases itself with ESC [K ...
        #expect(try Self.exploreOnATerminal(term: "xterm", out: dir + "/f").contains(0x1B))
        // ... and a dumb one gets none.
        let dumb = try Self.exploreOnATerminal(term: "dumb", out: dir + "/f")
        #expect(!dumb.isEmpty)
        #expect(!dumb.contains(0x1B), "an escape sequence under TERM=dumb")
    }

    @Test func aStoreKit1FaultInAStoreKit2WorldIsRefusedNotArmed() throws {
        let dir = try HostileInputTests.scratch("sk1-faults")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/s.yaml"
        try HostileInputTests.write(
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n  - do: store-status 21005\n"
                + "  - do: drop-next-response verify\n  - do: latency verify 5s\n  - do: buy coins_100\n", file)
        let result = try CLI.run(["run", file])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("armed"))
        #expect(!result.stdout.contains("will be lost"))
        #expect(result.lines.filter { $0.contains("ignored: StoreKit 2 has no") }.count == 3)
    }
}
