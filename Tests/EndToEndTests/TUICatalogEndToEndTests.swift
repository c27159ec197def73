import Foundation
import Testing

/// Issue 52, items 5 and 7, on the real screen: a team's catalog (`--storekit`) is named in
/// the header with its currency, its prices carry the currency, its groups show by name, and
/// what it does not model is said at start and in help; the billing grace period is switched
/// from the `C` menu or given with `--grace-period`.
@Suite(.serialized) struct TUICatalogEndToEndTests {
    let e2e = TUIEndToEndTests()
    static let sizes = [(80, 24), (120, 40)]

    func waitForSK2Panels(_ tmux: Tmux) throws -> String {
        try tmux.wait("the StoreKit 2 panels") { screen in
            ["App", "Transactions", "Auditor", "Events"].allSatisfy { !screen.panel($0).isEmpty }
        }
    }

    @Test func theTeamsCatalogIsOnTheRealScreenAtBothSizes() throws {
        for (width, height) in Self.sizes {
            let tmux = try Tmux(
                ["--storekit", "scenarios/dungeon.storekit", "--policy", "sk2-naive"], width: width, height: height)
            defer { tmux.kill() }
            let start = try waitForSK2Panels(tmux)
            let lines = start.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines[0].contains("dungeon.storekit GBP"), "\(width)x\(height) header: \(lines[0])")
            #expect(lines[0].contains("sk2-naive") && lines[0].hasSuffix("? help"), "\(lines[0])")
            #expect(start.contains("catalog: scenarios/dungeon.storekit, 7 products, prices in GBP"), "\(start)")
            #expect(start.panel("Auditor").contains("£0.00"), "\(start.panel("Auditor"))")
            try tmux.send("b")
            // At 80 columns the win-back offer's longer name (pass_yearly offer yearly_comeback) cuts the rest.
            let picker = try tmux.wait(for: "subscription, group Dungeon")
            #expect(picker.contains("£0.99") && picker.contains("£49.99"), "\(picker)")
            #expect(!picker.contains("group 21480001"), "\(picker)")
            try tmux.send("Escape", "?")
            let help = try tmux.wait(for: "Catalog")
            // Wrapped inside the box (two columns at 120): these words stay on one line.
            #expect(help.contains("modelled: non-renewing"), "\(help)")
            #expect(help.contains("no grant named for gems_small, gems_chest"), "\(help)")
            try tmux.send("Escape", "q")
            try e2e.expectCleanExit(tmux)
        }
    }

    /// The grace row of `C` switches grace on in the running world (the subscription stays),
    /// and a renewal that fails then puts it in grace, not billing retry.
    @Test func theSubscriptionMenuSwitchesGraceOnLive() throws {
        let tmux = try Tmux(["--policy", "sk2-naive", "--users", "alice"], width: 120, height: 40)
        defer { tmux.kill() }
        _ = try waitForSK2Panels(tmux)
        try tmux.send("b", "4")
        try tmux.wait(for: "answered: credited 1000000000001")
        try tmux.send("C")
        // The rows: billing, auto-renew, three plans, refund, delay, then grace (8).
        let menu = try tmux.wait(for: "8 grace period 16d")
        #expect(menu.contains("1 billing fails"), "\(menu)")
        try tmux.send("8")
        try tmux.wait(for: "billing grace period 16d (App Store Connect)")
        try tmux.send("C", "1")
        try tmux.wait(for: "payment method fails")
        // The Subscriptions view, stepped one event at a time to the failed renewal (a month
        // on, then daily retries): in grace, access kept, not billing retry.
        try tmux.send("T")
        try tmux.wait(for: "Subscriptions (T closes")
        var view = ""
        for _ in 0..<20 where !view.contains("pro_monthly · grace ·") {
            try tmux.send(".")
            usleep(150_000)
            view = tmux.screen()
        }
        #expect(view.contains("pro_monthly · grace · auto-renew on · in grace until Feb 17"), "\(view)")
        #expect(!view.contains("· billing retry ·"), "\(view)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    @Test func theGracePeriodFlagIsReadAndABadValueRefused() throws {
        let bad = try CLI.run(["--grace-period", "5d"])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains("--grace-period: \"5d\" is not a billing grace period; accepted: off, 3d, 16d, 28d"),
            "\(bad.stderr)")
        let tmux = try Tmux(["--policy", "sk2-naive", "--grace-period", "16d"], width: 80, height: 24)
        defer { tmux.kill() }
        _ = try waitForSK2Panels(tmux)
        try tmux.send("C")
        let menu = try tmux.wait(for: "grace period off")
        #expect(!menu.contains("grace period 16d"), "\(menu)")
        try tmux.send("Escape", "q")
        try e2e.expectCleanExit(tmux)
    }
}
