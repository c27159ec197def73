import Foundation
import Testing

/// `run`'s replays end to end: the lines under each anomaly, the `--log` fields,
/// `--against` and `--handout`.
@Suite(.serialized) struct WhatIfCLITests {
    @Test func runPrintsCausedByAndPreventedByUnderTheAnomaly() throws {
        let result = try CLI.run(["run", "scenarios/sk2-wrong-account-no-token-naive.yaml", "--quiet"])
        let lines = result.lines
        let i = try #require(lines.firstIndex { $0.hasPrefix("  A1 wrong-account permanent") })
        #expect(lines[i + 1].hasPrefix("    caused by: step ") && lines[i + 1].hasSuffix(": login bob"))
        #expect(lines[i + 2] == "    prevented by: account-token true + credit-to order-owner")
    }

    @Test func theLogCarriesTheAnswersAsFields() throws {
        let log = CLI.temporaryFile("whatif.jsonl")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try CLI.run(["run", "scenarios/fresh-receipt-after-finish-naive.yaml", "--quiet", "--log", log])
        #expect(result.status == 0, "\(result.stderr)")
        let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["kind"] as? String == "anomalyOpened" }
        let first = try #require(opened.first)
        let causes = try #require(first["causedBy"] as? [[String: Any]])
        #expect(causes.first?["command"] as? String == "drop-next-request recharge")
        #expect((causes.first?["line"] as? Int ?? 0) > 0)
        let fixes = try #require(first["preventedBy"] as? [[[String: String]]])
        #expect(fixes.contains { $0 == [["key": "finish", "value": "after-credit"]] })
        #expect(!fixes.contains { $0 == [["key": "persist", "value": "keychain"]] })
        #expect((first["savedBy"] as? [Any])?.isEmpty == true)
    }

    @Test func againstPrintsBothVerdictsAndWhatHardenedPrevented() throws {
        let result = try CLI.run([
            "run", "scenarios/lost-order-crash-at-charge-naive.yaml", "--quiet", "--against", "hardened",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let header = try #require(result.lines.first { $0.hasPrefix("naive (the file's policy)") })
        #expect(header.hasSuffix("| hardened"))
        #expect(
            result.lines.contains { $0.contains("A1 lost-order open o1") && $0.contains("| A1 lost-order resolved o1") }
        )
        #expect(result.lines.contains { $0.hasSuffix("| avoided: lost-order o1, resolved by: observer launch") })
    }

    @Test func againstAPresetOfTheOtherWorldIsRefused() throws {
        let result = try CLI.run([
            "run", "scenarios/lost-order-crash-at-charge-naive.yaml", "--against", "sk2-hardened",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: --against sk2-hardened: a StoreKit 2 preset"))
        #expect(result.stderr.contains("accepted: naive, hardened"))
    }

    @Test func handoutWritesOnePagePerAnomalyWithItsStoryAndDiagram() throws {
        let dir = CLI.temporaryFile("handouts")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["run", "scenarios/replay-fraud-naive.yaml", "--quiet", "--handout", dir])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["A1-replay-fraud.md", "A2-replay-fraud.md"])
        let page = try String(contentsOfFile: dir + "/A2-replay-fraud.md", encoding: .utf8)
        #expect(page.hasPrefix("# A2 replay-fraud: permanent"))
        for part in ["## Caused by", "## Chain of facts", "## Money", "## Prevented by", "```mermaid\nsequenceDiagram"]
        {
            #expect(page.contains(part), "\(part)")
        }
        #expect(page.contains("- step 3 (line 16): replay"))
        #expect(page.contains("- `server-dedup true`"))
    }
    @Test func aStoreKit2HandoutSpeaksOfTheJWSAndPurchaseNotOfReceipts() throws {
        let dir = CLI.temporaryFile("handouts-sk2")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["run", "scenarios/sk2-replay-fraud-naive.yaml", "--quiet", "--handout", dir])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: dir + "/A1-replay-fraud.md", encoding: .utf8)
        let prose = page.components(separatedBy: "```mermaid").first ?? page
        #expect(prose.contains("**What happened.** the jwsRepresentation of 1000000000001 replayed"), "\(prose)")
        #expect(prose.contains("granted to a replayed JWS"))
        #expect(prose.contains("purchase\\(\\) under way"))
        #expect(!page.contains("old receipt"), "the prose and the diagram")
        // The app calls purchase(); the sheet is StoreKit's and the App Store's; the proxy replays.
        #expect(page.contains("App->>StoreKit: purchase() of coins_100 (alice, order o1)"))
        #expect(page.contains("Note over StoreKit,AppStore: 1000000000001 coins_100: purchase() under way"))
        #expect(page.contains("User->>Attacker: replay"))
        #expect(page.contains("Attacker->>Server: POST /recharge (replayed JWS of 1000000000001, o2)"))
        #expect(!prose.contains("purchasing"))
    }
}
