import Foundation
import Testing

/// A StoreKit 2 play in a real terminal: every screen on the way to the verdict speaks
/// StoreKit 2, and none shows StoreKit 1's API or a receipt.
@Suite(.serialized) struct TUIStoreKit2EndToEndTests {
    let e2e = TUIEndToEndTests()

    /// Words of StoreKit 1 that an SK2 run's screens must not show.
    static let storeKit1Words = [
        "SKPaymentQueue", "SKPayment", "verifyReceipt", "receipt", "Payment queue",
        "paymentQueue", "finishTransaction", "applicationUsername", "in_app",
    ]

    func expectNoStoreKit1Words(_ screen: String, _ where_: String) {
        let found = TUIStoreKit2EndToEndTests.storeKit1Words.filter { screen.contains($0) }
        #expect(found.isEmpty, "\(where_): StoreKit 1 words \(found) on screen:\n\(screen)")
    }

    @Test func anSK2PlayToItsVerdictSpeaksStoreKit2() throws {
        let scenario = CLI.root.appendingPathComponent("scenarios/sk2-replay-fraud-naive.yaml").path
        let tmux = try Tmux(["play", scenario])
        defer { tmux.kill() }
        try tmux.wait("the Transactions panel") { !$0.panel("Transactions").isEmpty && !$0.panel("Events").isEmpty }
        try tmux.send("G")
        let end = try tmux.wait(for: "settled: every expectation holds", timeout: 20)
        expectNoStoreKit1Words(end, "the verdict")
        #expect(end.contains("PASS") && end.contains("0 in Transaction.unfinished"), "\(end)")
        #expect(end.panel("Transactions").contains("coins_100 success"), "\(end.panel("Transactions"))")
        #expect(end.panel("Auditor").contains("granted to a replayed JWS"), "\(end.panel("Auditor"))")
        let network = end.panel("Network")
        #expect(network.contains("recharge") && !network.contains("verify"), "no verify route in SK2:\n\(network)")

        try tmux.send("BTab", "BTab", "BTab", "BTab", "i")
        // Waits for the inspector's last lines too: a capture can catch a frame half drawn.
        let inspector = try tmux.wait("the signed transaction's fields in the inspector") {
            $0.contains("the signed transaction (jwsRepresentation)") && $0.contains("price: 990")
                && $0.contains("signed by: the App Store")
        }
        expectNoStoreKit1Words(inspector, "the transaction inspector")

        try tmux.send("Escape", "Tab", "Tab", "Tab", "i")
        let anomaly = try tmux.wait(for: "a replayed JWS: the genuine jwsRepresentation")
        expectNoStoreKit1Words(anomaly, "the anomaly inspector")

        // The legend is at the help's end: paged to, as a reader would (the keys above it
        // grow as keys are added).
        try tmux.send("Escape", "?", "NPage", "NPage", "NPage")
        let help = try tmux.wait(for: "unfinished: in Transaction.unfinished")
        expectNoStoreKit1Words(help, "the help overlay")
        try tmux.send("Escape", "q")
        try e2e.expectCleanExit(tmux)
    }
}
