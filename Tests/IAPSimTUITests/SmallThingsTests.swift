import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// Walkthrough 3, defect 18 (the small things) and defect 11 (serve), each through the
/// model and its rendered screen.
@Suite struct SmallThingsTests {
    /// Walkthrough 6, N8: `]` onto a file that is refused names the file once, before its
    /// line and column, so that the problem keeps the room of the status line.
    @Test func aRefusedFileIsNamedOnceOnTheStatusLine() {
        var model = UIModel()
        _ = model.update(.scenarioFailed(path: "/tmp/d/b.yaml", reason: "/tmp/d/b.yaml:8:9: unknown command 'lunch'"))
        #expect(model.status == "could not open /tmp/d/b.yaml:8:9: unknown command 'lunch'")
        _ = model.update(.scenarioFailed(path: "/tmp/d/c.yaml", reason: "no such file"))
        #expect(model.status == "could not open /tmp/d/c.yaml: no such file")
    }

    @Test func theSplitHeaderWrapsTheKeyLineInsteadOfCuttingIt() throws {
        var d = try DefectTests.play("missed-order-request-lost-naive.yaml")
        d.keys("VG")
        let text = d.screen(120, 40).text
        #expect(text.contains("avoided: missed-order o1, prevented by"), "\(text)")
        #expect(!text.contains("retry-in\n") && !text.contains("retry-in│"), "\(text)")
        #expect(text.contains("retry-interval"), "the second key is whole on the next line:\n\(text)")
    }

    @Test func aSandboxInspectorNamesTheInputNotAStep() {
        var d = Driver.naiveCrashAtCharge()
        d.wait(wallMs: 40_000)
        d.key(.backTab)
        d.keys("i")
        let text = d.screen().text
        #expect(text.contains("caused by: your input"), "\(text)")
        #expect(!text.contains("caused by: step"), "\(text)")
    }

    @Test func aForgedIdNeverReadsAsTheRealOne() {
        #expect(PanelContent.short("1000000000001", ascii: false) == "…0001")
        #expect(PanelContent.short("9000000000001", ascii: false) == "9…0001")
        #expect(PanelContent.short("9000000000001", ascii: true) == "9~0001")
    }

    @Test func theHeaderDoesNotSaySandboxTwice() {
        var scenario = Scenario(title: "t", preset: .naive, seed: 1, users: ["alice"])
        scenario.environment = .sandbox
        var d = Driver(UIModel(scenario: scenario, mode: .sandbox, options: UIOptions()))
        d.wait(wallMs: 100)
        let header = d.screen().lines[0]
        #expect(!header.contains("sandbox  sandbox"), "\(header)")
        #expect(header.contains("App Store env: Sandbox"), "\(header)")
    }

    @Test func eventTimesStayInOneColumnPast99Hours() throws {
        var d = try DefectTests.play("sub-billing-retry-naive.yaml")
        d.keys("G")
        let events = DefectTests.panel(d.screen(120, 40), "Events")
        let starts = Set(
            events.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { line in
                line.distance(from: line.startIndex, to: line.firstIndex(of: ".")!)
            })
        #expect(starts.count == 1, "\(events)")
    }

    @Test func theEnvironmentRowHasAKeyAndRefundDeclineWaitsForARequest() {
        var d = Driver.bought(UIModel(preset: .hardened), wallMs: 20_000)
        d.keys("m")
        guard case .picker(let p)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(p.items.count == 11 && p.items[10].key == "e")
        let decline = p.items.first { $0.label == "refund decline" }
        #expect(decline?.refused?.contains("no refund request pending") == true)
        #expect(d.screen().text.contains(" e environment"), "\(d.screen().text)")
        d.keys("e")
        #expect(d.model.pendingEnvironment == .sandbox)
        d.keys("m7")  // refund request
        d.keys("m")
        guard case .picker(let again)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(again.items.first { $0.label == "refund decline" }?.refused == nil)
    }

    @Test func vWithSubscriptionsOpenShowsTheSplitItClaims() {
        var d = Driver(UIModel(preset: .sk2Naive))
        d.keys("TV")
        #expect(d.model.twin != nil && !d.model.subscriptionsView.shown)
        #expect((d.model.status ?? "").contains("Subscriptions closed"), "\(d.model.status ?? "")")
    }

    @Test func thePolicyPanelCutsNoKeyAndHidesSubscriptionKeysInStoreKit1() {
        var d = Driver(UIModel(preset: .naive))
        d.keys("p")
        let text = d.screen().text
        #expect(text.contains("server-consumption-answer"), "\(text)")
        #expect(!d.model.policyKeys.contains(.serverGrace) && !d.model.policyKeys.contains(.serverRevoke))
        let sk2 = Driver(UIModel(preset: .sk2Naive))
        #expect(sk2.model.policyKeys.contains(.serverGrace))
    }

    @Test func theDropPickerNamesTheAppStoreAsVerifysReceiver() {
        let p = Picker.drop(.one)
        let verify = p.items.first { $0.label == "verify request" }
        #expect(verify?.detail.contains("the App Store never sees it") == true, "\(String(describing: verify))")
        #expect(p.items.first { $0.label == "recharge request" }?.detail.contains("merchant server") == true)
    }

    /// Defect 11: under serve, V says there is no split, p lists no `server-*` key, the
    /// status after R names the header's policy, and no simulated server keeps an
    /// appTransactionId the backend never saw.
    @Test func underServeNothingClaimsWhatTheBackendDoesNotDo() {
        var model = UIModel(preset: .sk2Hardened)
        model.connectBackend { ExternalLink(merchant: PanelBackend()) }
        var d = Driver.bought(model, wallMs: 5_000)
        d.keys("V")
        #expect(d.model.twin == nil)
        #expect((d.model.status ?? "").contains("no split screen under serve"), "\(d.model.status ?? "")")
        #expect(!d.model.policyKeys.contains { $0.rawValue.hasPrefix("server-") })
        let said = d.model.simulation.log.map(\.fact.text)
        #expect(!said.contains { $0.contains("can look it up") }, "\(said)")
        #expect(said.contains { $0.contains("under serve no one receives it") }, "\(said)")
        // The Network panel says the same of it: it arrived, and no one heard it.
        let report = d.model.simulation.network.recent.first { $0.route == .order && $0.direction == .request }
        #expect(report?.fate == .unheard, "\(String(describing: report))")
        var fresh = UIModel(preset: .sk2Hardened)
        fresh.connectBackend { ExternalLink(merchant: PanelBackend()) }
        var launched = Driver(fresh)
        launched.wait(wallMs: 1_000)
        #expect(launched.screen().text.contains("80ms no receiver"), "\(launched.screen().text)")
        d.keys("Ry")
        #expect((d.model.status ?? "").contains("policy \(d.model.policyName)"), "\(d.model.status ?? "")")
        #expect(!(d.model.status ?? "").contains("custom"), "\(d.model.status ?? "")")
    }
}
