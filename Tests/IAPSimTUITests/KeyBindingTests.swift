import Foundation
import IAPSimCore
import Testing

@testable import IAPSimTUI

/// The one key table: README, help and footer come from it, and no key does two things at once.
@Suite struct KeyBindingTests {
    @Test func noKeyIsBoundTwiceInTheSameContext() {
        for (i, a) in KeyBinding.all.enumerated() {
            for b in KeyBinding.all[(i + 1)...] where a.context == b.context {
                #expect(Set(a.keys).isDisjoint(with: b.keys), "\(a.written) and \(b.written)")
            }
        }
    }

    @Test func jAndKBothScrollAndNeitherArmsAFault() {
        var d = Driver(UIModel())
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.keys("kkk")
        #expect(d.model.scrollOffset(.events) == 3)
        #expect(!d.model.simulation.store.askToBuy, "k scrolls; it does not arm Ask to Buy")
        d.keys("j")
        #expect(d.model.scrollOffset(.events) == 2)
        d.keys("t")
        #expect(d.model.simulation.store.askToBuy, "t is Ask to Buy")
    }

    @Test func theFooterAndTheHelpListTheTablesKeys() {
        var d = Driver(UIModel())
        let footer = d.screen().lines[39]
        #expect(footer.contains("q quit") && footer.contains("b buy"))
        #expect(!footer.contains("next step"), "play keys stay out of the sandbox footer")
        d.keys("?")
        let help = d.screen().text
        for b in KeyBinding.all where b.exists(in: .one) {
            #expect(help.contains(b.help.prefix(20)), "help lacks \(b.written)")
        }
        #expect(help.contains("Legend"))
    }
}

/// `DUMP_SCREEN=1`: prints a few screens while developing.
@Suite struct ScreenDump {
    @Test func dump() {
        guard ProcessInfo.processInfo.environment["DUMP_SCREEN"] == "1" else { return }
        var d = Driver(UIModel())
        var all = ""
        for (file, type) in [
            ("replay-fraud-naive.yaml", AnomalyType.replayFraud),
            ("double-credit-crash-before-finish-naive.yaml", .doubleCredit),
            ("wrong-account-switch-before-delivery-naive.yaml", .wrongAccount),
        ] {
            all += (try? InspectorTests.inspect(file, type).screen().text) ?? ""
        }
        try? all.write(toFile: "/tmp/dump1.txt", atomically: true, encoding: .utf8)
        d.keys("?")
        try? (d.screen().text + d.screen(80, 24).text).write(
            toFile: "/tmp/dump2.txt", atomically: true, encoding: .utf8)
    }
}

extension ScreenDump {
    /// `DUMP_SCREEN=1`: how long a render takes after a busy session (a full log).
    @Test func renderTime() {
        guard ProcessInfo.processInfo.environment["DUMP_SCREEN"] == "1" else { return }
        var d = Driver(UIModel(seed: 5, options: UIOptions(autopilot: true, speed: 64)))
        d.wait(wallMs: 60_000)
        let start = ContinuousClock.now
        for _ in 0..<100 { _ = d.screen() }
        let each = (ContinuousClock.now - start) / 100
        let content = PanelContent(sim: d.model.simulation, glyphs: .unicode, ascii: false, width: 118)
        let s2 = ContinuousClock.now
        for _ in 0..<100 { _ = content.eventRows(notes: d.model.notes, filter: nil) }
        let rows = (ContinuousClock.now - s2) / 100
        try? "rows \(rows); log \(d.model.simulation.log.count) entries; render \(each)\n".write(
            toFile: "/tmp/rendertime.txt", atomically: true, encoding: .utf8)
    }
}

extension KeyBindingTests {
    /// In play, Enter runs the next step whatever has focus; `i` inspects.
    @Test func enterInPlayRunsTheNextStepWhateverHasFocus() throws {
        var d = Driver(
            UIModel(play: try RenderGoldenTests.shipped("missed-order-request-lost-naive.yaml"), file: "x.yaml"))
        for panel in Panel.allCases {
            while d.model.focus != panel { d.key(.tab) }
            let footer = d.screen().lines[39]
            if d.model.result == nil {
                #expect(footer.contains("Enter next step") && footer.contains("i inspect"), "\(panel): \(footer)")
            } else {
                #expect(footer.contains("B back") && footer.contains("R restart"), "after the end: \(footer)")
            }
            let before = d.model.player.nextStep
            d.key(.enter)
            #expect(
                d.model.overlay == nil && (d.model.player.nextStep == before + 1 || d.model.result != nil), "\(panel)")
        }
    }
}
