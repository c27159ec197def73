import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// The screens people see, at the two sizes the UI is built for, compared as text.
@Suite struct RenderGoldenTests {
    /// A lost order and its repair: buy, crash right after the charge, wait past the
    /// auditor's grace period, launch again.
    static func lostOrderSession() -> Driver {
        var d = Driver(UIModel(seed: 7, users: ["alice", "bob"], preset: .hardened))
        d.keys("b")
        d.key(.enter)
        d.keys("c2")  // crash when charged
        d.wait(wallMs: 3_000)  // the charge comes at 2.16s
        d.keys("+++++")  // 32x
        d.wait(wallMs: 1_200)  // past the 30s grace: lost-order open
        d.keys("l")
        d.wait(wallMs: 500)
        d.keys(" ")
        return d
    }

    @Test func sandboxAfterALostOrderIsRepaired() {
        let d = RenderGoldenTests.lostOrderSession()
        Golden.check(d.screen(120, 40), "sandbox-lost-order-120x40")
        Golden.check(d.screen(80, 24), "sandbox-lost-order-80x24")
    }

    @Test func helpOverlay() {
        var d = Driver(UIModel())
        d.keys("?")
        Golden.check(d.screen(120, 40), "help-120x40")
        Golden.check(d.screen(80, 24), "help-80x24")
    }

    @Test func policyPanel() {
        var d = Driver(UIModel(preset: .naive))
        d.keys("p")
        d.key(.down, times: 2)
        Golden.check(d.screen(120, 40), "policy-120x40")
        Golden.check(d.screen(80, 24), "policy-80x24")
    }

    @Test func tooSmall() {
        let d = Driver(UIModel(), width: 40, height: 12)
        Golden.check(d.screen(40, 12), "too-small-40x12")
    }
}

extension RenderGoldenTests {
    static func shipped(_ name: String) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try ScenarioParser.load(path: root.appendingPathComponent("scenarios/\(name)").path)
    }

    @Test func playModeBeforeTheFirstStepAndAfterTheEnd() throws {
        let file = "lost-order-crash-at-charge-hardened.yaml"
        var d = Driver(UIModel(play: try RenderGoldenTests.shipped(file), file: "scenarios/\(file)"))
        Golden.check(d.screen(120, 40), "play-story-120x40")
        d.key(.enter)
        Golden.check(d.screen(80, 24), "play-step1-80x24")
        d.keys("G")
        Golden.check(d.screen(120, 40), "play-end-120x40")
        Golden.check(d.screen(80, 24), "play-end-80x24")
    }

    @Test func wideCharactersStayAligned() {
        var d = Driver(UIModel(seed: 3, users: ["小明", "bob"]))
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        Golden.check(d.screen(120, 40), "wide-names-120x40")
    }

    @Test func asciiFramesWhenTheLocaleIsNotUTF8() {
        let d = Driver(UIModel(options: UIOptions(ascii: true)))
        Golden.check(d.screen(80, 24), "ascii-80x24")
    }
}
