import Foundation
import Testing

/// Issue 52 item 10: Events print a team catalog's prices in its currency, as the
/// storefront writes them (`charged £0.99`), never a bare amount.
extension TUIItemTenEndToEndTests {
    @Test(arguments: sizes)
    func eventsPrintPricesInTheCatalogsCurrency(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(
            ["--storekit", "scenarios/dungeon.storekit", "--policy", "sk2-naive"], width: w, height: h)
        defer { tmux.kill() }
        try tmux.wait(for: "Transactions")
        try tmux.send("b", "1")
        try tmux.wait(for: "answered: credited 1000000000001")
        try tmux.send("/")
        try tmux.send("-l", "charged")
        try tmux.send("Enter")
        let screen = try tmux.wait(for: "charged £0.99 for gems_small")
        #expect(!screen.contains("charged 0.99"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}
