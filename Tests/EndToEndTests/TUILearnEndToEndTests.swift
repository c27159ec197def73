import Foundation
import Testing

/// `iapsim learn`, the scenario browser and the split screen, in a real terminal (tmux).
@Suite(.serialized) struct TUILearnEndToEndTests {
    let e2e = TUIEndToEndTests()

    @Test func aLessonAsksInspectsAndPutsTheFixBesideIt() throws {
        let tmux = try Tmux(["learn"])
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.wait(for: "lesson 1 of 7: lost-order")
        try tmux.send("Enter", "Enter", "Enter")
        try tmux.wait(for: "Will her 100")
        try tmux.send("Enter")
        try tmux.wait(for: "Anomaly A1", timeout: 20)
        try tmux.wait(for: "A1 lost-order")
        try tmux.send("q")  // closes the inspector; the fix comes beside it
        try tmux.wait(for: "policy hardened (same inputs)")
        try tmux.wait(for: "avoided: lost-order")
        try tmux.send("]")
        try tmux.wait(for: "lesson 2 of 7: missed-order")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    @Test func theBrowserOpensAnotherFileWithoutQuitting() throws {
        let tmux = try Tmux(["play", "scenarios/replay-fraud-naive.yaml"], width: 80, height: 24)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("O")
        try tmux.wait(for: "Scenarios (")
        // The files of scenarios/ by name: the next after replay-fraud-naive, and the one before it.
        let names = try FileManager.default.contentsOfDirectory(
            atPath: CLI.root.appendingPathComponent("scenarios").path
        ).filter { $0.hasSuffix(".yaml") }.sorted()
        let here = try #require(names.firstIndex(of: "replay-fraud-naive.yaml"))
        try tmux.send("Escape", "]")
        try tmux.wait(for: "playing scenarios/\(names[here + 1])")
        try tmux.send("[", "[")
        try tmux.wait(for: "playing scenarios/\(names[here - 1])")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}
