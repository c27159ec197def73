import IAPSimCore
import Testing

@testable import IAPSimTUI

/// The keys for the world's newer commands: background/foreground and the next
/// verifyReceipt status.
@Suite struct TruthKeyTests {
    @Test func gSendsTheAppToTheBackgroundAndBack() {
        var d = Driver(UIModel())
        d.keys("g")
        #expect(d.model.simulation.app.inBackground)
        #expect(d.screen(120, 40).text.contains("background"))
        d.keys("g")
        #expect(!d.model.simulation.app.inBackground)
    }

    @Test func vPicksTheNextVerificationStatus() {
        var d = Driver(UIModel())
        d.keys("v")
        let text = d.screen(120, 40).text
        #expect(text.contains("21002") && text.contains(VerifyStatus.words(21_002)), "\(text)")
        d.key(.down)
        d.key(.enter)
        #expect(d.model.simulation.store.nextStatus == 21_002)
    }
}
