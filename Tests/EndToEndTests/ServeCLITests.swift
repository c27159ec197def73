import Foundation
import Testing

/// `iapsim serve` as a user runs it (docs/serve.md). A recorded session against the reference
/// backend is replayed with no backend and no Python; bad input, a backend that is down, one
/// that dies at start and one that answers badly each get one clear message and the exit
/// status the page gives.
@Suite(.serialized) struct ServeCLITests {
    static let config = "tools/refbackend/serve.yaml"
    static let recording = "Tests/Fixtures/serve/refbackend-two-files.jsonl"
    static let files = ["scenarios/serve/purchase-credited.yaml", "scenarios/serve/refund-clawed-back.yaml"]

    @Test func aRecordedSessionReplaysToTheSameVerdictWithNoBackend() throws {
        let result = try CLI.run(["serve", "--replay", Self.recording, "--config", Self.config] + Self.files)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.contains { $0.hasPrefix("PASS     scenarios/serve/purchase-credited.yaml") })
        #expect(result.lines.contains { $0.hasPrefix("PASS     scenarios/serve/refund-clawed-back.yaml") })
        #expect(result.lines.dropLast().last == "2 passed, 0 failed, 0 invalid")
    }

    @Test func aReplayThatDivergesNamesTheFirstDifferenceAndExitsTwo() throws {
        // The files in the other order: the first request differs from the recording's.
        let result = try CLI.run(
            ["serve", "--replay", Self.recording, "--config", Self.config] + Self.files.reversed())
        #expect(result.status == 2)
        #expect(result.stderr.contains("replay diverged at exchange"), "\(result.stderr)")
    }

    @Test func aReplayWithExchangesLeftOverIsNoSameRun() throws {
        let result = try CLI.run(["serve", "--replay", Self.recording, "--config", Self.config, Self.files[0]])
        #expect(result.status == 2)
        #expect(result.stderr.contains("holds more"), "\(result.stderr)")
    }

    @Test func theBackendIsRequiredAndOnlyOnce() throws {
        let none = try CLI.run(["serve", Self.files[0]])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--backend URL") && none.stderr.contains("--spawn"))
        let both = try CLI.run(["serve", "--backend", "http://127.0.0.1:9", "--spawn", "true", Self.files[0]])
        #expect(both.status == 2)
        #expect((both.stdout + both.stderr).contains("--backend and --spawn"), "\(both.stdout)\(both.stderr)")
    }

    @Test func aBackendThatIsDownIsExitThreeNotAVerdict() throws {
        let result = try CLI.run(["serve", "--backend", "http://127.0.0.1:9", "--config", Self.config, Self.files[0]])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
        #expect(!result.stdout.contains("passed"))
    }

    @Test func aSpawnedBackendThatExitsAtStartIsExitThree() throws {
        let result = try CLI.run(["serve", "--spawn", "echo starting; exit 7", "--config", Self.config, Self.files[0]])
        #expect(result.status == 3)
        #expect(result.stderr.contains("starting"), "the backend's output goes to stderr")
        #expect(result.stderr.contains("exited (status 7)"), "\(result.stderr)")
    }

    /// SERVE-CI rule 8: an invalid file is listed, the valid ones still run (here from the
    /// recording, no backend), the summary counts all three and the exit status is the worst.
    @Test func anInvalidFileIsListedAndTheValidOnesStillRun() throws {
        let dir = CLI.temporaryFile("serve-invalid")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sk1 = dir + "/sk1.yaml"
        try "format: 1\ntitle: t\nmerchant: external\npolicy: hardened\nsteps:\n  - do: buy coins_100\n"
            .write(toFile: sk1, atomically: true, encoding: .utf8)
        let simulated = dir + "/simulated.yaml"
        try
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n  - do: buy coins_100\nexpect: {credited: {alice: 100}}\n"
            .write(toFile: simulated, atomically: true, encoding: .utf8)
        let result = try CLI.run(
            ["serve", "--replay", Self.recording, "--config", Self.config, sk1, simulated] + Self.files)
        #expect(result.status == 2)
        #expect(result.stdout.contains("INVALID  \(sk1): serve is the StoreKit 2 world only"), "\(result.stdout)")
        #expect(
            result.stdout.contains("INVALID  \(simulated): not written for serve (no merchant: external)"),
            "\(result.stdout)")
        #expect(result.lines.contains { $0.hasPrefix("PASS     scenarios/serve/purchase-credited.yaml") })
        #expect(result.lines.contains { $0.hasPrefix("PASS     scenarios/serve/refund-clawed-back.yaml") })
        #expect(result.lines.dropLast().last == "2 passed, 0 failed, 2 invalid")
    }

    @Test func aBlindServeRefusesExpectationsThatNeedTheLedger() throws {
        // No ledger key: `credited` and `entitlements` cannot be judged.
        let result = try CLI.run(["serve", "--backend", "http://127.0.0.1:9", Self.files[0]])
        #expect(result.status == 2)
        #expect(result.stdout.contains("blind serve (no ledger in serve.yaml)"), "\(result.stdout)")
        #expect(result.stdout.contains("credited; entitlements"))
    }

    @Test func aMistakeInServeYamlNamesItsLineAndColumn() throws {
        let path = CLI.temporaryFile("serve-bad.yaml")
        try "backend: http://127.0.0.1:9\nreport: {path: apple}\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["serve", "--config", path, Self.files[0]])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path):2:"), "\(result.stderr)")
        #expect(result.stderr.contains("must start with /"))
    }

    @Test func runAndCheckRefuseAnExternalFile() throws {
        for command in ["run", "check"] {
            let result = try CLI.run([command, Self.files[0]])
            #expect(result.status == 2)
            #expect((result.stdout + result.stderr).contains("run it with iapsim serve"))
        }
    }

    /// A backend that answers badly: orders redirect, reports close the connection, the
    /// ledger answers an HTML page. Each is classified and bounded; the ledger's is exit 3.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func aHostileBackendIsClassifiedAndNeverHangs() throws {
        let record = CLI.temporaryFile("serve-hostile.jsonl")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let server = CLI.root.appendingPathComponent("Tests/Fixtures/serve/hostile_backend.py").path
        let started = Date()
        let result = try CLI.run([
            "serve", "--spawn", "python3 \(server)", "--order", "/orders", "--ledger", "/ledger", "--record", record,
            Self.files[0],
        ])
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("the ledger"), "\(result.stderr)")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.contains("\"path\":\"/orders\""))
        #expect(text.contains("an HTML page, not JSON"), "\(text)")
    }

    /// Blind (no ledger) and no order key: the report's closed connection and the
    /// notification's 3 MB answer are classified (retried, not delivered); the purchase stays
    /// uncredited, a verdict (exit 1), well within the bounds.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func closedConnectionsAndHugeAnswersAreRetriesNotCrashes() throws {
        let record = CLI.temporaryFile("serve-hostile-blind.jsonl")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let server = CLI.root.appendingPathComponent("Tests/Fixtures/serve/hostile_backend.py").path
        let result = try CLI.run([
            "serve", "--spawn", "python3 \(server)", "--record", record,
            CLI.root.appendingPathComponent("Tests/Fixtures/serve/blind-purchase.yaml").path,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.contains { $0.hasPrefix("FAIL ") })
        #expect(result.stdout.contains("blind: no ledger"))
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.contains("the backend closed the connection"), "\(text.prefix(2000))")
        #expect(text.contains("an answer larger than 1 MB"))
    }

    /// A backend nobody here wrote (other words for every path, header, field and ledger id),
    /// given only its serve.yaml: the shipped files pass against it, and its double credit
    /// (BUGS=no-dedup) is found through those words (docs/serve.md: "A second backend").
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func aBackendWithOtherWordsNeedsOnlyItsServeYAML() throws {
        let server = CLI.root.appendingPathComponent("Tests/Fixtures/serve/other_backend.py").path
        let files = [
            "purchase-credited", "response-lost-resent", "report-lost-notification-credits", "refund-clawed-back",
            "account-switch-credits-token-owner",
        ].map { "scenarios/serve/\($0).yaml" }
        let record = CLI.temporaryFile("serve-other.jsonl")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let good = try CLI.run(
            ["serve", "--config", "Tests/Fixtures/serve/other_backend.yaml", "--spawn", "python3 \(server)"]
                + ["--record", record] + files)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.lines.dropLast().last == "5 passed, 0 failed, 0 invalid", "\(good.stdout)")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        // Its words on the wire: the header, the renamed fields, the query string sent as is,
        // and the order's number kept as a string.
        for word in [
            "\"path\":\"/api/v2/checkout\"", "[\"X-Session\",\"s-", "-f1-alice\"]",
            "{\\\"login\\\":\\\"", "-f1-alice\\\",\\\"sku\\\"",
            "\"path\":\"/hooks/apple?src=iapsim\"", "\\\"ref\\\":\\\"101\\\"", "/qa/ledger?accounts=acct-",
        ] {
            #expect(text.contains(word), "\(word)")
        }
        let buggy = try CLI.run(
            [
                "serve", "--config", "Tests/Fixtures/serve/other_backend.yaml", "--spawn",
                "BUGS=no-dedup python3 \(server)",
            ]
                + files)
        #expect(buggy.status == 1, "\(buggy.stdout)\(buggy.stderr)")
        #expect(buggy.stdout.contains("double-credit (permanent): coins_100 paid by alice"), "\(buggy.stdout)")
    }

    /// `--hold` (docs/serve.md, rule 6): after the last file the verdict is printed, the port
    /// file names the API, stderr says it holds, and the API still answers (401 without a
    /// token) until SIGTERM, which ends it with the verdict's exit status.
    @Test func holdKeepsTheAPIUpUntilSIGTERMAndExitsWithTheVerdict() throws {
        let portFile = CLI.temporaryFile("hold-ports.json")
        let out = CLI.temporaryFile("hold.out"), err = CLI.temporaryFile("hold.err")
        defer { for f in [portFile, out, err] { try? FileManager.default.removeItem(atPath: f) } }
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = CLI.binary
        process.currentDirectoryURL = CLI.root
        process.arguments =
            ["serve", "--replay", Self.recording, "--config", Self.config, "--port-file", portFile, "--hold"]
            + Self.files
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var said = ""
        while Date() < deadline {
            said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            if said.contains("holding:") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(said.contains("holding: the App Store Server API at http://127.0.0.1:"), "\(said)")
        #expect(process.isRunning)
        let ports = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: portFile)))
        let api = try #require((ports as? [String: Any])?["api"] as? String)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
            let curl = try CLI.run(
                ["-s", "-o", "/dev/null", "-w", "%{http_code}", api + "/inApps/v1/transactions/1000000000001"],
                executable: URL(fileURLWithPath: "/usr/bin/curl"))
            #expect(curl.stdout == "401", "\(curl.stdout)\(curl.stderr)")
        }
        process.terminate()
        let stop = Date().addingTimeInterval(20)
        while process.isRunning && Date() < stop { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!process.isRunning, "SIGTERM did not end --hold")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let stdout = try String(contentsOfFile: out, encoding: .utf8)
        #expect(stdout.hasSuffix("2 passed, 0 failed, 0 invalid\n"), "\(stdout)")
    }
}
