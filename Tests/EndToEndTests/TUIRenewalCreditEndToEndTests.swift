import Foundation
import Testing

/// Issue 52 item 10: the Merchant panel lists the renewals its server credited, as it lists
/// purchases (`credited …0002 …0001`).
extension TUIItemTenEndToEndTests {
    @Test(arguments: sizes)
    func theMerchantPanelListsTheRenewalsItCredited(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["--policy", "sk2-naive"], width: w, height: h)
        defer { tmux.kill() }
        try tmux.wait(for: "Transactions")
        try tmux.send("b", "4")
        try tmux.wait("the purchase credited") { $0.panel("Merchant server").contains("credited …0001") }
        // `.` runs one event at a time, up to the renewal and the server's answer to its report.
        var screen = tmux.screen()
        for _ in 0..<40 where !screen.panel("Merchant server").contains("…0002") {
            try tmux.send(".")
            usleep(150_000)
            screen = tmux.screen()
        }
        screen = try tmux.wait("the renewal credited") { $0.panel("Merchant server").contains("…0002") }
        let credited = screen.panel("Merchant server").split(separator: "\n").first { $0.contains("credited") } ?? ""
        #expect(credited.contains("…0002") && credited.contains("…0001"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}
