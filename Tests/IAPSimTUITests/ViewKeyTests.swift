import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// Restart, step back, the store screen, zoom and the Events filter.
@Suite struct ViewKeyTests {
    @Test func restartGivesAFreshWorldWithTheSameSeedAndPolicy() {
        var d = Driver(UIModel(seed: 9, preset: .naive))
        d.keys("p")
        d.key(.down)
        d.key(.right)  // observer -> launch: a custom policy
        d.key(.escape)
        let policy = d.model.simulation.policy
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        #expect(d.model.simulation.auditor.charges.count == 1)
        d.keys("Ry")
        #expect(d.model.simulation.now == 0)
        #expect(d.model.simulation.auditor.charges.isEmpty)
        #expect(d.model.simulation.policy == policy)
        #expect(d.model.player.scenario.seed == 9)
        #expect(d.model.session.isEmpty)
        #expect(d.model.status?.hasPrefix("restarted") == true)
    }

    @Test func playRestartsAtStepZeroAndStepsBackByReplaying() throws {
        let file = "lost-order-crash-at-charge-hardened.yaml"
        var d = try DefectTests.play(file)
        d.key(.enter)
        d.key(.enter)
        let afterOne: [LogEntry] = {
            var e = try! DefectTests.play(file)
            e.key(.enter)
            return Array(e.model.simulation.log)
        }()
        #expect(d.model.player.nextStep == 2)
        d.keys("B")
        #expect(d.model.player.nextStep == 1)
        #expect(Array(d.model.simulation.log) == afterOne, "back is a deterministic replay of step 1")
        #expect(d.model.paused)
        d.keys("G")
        #expect(d.model.result != nil)
        d.keys("B")
        #expect(d.model.result == nil && d.model.player.nextStep == 2, "back from the end goes to the last step")
        d.keys("Ry")
        #expect(d.model.player.nextStep == 0 && d.model.simulation.now == 0)
    }

    @Test func eOpensAndEClosesTheStoreScreen() {
        var d = Driver(UIModel(preset: .naive))
        d.keys("e")
        #expect(d.model.simulation.app.storeOpen)
        #expect(d.model.session.last?.command == .openStore)
        d.keys("E")
        #expect(!d.model.simulation.app.storeOpen)
    }

    @Test func zoomShowsTheFocusedPanelOnTheWholeScreen() {
        var d = RenderGoldenTests.lostOrderSession()
        d.keys("z")
        #expect(d.model.zoomed == .events)
        let screen = d.screen(80, 24)
        #expect(!screen.text.contains("┌ App "))
        Golden.check(screen, "zoom-events-80x24")
        d.key(.backTab)  // zoomed, Tab pages through the panels
        #expect(d.model.zoomed == .auditor)
        Golden.check(d.screen(120, 40), "zoom-auditor-120x40")
        d.keys("z")
        #expect(d.model.zoomed == nil)
    }

    @Test func eventsFilterByPart() {
        var d = RenderGoldenTests.lostOrderSession()
        d.keys("F")
        #expect(d.model.eventsView.filter == .user)
        d.keys("FFF")
        #expect(d.model.eventsView.filter == .network)
        let screen = d.screen(120, 40)
        #expect(screen.text.contains("┌ Events: Network only"))
        let events = DefectTests.panel(screen, "Events").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(!events.isEmpty && events.allSatisfy { $0.contains(" Network ") }, "\(events)")
        Golden.check(screen, "events-filter-network-120x40")
        Golden.check(d.screen(80, 24), "events-filter-network-80x24")
        for _ in Part.allCases.indices.dropFirst(3) { d.keys("F") }
        #expect(d.model.eventsView.filter == nil)
    }

    @Test func theLegendInAsciiUsesTheAsciiMarkers() {
        var d = Driver(UIModel(options: UIOptions(ascii: true)), width: 80, height: 24)
        d.keys("?")
        // The end of the legend: the boxes' keys follow it.
        d.key(.end)
        d.key(.up, times: OverlayKeys.sections.reduce(0) { $0 + 1 + $1.rows.count })
        Golden.check(d.screen(80, 24), "help-legend-ascii-80x24")
        let legend = HelpBox.lines(d.model).map { $0.map(\.text).joined() }
        #expect(legend.contains { $0.contains("unfinished: still in the payment queue") }, "\(legend)")
        #expect(d.screen(80, 24).text.contains("REFUNDED"), "the legend ends with the refund marker")
    }
}
