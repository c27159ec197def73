import Foundation
import Testing

/// What a class takes home agrees with the run: the diagram's order is the log's order (a
/// message is drawn where it was sent; an answer that reaches a dead app is lost, not
/// delivered), the handout's diagram carries the steps, and its Money is the verdict's.
@Suite(.serialized) struct HandoutTruthTests {
    func diagram(_ file: String) throws -> [String] {
        let out = CLI.temporaryFile("truth.mmd")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run(["run", "scenarios/\(file)", "--quiet", "--diagram", out])
        #expect(result.status == 0, "\(result.stderr)")
        return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aRequestSentBeforeACrashIsDrawnBeforeItAndItsAnswerIsLost() throws {
        let lines = try diagram("double-credit-crash-before-finish-naive.yaml")
        let sent = try #require(lines.firstIndex(of: "    App->>Server: POST /recharge (1000000000001, o1)"))
        let died = try #require(lines.firstIndex { $0.contains("Note over App: app process died") })
        let relaunch = try #require(lines[died...].firstIndex { $0.contains("Note over App: app launched") })
        #expect(sent < died, "the request left before the app died")
        let between = lines[died..<relaunch]
        #expect(!between.contains { $0.contains("Server-->>App") }, "no answer delivered to a dead app: \(between)")
        #expect(between.contains("    Server-xApp: credited 1000000000001 (lost: its receiver is gone)"))
    }

    /// Walkthrough 6 (issue 52, item 10): the chain of facts shows an anomaly's opening once,
    /// not again as a status change to the status it opened with at the same moment.
    @Test func theChainShowsEachOpeningOnce() throws {
        let dir = CLI.temporaryFile("once")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run([
            "run", "scenarios/double-credit-crash-before-finish-naive.yaml", "--quiet", "--handout", dir,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: dir + "/A1-double-credit.md", encoding: .utf8)
        let chain = page.components(separatedBy: "## Chain of facts").last?.components(separatedBy: "## Money").first
        let rows = (chain ?? "").split(separator: "\n").filter { $0.contains("| Auditor |") }
        #expect(rows.count == 1, "\(rows)")
        #expect(rows.first?.contains("A1 double-credit permanent") == true, "\(rows)")
    }

    @Test func finishAfterTheRequestIsDrawnAfterIt() throws {
        let lines = try diagram("wrong-account-switch-before-delivery-naive.yaml")
        let sent = try #require(lines.firstIndex(of: "    App->>Server: POST /recharge (1000000000001, no order)"))
        let finished = try #require(lines.firstIndex { $0.hasPrefix("    App->>StoreKit: finishTransaction(") })
        #expect(sent < finished)
    }

    @Test func theEventsSayAnAnswerToADeadAppIsLost() throws {
        let result = try CLI.run(["run", "scenarios/double-credit-crash-before-finish-naive.yaml"])
        #expect(
            result.lines.contains {
                $0.hasSuffix("#6 recharge response arrived after 80ms to a receiver that is gone: lost")
            })
    }

    @Test func theHandoutsMoneyIsTheVerdictsAndItsDiagramHasTheSteps() throws {
        let dir = CLI.temporaryFile("handouts-money")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["run", "scenarios/sub-refund-renewal-naive.yaml", "--handout", dir])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains("refunded: 1 payment(s), 4.99"))
        #expect(result.lines.contains("money: paid and not delivered 0.00; granted without payment 0.36"))
        let page = try String(contentsOfFile: dir + "/A1-access-after-revoke.md", encoding: .utf8)
        let money = try #require(page.components(separatedBy: "## Money").last?.components(separatedBy: "## ").first)
        #expect(!money.contains("no charge behind it"))
        #expect(money.contains("- paid: $4.99 for pro_monthly (1000000000002)"))
        #expect(money.contains("; refunded $4.99"))
        #expect(money.contains("- granted without payment (all of alice's subscriptions): $0.36"))
        #expect(money.contains("- paid and not delivered (all of alice's subscriptions): $0.00"))
        #expect(page.contains("    Note left of User: step 5: refund newest"))
        #expect(page.contains("    User->>AppStore: refund newest"), "Apple refunds, not the app")
    }

    /// Walkthrough 6: the renewal that put a grace cut right is drawn whole (the App Store's
    /// recovery, `Transaction.updates`, the report), not a `POST /recharge` from nowhere.
    @Test func theRenewalThatPutItRightIsDrawn() throws {
        let dir = CLI.temporaryFile("handouts-grace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["run", "scenarios/sub-grace-cut-naive.yaml", "--handout", dir, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: dir + "/A1-grace-cut.md", encoding: .utf8)
        let diagram = try #require(page.components(separatedBy: "```mermaid").last)
        let lines = diagram.split(separator: "\n").map(String.init)
        let recovered = lines.firstIndex { $0.contains("recovered from billing retry (1000000000002)") }
        let updates = lines.firstIndex { $0.contains("StoreKit-->>App: Transaction.updates emitted [1000000000002]") }
        let report = lines.firstIndex { $0.contains("App->>Server: POST /recharge (1000000000002, no order)") }
        #expect(recovered != nil && updates != nil && report != nil, "\(diagram)")
        if let recovered, let updates, let report { #expect(recovered < updates && updates < report, "\(diagram)") }
    }
}

/// One notation on every surface: explore's findings carry the same caused-by and
/// prevented-by lines as `run` prints for the file they wrote (` | ` any one, ` + ` all).
@Suite(.serialized) struct FindingNotationTests {
    @Test func exploresFindingsSayWhatRunSaysOfThem() throws {
        let dir = CLI.temporaryFile("findings-notation")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let explored = try CLI.run(["explore", "--policy", "naive", "--runs", "200", "--seed", "1", "--out", dir])
        #expect(explored.status == 1, "\(explored.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".yaml") }
        #expect(files.count == 6, "\(files)")
        var alternatives = 0
        for file in files {
            let text = try String(contentsOfFile: "\(dir)/\(file)", encoding: .utf8)
            let noted = text.split(separator: "\n").filter { $0.hasPrefix("#   ") }.map { String($0.dropFirst(4)) }
            #expect(!noted.isEmpty, "\(file) says why and what if")
            let run = try CLI.run(["run", "--quiet", "\(dir)/\(file)"])
            let printed = Set(run.lines.map { $0.trimmingCharacters(in: .whitespaces) })
            for line in noted { #expect(printed.contains(line), "\(file): '\(line)' is not what run prints") }
            alternatives += noted.filter { $0.hasPrefix("prevented by:") && $0.contains(" | ") }.count
        }
        #expect(alternatives >= 3, "findings with alternatives read ` | `")
    }
}
