import Foundation
import Testing

/// Issue 54's life events on the real screen: the `C` menu raises the subscription's price
/// (the renewal info then says `priceIncreaseStatus` 0 and the new `renewalPrice`) and lets a
/// family member join (their `FAMILY_SHARED` transaction reaches the server), at both sizes;
/// each row runs the command a scenario step runs, as the event log's `>` line shows.
@Suite(.serialized) struct TUILifeEventsEndToEndTests {
    let e2e = TUIEndToEndTests()
    let catalog = TUICatalogEndToEndTests()

    @Test func theSubscriptionMenuRaisesThePriceAndSharesWithTheFamily() throws {
        for (width, height) in TUICatalogEndToEndTests.sizes {
            let tmux = try Tmux(["--policy", "sk2-naive", "--users", "alice"], width: width, height: height)
            defer { tmux.kill() }
            _ = try catalog.waitForSK2Panels(tmux)
            try tmux.send("b", "4")
            try tmux.wait(for: "answered: credited 1000000000001")
            try tmux.send("C")
            // The rows past grace (8): the price increase's two kinds, then lettered rows.
            let menu = try tmux.wait("the life events' rows") {
                $0.contains("9 price increase (consent)") && $0.contains("s family sharing off")
            }
            for row in [
                "0 price increase (notify)", "a customer consents", "m defer messages", "f family member joins",
            ] {
                #expect(menu.contains(row), "\(width)x\(height) \(row):\n\(menu)")
            }
            // Nothing waits for consent yet: the row is greyed with the world's reason.
            #expect(menu.contains("(not now: no price increase waits"), "\(width)x\(height):\n\(menu)")
            #expect(menu.contains("1-9 0 a m f s pick"), "\(width)x\(height) footer:\n\(menu)")
            try tmux.send("9")
            let raised = try tmux.wait(for: "> price-increase pro_monthly 5.99 consent")
            #expect(raised.panel("Events").contains("price of pro_monthly raised from $4.99 to $5.99"), "\(raised)")
            // The renewal info as signed now, in the subscription's inspector.
            try tmux.send("T", "i")
            let inspector = try tmux.wait("the renewal info's price increase") {
                $0.contains("priceIncreaseStatus: 0 (the customer has not responded)")
                    && $0.contains("renewalPrice: 5.99")
            }
            #expect(inspector.contains("Subscription 1000000000001"), "\(inspector)")
            try tmux.send("Escape", "T", "C")
            try tmux.wait(for: "f family member joins")
            try tmux.send("f")
            // The member's app reports their own transaction: the server grants kid access.
            let joined = try tmux.wait("the member's transaction and the server's grant") {
                $0.panel("Events").contains("access of kid until")
            }
            let events = joined.panel("Events")
            for line in [
                "> join-family kid", "kid joins the purchaser's family", "Transaction.updates on kid's device emits",
            ] {
                #expect(events.contains(line), "\(width)x\(height) \(line):\n\(events)")
            }
            #expect(joined.panel("Merchant server").contains("0002"), "\(width)x\(height):\n\(joined)")
            // Now the row lets the member leave, and consent has a price increase to agree to.
            try tmux.send("C")
            let after = try tmux.wait(for: "f family member leaves")
            #expect(!after.contains("(not now: no price increase waits"), "\(after)")
            try tmux.send("Escape", "q")
            try e2e.expectCleanExit(tmux)
        }
    }
}
