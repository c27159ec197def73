import Foundation
import Testing

/// `iapsim serve` as a careful network tool (the third hostile round): its keys in a fresh
/// private folder that is removed, its outputs never over an input, a FIFO or a device, a
/// write error that stops the backend, answers that never end bounded, bad numbers and
/// addresses refused with one line. `IAPSIM_SERVE_TEST_SECONDS` shortens the wall-clock
/// bounds (docs/serve.md, "Limits") so that each case takes seconds.
@Suite(.serialized) struct HostileServeTests {
    static let file = "Tests/Fixtures/serve/blind-purchase.yaml"
    static let recording = "Tests/Fixtures/serve/refbackend-two-files.jsonl"
    static let config = "tools/refbackend/serve.yaml"
    static let files = ["scenarios/serve/purchase-credited.yaml", "scenarios/serve/refund-clawed-back.yaml"]
    static let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// `--spawn`'s command for the hostile backend in `mode`, with `extra` variables.
    static func backend(_ mode: String, _ extra: String = "") -> String {
        "MODE=\(mode) \(extra) python3 \(CLI.root.path)/Tests/Fixtures/serve/hostile_round3.py"
    }

    /// `iapsim ARGUMENTS` with `environment` added; its result and how long it took.
    static func run(_ environment: [String], _ arguments: [String]) throws -> (CLI.Result, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try CLI.run(
            environment + [CLI.binary.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
        return (result, clock.now - start)
    }

    static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    /// Waits up to `seconds` for `path` to exist.
    static func wait(for path: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: path) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func theSpawnsKeysAreInAFreshPrivateFolderRemovedAtExit() throws {
        let tmp = try HostileInputTests.scratch("keys-tmp")
        let seen = try HostileInputTests.scratch("keys-seen") + "/seen"
        defer {
            for d in [tmp, (seen as NSString).deletingLastPathComponent] {
                try? FileManager.default.removeItem(atPath: d)
            }
        }
        let (result, _) = try Self.run(
            ["TMPDIR=\(tmp)"], ["serve", "--spawn", Self.backend("keys", "KEYS_SEEN=\(seen)"), Self.file])
        #expect(result.status == 0 || result.status == 1, "\(result.stdout)\(result.stderr)")
        let words = try String(contentsOfFile: seen, encoding: .utf8).split(separator: " ").map(String.init)
        #expect(words.count == 6, "\(words)")
        #expect(words[0].hasPrefix(tmp + "/iapsim-serve-") && !words[0].hasSuffix("-\(words.last ?? "")"))
        #expect(words[1] == "0o700", "the folder is the owner's alone")
        #expect(Array(words[2...4]) == ["0o600", "0o600", "0o600"], "each key file is the owner's alone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "the folder is removed")
    }

    @Test(.enabled(if: python, "python3 is not installed"), arguments: [SIGTERM, SIGINT])
    func aSignalRemovesTheKeysAndStopsTheBackend(_ signal: Int32) throws {
        let tmp = try HostileInputTests.scratch("sig-tmp-\(signal)")
        let seen = try HostileInputTests.scratch("sig-seen-\(signal)") + "/seen"
        defer {
            for d in [tmp, (seen as NSString).deletingLastPathComponent] {
                try? FileManager.default.removeItem(atPath: d)
            }
        }
        let process = Process()
        process.executableURL = CLI.binary
        process.currentDirectoryURL = CLI.root
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
        // Real time: the file's minute of virtual time takes a minute, and the signal comes first.
        process.arguments = [
            "serve", "--time", "real", "--spawn", Self.backend("keys", "KEYS_SEEN=\(seen)"), Self.file,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(Self.wait(for: seen))
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        let words = try String(contentsOfFile: seen, encoding: .utf8).split(separator: " ")
        let pid = try #require(Int32(words.last ?? ""))
        let deadline = Date().addingTimeInterval(5)
        while Self.isRunning(pid) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!Self.isRunning(pid), "the backend is stopped")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "the keys are removed")
    }

    @Test func outputsNeverGoOverAnInputAFIFOOrADeviceNorOverEachOther() throws {
        let dir = try HostileInputTests.scratch("serve-outputs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scenario = dir + "/s.yaml", config = dir + "/serve.yaml", fifo = dir + "/fifo"
        try FileManager.default.copyItem(atPath: CLI.root.path + "/" + Self.file, toPath: scenario)
        try HostileInputTests.write("report: {path: /apple/report}\n", config)
        #expect(mkfifo(fifo, 0o600) == 0)
        let before = try String(contentsOfFile: scenario, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--port-file", config], "Error: --port-file \(config): the same file as the input \(config)"),
            (["--log", scenario], "Error: --log \(scenario): the same file as the input \(scenario)"),
            (["--record", fifo], "Error: --record \(fifo): it is a FIFO (named pipe); give a regular file"),
            (["--log", "/dev/null"], "Error: --log /dev/null: it is a device; give a regular file"),
            (["--log", dir + "/x", "--record", dir + "/./x"], "Error: --record \(dir)/./x: the same file as --log"),
            (["--port-file", dir + "/new/p.json"], "Error: --port-file \(dir)/new/p.json: cannot write in"),
        ]
        for (flags, message) in cases {
            let result = try CLI.run(
                ["serve", "--backend", "http://127.0.0.1:9", "--config", config] + flags + [scenario])
            #expect(result.status == 2, "\(flags): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(flags): nothing runs")
            #expect(result.stderr.hasPrefix(message), "\(flags): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(flags): one line")
        }
        #expect(try String(contentsOfFile: scenario, encoding: .utf8) == before)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "report: {path: /apple/report}\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is left as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["fifo", "s.yaml", "serve.yaml"])
        // A FIFO as serve.yaml is refused at once, not read for ever.
        let (fromFIFO, took) = try Self.run(
            [], ["serve", "--backend", "http://127.0.0.1:9", "--config", fifo, scenario])
        #expect(fromFIFO.status == 2)
        #expect(fromFIFO.stderr.contains("it is a FIFO"), "\(fromFIFO.stderr)")
        #expect(took < .seconds(10))
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func aWriteErrorAfterSpawnIsOneLineAndStopsTheBackend() throws {
        let dir = try HostileInputTests.scratch("serve-full")
        let tmp = try HostileInputTests.scratch("serve-full-tmp")
        let seen = try HostileInputTests.scratch("serve-full-seen") + "/seen"
        defer {
            for d in [dir, tmp, (seen as NSString).deletingLastPathComponent] {
                try? FileManager.default.removeItem(atPath: d)
            }
        }
        // A file size limit makes the record's write fail (EFBIG) once the verdict is in.
        let result = try HostileInputTests.run(
            ["serve", "--spawn", Self.backend("keys", "KEYS_SEEN=\(seen)"), "--record", dir + "/r.jsonl", Self.file],
            stdout: ">/dev/null", limits: "export TMPDIR=\(tmp); ulimit -f 1; trap '' XFSZ;")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(dir)/r.jsonl: cannot write: File too large"), "\(result.stderr)")
        let pid = try #require(
            Int32(try String(contentsOfFile: seen, encoding: .utf8).split(separator: " ").last ?? ""))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!Self.isRunning(pid), "the backend is stopped")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "no staged file is left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "the keys are removed")
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func answersThatNeverEndAreBoundedByTheirTimeouts() throws {
        let (health, healthTook) = try Self.run(
            ["IAPSIM_SERVE_TEST_SECONDS=2"], ["serve", "--spawn", Self.backend("trickle-healthz"), Self.file])
        #expect(health.status == 3, "\(health.stderr)")
        #expect(health.stderr.contains("/healthz did not answer 2xx within 2 s"), "\(health.stderr)")
        #expect(healthTook < .seconds(20))
        let (trickle, took) = try Self.run(
            ["IAPSIM_SERVE_TEST_SECONDS=1"], ["serve", "--spawn", Self.backend("trickle"), Self.file])
        #expect(trickle.status == 1, "\(trickle.stdout)\(trickle.stderr)")
        #expect(trickle.lines.dropLast().last == "0 passed, 1 failed, 0 invalid", "\(trickle.stdout)")
        #expect(took < .seconds(60))
    }

    @Test func anAddressThatCannotBeListenedOnIsExitThreeAtOnce() throws {
        // TEST-NET-3: no machine's own address.
        let (foreign, took) = try Self.run(
            [],
            ["serve", "--replay", Self.recording, "--config", Self.config, "--api-listen", "203.0.113.7:0"]
                + Self.files)
        #expect(foreign.status == 3, "\(foreign.stderr)")
        #expect(foreign.stderr.hasPrefix("Error: the App Store Server API could not listen on 203.0.113.7:0"))
        #expect(took < .seconds(15))
    }

    @Test(.enabled(if: python, "python3 is not installed"), arguments: ["ledger-huge", "ledger-1e300"])
    func extremeLedgerNumbersAreNamedNotTrapped(_ mode: String) throws {
        let (result, _) = try Self.run(
            [], ["serve", "--spawn", Self.backend(mode), "--ledger", "/ledger", Self.file])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("is not a whole number within ±1000000000000"), "\(result.stderr)")
        #expect(result.stderr.contains(mode == "ledger-huge" ? "-9223372036854775808" : "e+300"), "\(result.stderr)")
    }

    @Test func badNumbersAndAddressesAreRefusedWithOneLine() throws {
        let dir = try HostileInputTests.scratch("serve-numbers")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try HostileInputTests.write("ticks: [{path: /t, every: 99999999999999999d}]\n", dir + "/huge.yaml")
        try HostileInputTests.write("ticks: [{path: /t, every: 1ms}]\n", dir + "/fine.yaml")
        try HostileInputTests.write("{\"iapsim-serve-record\":1,\"block\":-1}\n", dir + "/r.jsonl")
        let backend = ["--backend", "http://127.0.0.1:9"]
        let cases: [([String], String)] = [
            (["--backend", "http://127.0.0.1:99999", Self.file], "the port from 1 to 65535, got port 99999"),
            (backend + ["--config", dir + "/huge.yaml", Self.file], "huge.yaml:1:27: a tick's 'every' must be"),
            (backend + ["--config", dir + "/fine.yaml", Self.file], "a duration from 1s to 400d"),
            (backend + ["--explore", "--runs", "18446744073709551615"], "--runs must be"),
            (backend + ["--explore", "--skip", "18446744073709551615"], "--skip must be"),
            (["--replay", dir + "/r.jsonl", Self.file], "r.jsonl:1: the header's \"block\" must be a whole number"),
        ]
        for (flags, message) in cases {
            let result = try CLI.run(["serve"] + flags)
            #expect(result.status == 2, "\(flags): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(flags)")
            #expect(result.stderr.contains(message), "\(flags): \(result.stderr)")
        }
    }

    /// A held API with 2,000 idle connections (idle timeout 2 s here, 30 s by default;
    /// at most 512 at once) uses little CPU, still answers, and answers a 2 MB body 413 with
    /// a JSON body; SIGTERM then ends it at once (a graceful stop, no trap).
    @Test(.enabled(if: python, "python3 is not installed"))
    func idleConnectionsAndLargeBodiesNeitherSpinNorCrashTheAPI() throws {
        let portFile = CLI.temporaryFile("idle-ports.json")
        defer { try? FileManager.default.removeItem(atPath: portFile) }
        let process = Process()
        process.executableURL = CLI.binary
        process.currentDirectoryURL = CLI.root
        process.environment = ProcessInfo.processInfo.environment.merging(["IAPSIM_SERVE_TEST_SECONDS": "2"]) { $1 }
        process.arguments =
            ["serve", "--replay", Self.recording, "--config", Self.config, "--port-file", portFile, "--hold"]
            + Self.files
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(Self.wait(for: portFile))
        Thread.sleep(forTimeInterval: 0.5)
        let script = """
            import json, os, socket, sys, time, urllib.request
            api = json.load(open(sys.argv[1]))["api"]; pid = int(sys.argv[2])
            host, port = api.split("//")[1].split(":")
            def cpu():
                f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
            held = []
            for _ in range(2000):
                s = socket.socket(); s.setblocking(False)
                try: s.connect((host, int(port)))
                except BlockingIOError: pass
                held.append(s)
            time.sleep(0.5); before = cpu(); time.sleep(3); print("cpu", cpu() - before)
            try:
                urllib.request.urlopen(urllib.request.Request(
                    api + "/inApps/v1/notifications/history", data=b"x" * (2 << 20), method="POST"), timeout=30)
            except urllib.error.HTTPError as e:
                print("status", e.code, e.read().decode())
            """
        let result = try CLI.run(
            ["python3", "-c", script, portFile, String(process.processIdentifier)],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let cpu = result.lines.first { $0.hasPrefix("cpu ") }.flatMap { Double($0.dropFirst(4)) }
        #expect(cpu.map { $0 < 1.0 } == true, "CPU seconds in 3 s: \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("status 413 {\"errorCode\":4130000,"), "\(result.stdout)\(result.stderr)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "SIGTERM ends --hold with the verdict's status, no trap")
    }
}
