import Foundation
import Testing

/// `iapsim serve` as a merge gate (docs/serve.md, "CI"; the rules of SERVE-CI): ids unique
/// across worlds and invocations, a verdict for a backend that drops connections, a refused
/// genuine report caught, JUnit XML, `--version`, `--race`. The backend is
/// Tests/Fixtures/serve/other_backend.py (Python's standard library only) with its switches;
/// the race test uses the reference backend with Apple's library when the venv is there.
@Suite(.serialized) struct ServeCITests {
    static let server = CLI.root.appendingPathComponent("Tests/Fixtures/serve/other_backend.py").path
    static let config = "Tests/Fixtures/serve/other_backend.yaml"
    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    static func serve(_ bugs: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["serve", "--config", config, "--spawn", "BUGS=\(bugs) python3 \(server)"] + arguments)
    }

    /// Every `notificationUUID` in a recording (decoded from each notification's JWS), and every
    /// user name the bodies carry.
    static func recorded(_ path: String) throws -> (uuids: [String], logins: Set<String>) {
        var uuids: [String] = []
        var logins: Set<String> = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
            let exchange = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            let body = exchange["body"] as? String ?? ""
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                continue
            }
            if let login = object["login"] as? String { logins.insert(login) }
            guard let jws = object["signedPayload"] as? String else { continue }
            var part = String(jws.split(separator: ".")[1]).replacing("-", with: "+").replacing("_", with: "/")
            while part.count % 4 != 0 { part += "=" }
            let payload = try JSONSerialization.jsonObject(with: Data(base64Encoded: part)!) as? [String: Any]
            uuids.append(payload?["notificationUUID"] as? String ?? "")
        }
        return (uuids, logins)
    }

    /// SERVE-CI rule 1: a backend that deduplicates on notificationUUID, as Apple advises, passes
    /// a file that needs the notification in every world and in a second invocation; no UUID
    /// and no user name repeats across worlds or invocations.
    @Test(.enabled(if: hasPython, "python3 is not installed"))
    func notificationUUIDsAndNamesNeverRepeatAcrossWorldsOrInvocations() throws {
        let file = "scenarios/serve/report-lost-notification-credits.yaml"
        var uuids: [String] = []
        var logins: [Set<String>] = []
        for n in 1...2 {
            let record = CLI.temporaryFile("uuid-\(n).jsonl")
            defer { try? FileManager.default.removeItem(atPath: record) }
            let result = try Self.serve("uuid-dedup", ["--record", record, file, file])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.lines.dropLast().last == "2 passed, 0 failed, 0 invalid", "\(result.stdout)")
            let seen = try Self.recorded(record)
            uuids += seen.uuids
            logins.append(seen.logins)
        }
        #expect(uuids.count >= 4)
        #expect(Set(uuids).count == uuids.count, "\(uuids)")
        #expect(logins[0].isDisjoint(with: logins[1]), "\(logins)")
        #expect(logins[0].allSatisfy { $0.hasSuffix("-f1-alice") || $0.hasSuffix("-f2-alice") }, "\(logins)")
    }

    /// SERVE-CI rule 3: a tick that answers 500 and closes the connection unannounced is an
    /// exchange of the run, not "no verdict": the ledger is read again on a new connection.
    @Test(.enabled(if: hasPython, "python3 is not installed"))
    func aTickThat500sAndClosesTheConnectionStillGivesAVerdict() throws {
        let result = try Self.serve(
            "tick-500-close",
            ["--ticks", "[{path: /jobs/tick, every: 10s}]", "--verbose", "scenarios/serve/purchase-credited.yaml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("backend: POST /jobs/tick -> 500 \"{\\\"error\\\""), "\(result.stdout)")
        #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
    }

    /// SERVE-CI rule 4: a report path that refuses genuine transactions (422: a framework's
    /// validation error for a misnamed field) fails every file that reports, with the line
    /// `report refused: TXN (STATUS, BODY)`, although the notification credited; a file that
    /// expects it (`reports-refused: N`) passes.
    @Test(.enabled(if: hasPython, "python3 is not installed"))
    func aReportPathThatRefusesGenuineTransactionsFailsTheFile() throws {
        let result = try Self.serve("report-422", ["scenarios/serve/purchase-credited.yaml"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        // Both of the file's purchases were reported, and both refused.
        #expect(result.stdout.contains("reports-refused: expected 0, actual 2"), "\(result.stdout)")
        #expect(result.stdout.contains("report refused: "), "\(result.stdout)")
        #expect(result.stdout.contains("(422, \"{\\\"detail\\\": [{\\\"loc\\\""), "\(result.stdout)")
        let dir = CLI.temporaryFile("refused")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expecting = dir + "/expects.yaml"
        let text = try String(
            contentsOfFile: "\(CLI.root.path)/scenarios/serve/purchase-credited.yaml", encoding: .utf8)
        try text.replacing("expect:\n", with: "expect:\n  reports-refused: 2\n").write(
            toFile: expecting, atomically: true, encoding: .utf8)
        let expected = try Self.serve("report-422", [expecting])
        #expect(expected.status == 0, "\(expected.stdout)\(expected.stderr)")
    }

    /// A misnamed field of the order answer is named where it happens.
    @Test(.enabled(if: hasPython, "python3 is not installed"))
    func aMisnamedOrderFieldIsNamed() throws {
        let result = try CLI.run([
            "serve", "--config", Self.config, "--spawn", "python3 \(Self.server)", "--order",
            "{path: /api/v2/checkout, fields: {user: login, productId: sku, orderId: ref, appAccountToken: account_token}}",
            "--verbose", "scenarios/serve/purchase-credited.yaml",
        ])
        #expect(
            result.stdout.contains("the order answer has no `account_token`: iapsim made the token"), "\(result.stdout)"
        )
        #expect(result.stdout.contains("Your backend's ids:"), "\(result.stdout)")
    }

    /// SERVE-CI rule 6: `--junit` writes one testcase per file, the failing one with its
    /// verdict, the invalid one as an error; the XML parses.
    @Test(.enabled(if: hasPython, "python3 is not installed"))
    func junitHasOneTestcasePerFileWithTheVerdict() throws {
        let junit = CLI.temporaryFile("serve-junit.xml")
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let result = try Self.serve(
            "report-422",
            [
                "--junit", junit, "scenarios/serve/purchase-credited.yaml", "scenarios/serve/forged-refused.yaml",
                "README.md",
            ])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"iapsim serve --seed 1\" timestamp=\""), "\(xml)")
        #expect(xml.contains("tests=\"3\" failures=\"1\" errors=\"1\""), "\(xml)")
        // The id block serve's ids come from, beside the seed: what reproduces the run.
        #expect(xml.contains("<property name=\"seed\" value=\"1\"/>"), "\(xml)")
        #expect(!xml.contains("<property name=\"id-block\" value=\"not started\"/>"), "\(xml)")
        #expect(xml.contains("<property name=\"id-block\" value=\""), "\(xml)")
        #expect(xml.contains("<testcase name=\"scenarios/serve/purchase-credited.yaml\""))
        #expect(xml.contains("<failure message=\"reports-refused: expected 0, actual 2\""), "\(xml)")
        #expect(xml.contains("<error message="))
        let parsed = try CLI.run(
            ["-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", junit],
            executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(parsed.status == 0, "\(parsed.stderr)")
    }

    /// `check --junit` and `explore --junit`: a testcase per file and per run; the file is
    /// refused before anything runs when it is a FIFO.
    @Test func checkAndExploreWriteJUnit() throws {
        let junit = CLI.temporaryFile("check-junit.xml")
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let check = try CLI.run(["check", "--junit", junit, CLI.fixture("pass.yaml"), CLI.fixture("fail.yaml")])
        #expect(check.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "\(xml)")
        #expect(xml.contains("<failure message=\"credited alice: expected 999, actual 100\""), "\(xml)")
        #expect(xml.contains("<testsuite name=\"iapsim check\" timestamp=\"20"), "\(xml)")
        #expect(xml.contains("<property name=\"id-block\" value=\"core\"/>"), "\(xml)")
        #expect(xml.contains("<property name=\"catalog\" value=\"built-in\"/>"), "\(xml)")
        // A failing file with an unresolved anomaly: the message is the anomaly's line, type first.
        let strict = CLI.temporaryFile("strict.yaml")
        defer { try? FileManager.default.removeItem(atPath: strict) }
        let naive = try String(
            contentsOf: CLI.root.appendingPathComponent("scenarios/double-credit-crash-before-finish-naive.yaml"),
            encoding: .utf8)
        try naive.replacingOccurrences(of: "unresolved: 1", with: "unresolved: 0").write(
            toFile: strict, atomically: true, encoding: .utf8)
        _ = try CLI.run(["check", "--junit", junit, strict])
        let typed = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(typed.contains("<failure message=\"double-credit (permanent): "), "\(typed)")
        let out = CLI.temporaryFile("explore-junit")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let explore = try CLI.run([
            "explore", "--policy", "naive", "--runs", "20", "--seed", "1", "--out", out, "--junit", junit,
        ])
        #expect(explore.status == 1)
        let runs = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(runs.contains("tests=\"20\""), "\(runs)")
        #expect(runs.contains("<testcase name=\"run 0, seed 1\""))
        #expect(runs.contains("<testsuite name=\"iapsim explore --policy naive --seed 1\" timestamp=\""), "\(runs)")
        #expect(runs.contains("<property name=\"policy\" value=\"naive\"/>"), "\(runs)")
        #expect(runs.contains("iapsim explore --policy naive --runs 1 --seed 1"))
        let fifo = CLI.temporaryFile("junit.fifo")
        mkfifo(fifo, 0o600)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let refused = try CLI.run(["check", "--junit", fifo, CLI.fixture("pass.yaml")])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--junit \(fifo)"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("PASS"))
    }

    @Test func versionPrintsTheNumberAndExitsZero() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("iapsim 0."), "\(result.stdout)")
    }

    /// SERVE-CI rule 5: the reference backend's `racy-dedup` (check, then insert in a later
    /// transaction) passes one delivery at a time and credits twice under `--race`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] != nil, "no Apple venv"))
    func racyDedupPassesAloneAndFailsUnderRace() throws {
        let python = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"]!
        let spawn = "BUGS=racy-dedup \(python) tools/refbackend/refbackend.py"
        let file = "scenarios/serve/purchase-credited.yaml"
        let calm = try CLI.run(["serve", "--config", "tools/refbackend/serve.yaml", "--spawn", spawn, file])
        #expect(calm.status == 0, "\(calm.stdout)\(calm.stderr)")
        let record = CLI.temporaryFile("race.jsonl")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let raced = try CLI.run([
            "serve", "--race", "--record", record, "--config", "tools/refbackend/serve.yaml", "--spawn", spawn, file,
        ])
        #expect(raced.status == 1, "\(raced.stdout)\(raced.stderr)")
        #expect(raced.stdout.contains("double-credit (permanent)"), "\(raced.stdout)")
        #expect(try String(contentsOfFile: record, encoding: .utf8).contains("\"race\":true"))
        // A raced recording replays to the same verdict with no backend.
        let replay = try CLI.run([
            "serve", "--race", "--replay", record, "--config", "tools/refbackend/serve.yaml", file,
        ])
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("double-credit (permanent)"), "\(replay.stdout)")
    }
}

extension ServeCITests {
    /// The walkthrough's `order -`: a credit the backend's ledger shows names the backend's own
    /// order (the one its token names), in Events and the log, and that order is credited.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] != nil, "no Apple venv"))
    func aLedgerCreditNamesTheBackendsOrder() throws {
        let python = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"]!
        let log = CLI.temporaryFile("order-named.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try CLI.run([
            "serve", "--config", "tools/refbackend/serve.yaml", "--spawn", "\(python) tools/refbackend/refbackend.py",
            "--log", log, "scenarios/serve/purchase-credited.yaml",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let credits = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"kind\":\"coinsCredited\"") }
        #expect(!credits.isEmpty)
        for line in credits {
            #expect(line.contains("\"order\":\"ord-") && !line.contains("(order -)"), "\(line)")
        }
    }
}
