import Testing

@testable import IAPSimCore
@testable import IAPSimTUI

/// StoreKit 2 has more policy keys than an 80x24 screen has rows: the panel scrolls to keep
/// the selected key in view and stays inside the screen.
@Suite struct PolicyScrollTests {
    @Test func theLastKeyIsInViewAt80x24AndTheFooterStays() {
        var d = Driver(UIModel(preset: .sk2Hardened))
        d.keys("p")
        let last = PolicyKey.allCases.last!.rawValue
        d.key(.down, times: 40)
        let lines = d.screen(80, 24).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.contains("server-status-poll") && $0.contains("24h") }, "\(lines)")
        #expect(lines.contains { $0.contains("\(last):") }, "the help of the selected key shows")
        #expect(lines.contains { $0.contains("change value (applies now)") }, "the footer is not drawn over")
        d.key(.up, times: 40)
        let top = d.screen(80, 24).text
        #expect(top.contains("preset") && top.contains("sk2-hardened"))
    }

    /// Walkthrough 6, N7: a StoreKit 2 world's policy panel says the observer key in StoreKit 2's
    /// words (its App panel says `updates listening`), a StoreKit 1 world in StoreKit 1's.
    @Test func theObserverKeysHelpIsInTheWorldsWords() {
        for (preset, words, not) in [
            (PolicyPreset.sk2Naive, "Transaction.updates listener", "SKPaymentQueue"),
            (.naive, "SKPaymentQueue.default().add(observer)", "Transaction.updates listener"),
        ] {
            var d = Driver(UIModel(preset: preset))
            d.keys("p")
            d.key(.down)  // from the preset to the observer
            let text = d.screen(120, 40).text
            #expect(text.contains(words), "\(preset): \(text)")
            #expect(!text.contains(not), "\(preset): \(text)")
        }
    }
}
