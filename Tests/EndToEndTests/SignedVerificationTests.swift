import Foundation
import Testing

/// Every shipped StoreKit 2 scenario, run with `--signed` and `--log`, judged by Apple's own
/// app-store-server-library: each signed transaction and notification V2 verifies against
/// `root.cer` and decodes to the fields the run's log holds; each forged one is refused.
@Suite(.serialized) struct SignedVerificationTests {
    /// The python of the venv holding Apple's library: IAPSIM_APPLE_PYTHON, else .venv-apple.
    static let applePython: String? = {
        if let path = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] { return path }
        let local = CLI.root.appendingPathComponent(".venv-apple/bin/python").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }()

    static let skipReason: Comment = """
        Apple's app-store-server-library is not installed: set IAPSIM_APPLE_PYTHON or run         tools/apple-venv.sh (which makes .venv-apple)
        """

    static var scenarios: [String] {
        let dir = CLI.root.appendingPathComponent("scenarios").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { ($0.hasPrefix("sk2-") || $0.hasPrefix("server-")) && $0.hasSuffix(".yaml") }.sorted()
    }

    /// Virtual time 0 in Unix milliseconds (2026-01-01T00:00:00Z).
    static let epochMs = 1_767_225_600_000

    /// What Apple's decoded payload of each signed line must hold, from the run's log alone:
    /// one object per `transactionSigned`, `notificationSent` or `forgeryPrepared` fact, in log
    /// order (a forged line expects nothing: it must be refused).
    static func expectations(fromLog log: String, store: [String: Any] = [:]) throws -> (
        lines: [String], forged: Int, notifications: Int
    ) {
        var lines: [String] = [], forged = 0, notifications = 0
        for line in log.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            switch object["kind"] as? String {
            case "transactionSigned":
                let t = try #require(object["transaction"] as? [String: Any])
                lines.append(try json(decodedFields(t, store: store)))
            case "notificationSent":
                notifications += 1
                let n = try #require(object["notification"] as? [String: Any])
                let t = try #require(n["signedTransactionInfo"] as? [String: Any])
                // A subscription's renewal info is signed on a line of its own, before its notification.
                if n["signedRenewalInfo"] != nil { lines.append("{}") }
                lines.append(
                    try json([
                        "notificationType": try #require(n["notificationType"] as? String),
                        "notificationUUID": try #require(n["notificationUUID"] as? String),
                        "signedDate": try #require(n["signedDate"] as? Int) + epochMs,
                        "version": "2.0",
                        "data": [
                            "bundleId": "com.example.iapsim", "environment": try #require(t["environment"] as? String),
                            "bundleVersion": "1.0", "appAppleId": 6_450_000_001,
                        ],
                        "transaction": try decodedFields(t, store: store),
                    ]))
            case "forgeryPrepared":
                forged += 1
                lines.append("{}")
            default:
                continue
            }
        }
        return (lines, forged, notifications)
    }

    /// `store`: the storefront's fields a run of a StoreKit file expects (`currency`,
    /// `storefront`, `storefrontId`); none: the built-in catalog's US storefront.
    static func decodedFields(_ t: [String: Any], store: [String: Any] = [:]) throws -> [String: Any] {
        func date(_ key: String) throws -> Int { try #require(t[key] as? Int) + epochMs }
        var refund: [String: Any] = [:]
        if t["revocationDate"] != nil {
            refund = [
                "revocationDate": try date("revocationDate"),
                "revocationReason": try #require(t["revocationReason"] as? Int),
                "revocationType": try #require(t["revocationType"] as? String),
                // None for a family member's revoked transaction (FAMILY_REVOKE).
                "revocationPercentage": t["revocationPercentage"] ?? NSNull(),
            ]
        }
        let type: String = typeNames[t["type"] as? String ?? ""] ?? "Non-Consumable"
        let reason: String = t["transactionReason"] as? String ?? "PURCHASE"
        var fields: [String: Any] = [
            "transactionId": try #require(t["transactionId"] as? String),
            "originalTransactionId": try #require(t["originalTransactionId"] as? String),
            "productId": try #require(t["productId"] as? String),
            "type": type,
            "purchaseDate": try date("purchaseDate"),
            "originalPurchaseDate": try date("originalPurchaseDate"),
            "signedDate": try date("signedDate"),
            "price": try #require(t["price"] as? Int),
            "appAccountToken": t["appAccountToken"] ?? NSNull(),
            "bundleId": "com.example.iapsim", "environment": try #require(t["environment"] as? String),
            "appTransactionId": try #require(t["appTransactionId"] as? String), "currency": "USD",
            "quantity": 1, "inAppOwnershipType": t["inAppOwnershipType"] ?? "PURCHASED", "transactionReason": reason,
        ]
        // An introductory offer's period names its offer; every other transaction has none.
        fields["offerType"] = t["offerType"] ?? NSNull()
        for key in ["offerIdentifier", "offerDiscountType", "offerPeriod"] where t[key] != nil { fields[key] = t[key] }
        fields.merge(store) { _, b in b }
        return refund.merging(fields) { a, _ in a }
    }

    /// Apple's `type` of each product kind the log names.
    static let typeNames = [
        "consumable": "Consumable", "non-consumable": "Non-Consumable", "non-renewing": "Non-Renewing Subscription",
        "auto-renewable": "Auto-Renewable Subscription",
    ]

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    struct Judged {
        var verifier: CLI.Result
        var expected: [String]
        var forged: Int
        var notifications: Int
    }

    /// Runs `name` with `--signed` and `--log`, then Apple's verifier with the expectations
    /// built from the log (`tamper` may change them first).
    static func judge(
        _ name: String, python: String, store: [String: Any] = [:], tamper: ([String]) -> [String] = { $0 }
    ) throws -> Judged {
        let base = CLI.temporaryFile("signed-\((name as NSString).lastPathComponent)")
        let dir = base + "-dir", log = base + ".jsonl", expect = base + "-expect.jsonl"
        defer { for path in [dir, log, expect] { try? FileManager.default.removeItem(atPath: path) } }
        let path = name.contains("/") ? name : "scenarios/\(name)"
        let run = try CLI.run(["run", "--quiet", path, "--signed", dir, "--log", log])
        #expect(run.status == 0, "\(name): \(run.stdout)\(run.stderr)")
        let built = try expectations(fromLog: String(contentsOfFile: log, encoding: .utf8), store: store)
        let lines = tamper(built.lines)
        try lines.map { $0 + "\n" }.joined().write(toFile: expect, atomically: true, encoding: .utf8)
        let script = CLI.root.appendingPathComponent("tools/verify_signed.py").path
        let verifier = try CLI.run([script, dir, "--expect", expect], executable: URL(fileURLWithPath: python))
        return Judged(verifier: verifier, expected: lines, forged: built.forged, notifications: built.notifications)
    }

    @Test(.enabled(if: applePython != nil, skipReason))
    func everyShippedStoreKit2ScenarioIsVerifiedAndDecodedByApplesLibrary() throws {
        let python = try #require(Self.applePython)
        #expect(Self.scenarios.count >= 10)
        var transactions = 0, forged = 0, notifications = 0
        for name in Self.scenarios {
            let judged = try Self.judge(name, python: python)
            let count = judged.expected.count
            #expect(judged.verifier.status == 0, "\(name):\n\(judged.verifier.stdout)\(judged.verifier.stderr)")
            #expect(
                judged.verifier.stdout.hasSuffix("\(count) passed, 0 failed\n"), "\(name): \(judged.verifier.stdout)")
            transactions += count - judged.forged - judged.notifications
            forged += judged.forged
            notifications += judged.notifications
        }
        #expect(transactions >= 10 && forged >= 2, "transactions \(transactions), forged \(forged)")
        #expect(notifications >= 6, "notifications \(notifications)")
    }

    /// A run of a team's own StoreKit file: the file's product ids, kinds and prices and its
    /// storefront's currency in every payload, verified by Apple's library.
    @Test(.enabled(if: applePython != nil, skipReason))
    func aStoreKitFilesProductsAndCurrencyAreSignedAndVerified() throws {
        let python = try #require(Self.applePython)
        let judged = try Self.judge(
            "Tests/Fixtures/storekit/game-sk2.yaml", python: python,
            store: ["currency": "GBP", "storefront": "GBR", "storefrontId": "143444"])
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        let all = judged.expected.joined(separator: "\n")
        for id in ["gems_small", "remove_ads", "season_pass", "pass_weekly"] {
            #expect(all.contains("\"productId\":\"\(id)\""), "\(id)")
        }
        #expect(all.contains("\"type\":\"Non-Renewing Subscription\""))
        #expect(all.contains("\"price\":1990") && all.contains("\"currency\":\"GBP\""))
        #expect(
            judged.verifier.stdout.hasSuffix("\(judged.expected.count) passed, 0 failed\n"), "\(judged.verifier.stdout)"
        )
    }

    @Test(.enabled(if: applePython != nil, skipReason))
    func aFieldThatDiffersFromTheLogFailsTheJudge() throws {
        let python = try #require(Self.applePython)
        let judged = try Self.judge("sk2-wrong-account-token-hardened.yaml", python: python) { lines in
            lines.map { $0.replacingOccurrences(of: "\"price\":4990", with: "\"price\":4991") }
        }
        #expect(judged.expected.contains { $0.contains("\"price\":4991") })
        #expect(judged.verifier.status == 1)
        #expect(judged.verifier.stdout.contains("price: expected 4991, decoded 4990"), "\(judged.verifier.stdout)")
    }

    /// A refund's notification carries the refunded transaction: a revocationDate the log
    /// does not hold fails the judge.
    @Test(.enabled(if: applePython != nil, skipReason))
    func aRefundNotificationsRevocationDateIsJudged() throws {
        let python = try #require(Self.applePython)
        let judged = try Self.judge("server-refund-clawed-back-hardened.yaml", python: python) { lines in
            lines.map {
                $0.contains("\"REFUND\"")
                    ? $0.replacingOccurrences(of: "\"revocationReason\":0", with: "\"revocationReason\":1") : $0
            }
        }
        #expect(
            judged.expected.contains {
                $0.contains("\"notificationType\":\"REFUND\"") && $0.contains("\"revocationReason\":1")
            })
        #expect(judged.verifier.status == 1)
        #expect(
            judged.verifier.stdout.contains("transaction.revocationReason: expected 1, decoded 0"),
            "\(judged.verifier.stdout)")
    }

    @Test func signedIntoAFileIsRefusedBeforeTheRunAndWritesNothing() throws {
        let file = CLI.temporaryFile("signed-not-a-dir")
        let log = CLI.temporaryFile("signed-not-a-dir.jsonl")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        defer { for path in [file, log] { try? FileManager.default.removeItem(atPath: path) } }
        let run = try CLI.run(["run", "scenarios/sk2-forged-jws-naive.yaml", "--signed", file, "--log", log])
        #expect(
            run.status == 2 && run.stderr.contains("--signed \(file): it is not a directory; give a directory"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test func aStoreKit1RunSignsNothing() throws {
        let dir = CLI.temporaryFile("signed-sk1")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(["run", "--quiet", "scenarios/replay-fraud-naive.yaml", "--signed", dir])
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: dir + "/signed.jsonl", encoding: .utf8).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/root.cer")).count > 300)
    }

    /// `--signed` alone (quiet, no `--log`) signs what the run did, as it does beside `--log`.
    @Test func signedWithoutALogSignsTheSameLines() throws {
        let alone = CLI.temporaryFile("signed-alone"), beside = CLI.temporaryFile("signed-beside")
        let log = CLI.temporaryFile("signed-beside.jsonl")
        defer { for path in [alone, beside, log] { try? FileManager.default.removeItem(atPath: path) } }
        let file = "scenarios/sk2-replay-fraud-naive.yaml"
        #expect(try CLI.run(["run", "--quiet", file, "--signed", alone]).status == 0)
        #expect(try CLI.run(["run", "--quiet", file, "--signed", beside, "--log", log]).status == 0)
        let lines = try String(contentsOfFile: alone + "/signed.jsonl", encoding: .utf8)
        #expect(!lines.isEmpty)
        #expect(
            lines.split(separator: "\n").count
                == (try String(contentsOfFile: beside + "/signed.jsonl", encoding: .utf8)).split(separator: "\n").count)
    }
}
