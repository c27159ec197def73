import Foundation
import Testing

/// Issue 52, item 10's leftovers, on the real binary in a real terminal (tmux), at 120x40
/// and 80x24.
@Suite(.serialized) struct TUIItemTenEndToEndTests {
    let e2e = TUIEndToEndTests()
    static let sizes = [(120, 40), (80, 24)]

    /// The inspector's text, every page of it (it scrolls at 80x24), runs of spaces as one.
    func inspector(_ tmux: Tmux, reading pages: Int = 4) throws -> String {
        var text = try tmux.wait(for: "Anomaly A1")
        for _ in 0..<pages {
            try tmux.send("NPage")
            usleep(200_000)
            text += tmux.screen()
        }
        return Tmux.flat(text.replacingOccurrences(of: "│", with: " "))
    }

    /// A purchase in trouble put right by a live key change (the policy panel) names the
    /// change in its inspector: `resolved by: observer launch`.
    @Test(arguments: sizes)
    func aPurchaseSavedByALiveKeyChangeNamesIt(_ w: Int, _ h: Int) throws {
        let tmux = try Tmux(["--policy", "naive"], width: w, height: h)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("c", "2", "b", "1")
        try tmux.wait(for: "crash ran when charged")
        try tmux.send("+", "+", "+", "+")
        try tmux.wait(for: "lost-order open", timeout: 30)
        try tmux.send("p")
        try tmux.wait(for: "Policy (changes apply now)")
        try tmux.send("j", "Right")
        try tmux.wait(for: "observer ← launch →")
        try tmux.send("Escape")
        try tmux.waitGone("Policy (changes apply now)")
        try tmux.send("l")
        try tmux.wait(for: "lost-order resolved", timeout: 30)
        try tmux.send("i")
        try tmux.wait(for: "Anomaly A1")
        // The what-if replays run after the first frame; on two loaded cores they take a while.
        try tmux.waitGone("working it out", timeout: 180)
        let text = try inspector(tmux)
        #expect(text.contains("resolved by: observer launch"), "\(text)")
        try tmux.send("q", "q")
        try e2e.expectCleanExit(tmux)
    }
}
