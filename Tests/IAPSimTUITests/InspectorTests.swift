import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// Enter on an Auditor row or a Payment queue row opens an inspector that explains it.
@Suite struct InspectorTests {
    /// Plays a shipped file to the end and opens the newest anomaly of `type`.
    static func inspect(_ file: String, _ type: AnomalyType, width: Int = 120, height: Int = 40) throws -> Driver {
        var d = try DefectTests.play(file, width: width, height: height)
        d.keys("G")
        d.key(.backTab)  // Events -> Auditor
        let index = d.model.inspectableAnomalies.firstIndex { $0.type == type } ?? 0
        d.key(.down, times: index)
        d.keys("i")
        return d
    }

    @Test(arguments: [
        ("lost-order-crash-at-charge-naive.yaml", AnomalyType.lostOrder, "prevented by: observer launch"),
        ("missed-order-request-lost-naive.yaml", .missedOrder, "prevented by: retry-immediate 1"),
        ("replay-fraud-naive.yaml", .replayFraud, "prevented by: server-dedup true | server-bind-order true"),
        ("duplicate-receipt-unfinished-failure-naive.yaml", .duplicateReceipt, "prevented by: "),
        ("double-credit-crash-before-finish-naive.yaml", .doubleCredit, "prevented by: "),
        ("wrong-account-switch-before-delivery-naive.yaml", .wrongAccount, "prevented by: "),
    ])
    func everyAnomalyTypeNamesWhatPreventsIt(file: String, type: AnomalyType, prevented: String) throws {
        let d = try InspectorTests.inspect(file, type)
        guard case .inspect(.anomaly(let id), _)? = d.model.overlay else {
            Issue.record("no inspector open: \(String(describing: d.model.overlay))")
            return
        }
        let anomaly = d.model.simulation.auditor.anomalies.first { $0.id == id }!
        #expect(anomaly.type == type)
        let text = d.screen().text
        #expect(text.contains(prevented), "\(text)")
        #expect(text.contains("caused by: step "), "\(text)")
        #expect(text.contains("status history") && text.contains("opened as "), "\(text)")
        #expect(text.contains("chain of facts"), "\(text)")
        #expect(text.contains("paid: ") || text.contains("paid:"), "\(text)")
        if let t = anomaly.txn { #expect(text.contains(t)) }
    }

    /// Walkthrough 5, F4: the replays take seconds in a long session; the inspector is drawn
    /// first, saying they are under way (the edge draws it before it answers `.afterFrame`),
    /// then with what they found.
    @Test func theInspectorSaysTheReplaysAreUnderWayBeforeTheyRun() throws {
        let d = try InspectorTests.inspect("missed-order-request-lost-naive.yaml", .missedOrder)
        #expect(d.effects.contains(.afterFrame(.workOutWhatIf)), "\(d.effects)")
        let before = try #require(d.framesBeforeWork.last).text
        #expect(before.contains("caused by / prevented by: working it out…"), "\(before)")
        #expect(!before.contains("prevented by: retry-immediate"), "\(before)")
        let after = d.screen().text
        #expect(!after.contains("working it out"), "\(after)")
        #expect(after.contains("prevented by: retry-immediate 1"), "\(after)")
    }

    /// Walkthrough 5: a missed order opened permanent, then given its mechanism, is not
    /// listed as `missed-order permanent` twice.
    @Test func theStatusHistoryDoesNotRepeatAStatus() throws {
        let d = try InspectorTests.inspect("missed-order-request-lost-naive.yaml", .missedOrder)
        let text = d.screen().text
        #expect(text.contains("opened as missed-order permanent"), "\(text)")
        #expect(text.contains("still permanent: finished without credit"), "\(text)")
        #expect(!text.contains("→ missed-order permanent"), "\(text)")
    }

    @Test func hInTheInspectorAsksTheEdgeToWriteTheAnomalysHandout() throws {
        var d = try InspectorTests.inspect("lost-order-crash-at-charge-naive.yaml", .lostOrder)
        let text = d.screen().text
        #expect(text.contains("caused by: step "), "\(text)")
        #expect(text.contains("Fault"), "the chain has the crash: \(text)")
        d.effects = []
        d.framesBeforeWork = []
        d.key(.char("H"))
        // Walkthrough 6, N9: a frame says the handout is being written before the replays run.
        let before = d.framesBeforeWork.last?.text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(before.contains("writing the handout of A"), "\(before)")
        guard case .saveHandout(let base, let contents)? = d.effects.last else {
            Issue.record("no handout effect: \(d.effects)")
            return
        }
        #expect(base.hasPrefix("iapsim-A") && base.hasSuffix("-lost-order"))
        #expect(contents.contains("## Caused by") && contents.contains("```mermaid"))
        #expect(d.model.overlay != nil, "the inspector stays open")
        // Walkthrough 5, F1: the inspector covers the status line; where the file went shows
        // on its footer, before its keys, at both sizes.
        _ = d.model.update(.handoutSaved(path: "/tmp/class/iapsim-A1-lost-order-1.md"))
        for (width, height) in [(120, 40), (80, 24)] {
            let footer = d.screen(width, height).text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(footer.contains("wrote the handout to /tmp/class/iapsim-A1-lost-order-1.md"), "\(footer)")
            if width == 120 { #expect(footer.contains("close"), "\(footer)") }
        }
    }

    /// Walkthrough 6, N9: a handout of the sandbox names each cause as the inspector does, the
    /// input it was (`your input 3 (crash)`), not a step of a file that does not exist.
    @Test func aSandboxHandoutNamesItsCausesAsInputs() throws {
        var d = Driver.naiveCrashAtCharge()
        d.wait(wallMs: 60_000)
        let anomaly = try #require(d.model.simulation.auditor.anomalies.first)
        d.effects = []
        d.key(.char("H"))
        guard case .saveHandout(_, let contents)? = d.effects.last else {
            Issue.record("no handout effect for A\(anomaly.id): \(d.effects)")
            return
        }
        let causes = contents.components(separatedBy: "## Caused by").last?.components(separatedBy: "##").first ?? ""
        #expect(causes.contains("- your input "), "\(causes)")
        #expect(!causes.contains("- step "), "\(causes)")
        #expect(contents.contains("From the sandbox"), "\(contents.prefix(300))")
    }

    @Test func aDuplicateReceiptNamesTheStaleTransactionSentInstead() throws {
        let d = try InspectorTests.inspect("duplicate-receipt-unfinished-failure-naive.yaml", .duplicateReceipt)
        #expect(d.screen().text.contains("sent instead: "), "\(d.screen().text)")
    }

    @Test func enterOnAPaymentQueueRowShowsHistoryTokenAndTheReceiptNow() throws {
        var d = try DefectTests.play("lost-order-crash-at-charge-hardened.yaml")
        d.keys("G")
        d.key(.tab)  // Events -> App
        d.key(.tab)  // -> Payment queue
        d.keys("i")
        let text = d.screen().text
        #expect(text.contains("state history"), "\(text)")
        #expect(text.contains("-> purchased"), "\(text)")
        #expect(text.contains("app_account_token: "), "\(text)")
        #expect(text.contains("the receipt the server would see now: 0 in_app entries"), "\(text)")
        #expect(text.contains("is not in it: a finished consumable leaves the receipt"), "\(text)")
        d.key(.escape)
        #expect(d.model.overlay == nil)
    }

    /// Walkthrough 5: a StoreKit 2 subscription's transaction inspector names what was paid
    /// (the period it paid for) and the payload's `type` as Apple writes it.
    @Test func aSubscriptionsTransactionNamesItsPrice() {
        var d = Driver(UIModel(preset: .sk2Naive))
        d.keys("b4")
        d.wait(wallMs: 15_000)
        d.key(.backTab, times: 4)  // Events -> Transactions
        d.key(.enter)
        let text = d.screen().text
        #expect(text.contains("paid: $4.99 for pro_monthly, 2026-01-01T00:00:02Z to 2026-02-01T00:00:02Z"), "\(text)")
        #expect(text.contains("type: Auto-Renewable Subscription"), "\(text)")
        #expect(!text.contains("no charge behind it"), "\(text)")
    }

    @Test func theReceiptNowListsAnUnfinishedPurchase() {
        var d = Driver.naiveCrashAtCharge()
        d.key(.backTab, times: 4)  // Events -> Payment queue
        d.key(.enter)
        let text = d.screen().text
        #expect(text.contains("1 in_app entry"), "\(text)")
        #expect(text.contains("← this one"), "\(text)")
    }

    @Test func inspectorsAt80x24And120x40() throws {
        var d = try InspectorTests.inspect("duplicate-receipt-unfinished-failure-naive.yaml", .duplicateReceipt)
        Golden.check(d.screen(120, 40), "inspect-anomaly-120x40")
        Golden.check(d.screen(80, 24), "inspect-anomaly-80x24")
        d.effects += d.model.update(.resize(width: 80, height: 24))  // scrolling is bounded by the screen
        d.key(.down, times: 5)
        Golden.check(d.screen(80, 24), "inspect-anomaly-scrolled-80x24")
        d.key(.escape)
        d.key(.backTab)  // Auditor -> Network... to the queue
        d.key(.backTab)
        d.key(.backTab)
        d.keys("i")
        Golden.check(d.screen(120, 40), "inspect-transaction-120x40")
        Golden.check(d.screen(80, 24), "inspect-transaction-80x24")
    }

    @Test func enterWithNothingToInspectSaysSo() {
        var d = Driver(UIModel())
        d.key(.backTab)
        d.key(.enter)
        #expect(d.model.overlay == nil)
        #expect(d.model.status == "no anomaly yet: nothing to inspect")
    }

    /// `i` on a panel without rows of its own inspects the Auditor's selected anomaly, else
    /// the queue's row; with neither it says so. A key bound to nothing is named.
    @Test func iOnAnotherPanelInspectsTheAuditorsSelection() {
        var d = Driver(UIModel())
        while d.model.focus == .auditor || d.model.focus == .queue { d.key(.tab) }
        d.keys("i")
        #expect(d.model.overlay == nil)
        #expect(d.model.status == "nothing to inspect yet: no anomaly, no transaction")
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.keys("i")
        guard case .inspect(.transaction, _)? = d.model.overlay else {
            Issue.record("i on \(d.model.focus) opened \(String(describing: d.model.overlay))")
            return
        }
        d.keys("q")
        #expect(d.model.overlay == nil, "q closes the inspector; it does not quit")
        #expect(d.effects.isEmpty)
        d.keys("Y")
        #expect(d.model.status == "key 'Y' is not bound; ? lists every key")
        d.key(.escape)  // nothing open: Esc clears the status line, and says nothing
        #expect(d.model.status == nil && d.model.overlay == nil)
    }
}

extension InspectorTests {
    @Test func scrollingStopsAtTheLastLineSoUpComesBackAtOnce() throws {
        var d = try InspectorTests.inspect(
            "duplicate-receipt-unfinished-failure-naive.yaml", .duplicateReceipt,
            width: 80, height: 24)
        d.key(.down, times: 500)
        guard case .inspect(_, let bottom)? = d.model.overlay else { Issue.record("closed"); return }
        #expect(bottom == d.model.overlayScrollLimit() && bottom > 0 && bottom < 100)
        d.key(.up)
        guard case .inspect(_, let one)? = d.model.overlay else { Issue.record("closed"); return }
        #expect(one == bottom - 1)
        d.key(.escape)
        d.keys("?")
        d.key(.end)
        #expect(d.model.helpScroll == d.model.overlayScrollLimit() && d.model.helpScroll > 0)
        #expect(d.screen(80, 24).text.contains("↑ \(d.model.helpScroll) above"))
    }

    @Test func aReplayNamesTheFreshOrdersTheAttackerMade() throws {
        let d = try InspectorTests.inspect("replay-fraud-naive.yaml", .replayFraud)
        let text = d.screen().text
        #expect(text.contains("orders: o1 by mallory"), "\(text)")
        #expect(text.contains("(attacker)"), "\(text)")
    }

    @Test func aTypeChangeShowsInTheStatusHistory() throws {
        let d = try InspectorTests.inspect("wrong-account-switch-before-delivery-naive.yaml", .wrongAccount)
        let text = d.screen().text
        #expect(text.contains("opened as lost-order open") && text.contains("→ wrong-account permanent"), "\(text)")
    }
}
