import Foundation
import Testing

/// Issue 52 (review N6, N8, N9): a lesson's question and what fits at 80x24, on the real
/// binary in a real terminal (tmux), at 120x40 and 80x24.
@Suite(.serialized) struct TUILessonScreenEndToEndTests {
    let e2e = TUIEndToEndTests()
    static let sizes = [(120, 40), (80, 24)]

    /// `learn` at `w`x`h`, lesson `lesson` (1-based), `enters` steps played, its question
    /// (which says `question`) asked and closed with Esc: the screen behind it.
    func asked(_ tmux: Tmux, lesson: Int, enters: Int, question: String) throws -> String {
        try e2e.waitForPanels(tmux)
        for _ in 1..<lesson { try tmux.send("]") }
        try tmux.wait(for: "lesson \(lesson) of 8: watch")
        for _ in 0..<enters { try tmux.send("Enter") }
        try tmux.wait(for: question, timeout: 30)
        try tmux.send("Escape")
        try tmux.waitGone("what happens next?")
        return try tmux.wait(for: "WAITING: answer")
    }

    /// N6: lesson 3 asks about Mallory's honest purchase once it is charged and credited
    /// on screen, and before the replay; N8: after Esc the header says the clock waits.
    @Test(arguments: sizes)
    func lessonThreeAsksOnceTheHonestPurchaseIsOnScreen(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["learn"], width: w, height: h)
        defer { tmux.kill() }
        let screen = try asked(tmux, lesson: 3, enters: 1, question: "Mallory bought 100")
        #expect(screen.contains("mallory  100 coins"), "\(screen)")
        #expect(!screen.contains("RUNNING") && !screen.contains("> replay"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    /// N8: lesson 6's auditor has found the lost order before the question: Events hold
    /// its line back as the Auditor panel does.
    @Test(arguments: sizes)
    func eventsHoldTheAuditorBackUntilTheAnswer(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["learn"], width: w, height: h)
        defer { tmux.kill() }
        let screen = try asked(tmux, lesson: 6, enters: 4, question: "Who will get the coins")
        // In the Auditor panel (its first line, cut at 80 columns), and in Events where the
        // auditor's first line would be.
        let lines = screen.split(separator: "\n")
        #expect(lines.filter { $0.contains("held back until you have answered") }.count == 2, "\(screen)")
        #expect(
            lines.contains { $0.contains("Auditor") && $0.contains("held back until you have answered the lesson") })
        #expect(!screen.contains("lost-order") && !screen.contains("RUNNING"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    /// N9: at 80x24 lesson 1's deciding step says whole what it turns on.
    @Test(arguments: sizes)
    func lessonOnesStepTextIsWhole(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["learn"], width: w, height: h)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("Enter", "Enter")
        try tmux.wait(for: "Will her 100", timeout: 30)
        try tmux.send("Enter")
        try tmux.wait(for: "Anomaly A1", timeout: 30)
        try tmux.send("q")
        let screen = try tmux.wait(for: "No observer is registered at launch")
        #expect(!screen.contains("more line"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    /// N9: the Subscriptions view's line of a subscriber keeps what the server grants and
    /// the anomaly at 80 columns.
    @Test(arguments: sizes)
    func theSubscribersLineKeepsTheServersWordsAndTheAnomaly(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["play", "scenarios/sub-grace-cut-naive.yaml"], width: w, height: h)
        defer { tmux.kill() }
        try tmux.wait(for: "Events")
        try tmux.send("Enter", "Enter", "Enter", "Enter", "Enter")
        try tmux.wait(for: "grace-cut", timeout: 30)
        try tmux.send("T")
        let screen = try tmux.wait(for: "in grace until")
        #expect(Tmux.flat(screen).contains("server grants no access"), "\(screen)")
        #expect(screen.contains("A1 grace-cut open"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}

/// Issue 52 item 10 (review N10): what the panels say after the sandbox's own keys.
@Suite(.serialized) struct TUILeftoversEndToEndTests {
    let e2e = TUIEndToEndTests()

    /// `b 1`, `m 1` under naive: the queue says REFUNDED, and so does the Merchant's order row.
    @Test(arguments: TUILessonScreenEndToEndTests.sizes)
    func aRefundedOrderSaysSoInTheMerchantPanel(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["--policy", "naive"], width: w, height: h)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("b", "1")
        try tmux.wait("the order credited") { $0.panel("Merchant server").contains("credited …0001") }
        try tmux.send("m", "1")
        let screen = try tmux.wait(for: "REFUNDED")
        let row = screen.panel("Merchant server").split(separator: "\n").first { $0.contains("o1") } ?? ""
        #expect(row.contains("refunded"), "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}

extension TUILeftoversEndToEndTests {
    /// StoreKit 2: a renewal's row says `renewal` (Apple's transactionReason), not `verified`
    /// as a charge no purchase() returned would, beside the purchase's `success`.
    @Test(arguments: TUILessonScreenEndToEndTests.sizes)
    func aRenewalsRowSaysRenewal(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["play", "scenarios/sub-grace-cut-naive.yaml"], width: w, height: h)
        defer { tmux.kill() }
        try tmux.wait(for: "Transactions")
        try tmux.send("G")
        let screen = try tmux.wait(for: "ENDED")
        let rows = screen.panel("Transactions").split(separator: "\n")
        #expect(rows.contains { $0.contains("0002") && $0.contains("renewal") }, "\(screen)")
        // 80x24's panel has room for the newest row only.
        if h >= 40 { #expect(rows.contains { $0.contains("0001") && $0.contains("success") }, "\(screen)") }
        #expect(!rows.contains { $0.contains("verified") }, "\(screen)")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}
