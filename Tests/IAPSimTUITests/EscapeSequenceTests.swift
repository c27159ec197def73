import IAPSimCore
import Testing

@testable import IAPSimTUI

/// Home and End in every common encoding, and no key that leaves a sandbox world unasked.
@Suite struct EscapeSequenceTests {
    static func keys(_ text: String) -> [Key] {
        text.map { $0 == "\u{1B}" ? Key.escape : Key.char($0) }
    }

    @Test(arguments: ["\u{1B}[1~", "\u{1B}[7~", "\u{1B}[H", "\u{1B}OH"])
    func homeInEveryEncodingIsHome(_ sequence: String) {
        #expect(EscapeSequences.fold(Self.keys(sequence)) == [.home])
    }

    @Test(arguments: ["\u{1B}[4~", "\u{1B}[8~", "\u{1B}[F", "\u{1B}OF"])
    func endInEveryEncodingIsEnd(_ sequence: String) {
        #expect(EscapeSequences.fold(Self.keys(sequence)) == [.end])
    }

    @Test func anUnknownSequenceIsSwallowedWholeAndKeysAroundItStay() {
        #expect(EscapeSequences.fold(Self.keys("b\u{1B}[15;2~1")) == [.char("b"), .other("Esc-[15;2~"), .char("1")])
        #expect(EscapeSequences.fold(Self.keys("\u{1B}q")) == [.escape, .char("q")])
        #expect(EscapeSequences.fold(Self.keys("\u{1B}[")) == [.other("Esc-[")])
        #expect(EscapeSequences.fold([.escape]) == [.escape])
    }

    static func sandboxWithASession() -> Driver {
        var model = UIModel(preset: .naive)
        model.playlist = ["scenarios/a-naive.yaml", "scenarios/a-hardened.yaml"]
        var d = Driver(model)
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        return d
    }

    @Test(arguments: ["]", "[", "O"])
    func leavingASandboxWithASessionAsksFirst(_ key: String) {
        var d = Self.sandboxWithASession()
        let before = d.model.simulation.logCount
        d.keys(key)
        #expect(!d.effects.contains { if case .openScenario = $0 { true } else { false } })
        guard case .confirm? = d.model.overlay else {
            Issue.record("no question: \(String(describing: d.model.overlay))")
            return
        }
        d.keys("n")
        #expect(d.model.overlay == nil)
        #expect(d.model.status == "stayed in this world")
        #expect(d.model.simulation.logCount >= before)
    }

    @Test func yesOpensTheNextFile() {
        var d = Self.sandboxWithASession()
        d.keys("]")
        d.keys("y")
        #expect(d.effects.contains(.openScenario(path: "scenarios/a-naive.yaml")))
    }

    @Test func aFreshSandboxLeavesWithoutAsking() {
        var model = UIModel(preset: .naive)
        model.playlist = ["scenarios/a-naive.yaml"]
        var d = Driver(model)
        d.keys("]")
        #expect(d.effects.contains(.openScenario(path: "scenarios/a-naive.yaml")))
    }
}
