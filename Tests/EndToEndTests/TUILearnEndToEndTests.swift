import Foundation
import Testing

/// `iapsim learn`, the scenario browser and the split screen, in a real terminal (tmux).
@Suite(.serialized) struct TUILearnEndToEndTests {
    let e2e = TUIEndToEndTests()

    @Test func aLessonAsksInspectsAndPutsTheFixBesideIt() throws {
        let tmux = try Tmux(["learn"])
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.wait(for: "lesson 1 of 8: watch")
        try tmux.send("Enter")
        // Nothing on screen answers the question to come: no anomaly name, the auditor held back.
        let before = try tmux.wait(for: "held back until you have answered")
        #expect(!before.contains("lost-order") && !before.contains("uncredited"), "\(before)")
        try tmux.send("Enter")  // the step before the deciding one asks
        let asked = try tmux.wait(for: "Will her 100")
        #expect(!asked.contains("lost-order"), "\(asked)")
        try tmux.send("Enter")
        try tmux.wait(for: "Anomaly A1", timeout: 20)
        try tmux.wait(for: "A1 lost-order")
        try tmux.send("q")  // closes the inspector; the fix comes beside it
        try tmux.wait(for: "policy hardened (same inputs")
        try tmux.wait(for: "avoided: lost-order")
        try tmux.send("]")
        try tmux.wait(for: "lesson 2 of 8: watch")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }

    @Test func theBrowserOpensAnotherFileWithoutQuitting() throws {
        let tmux = try Tmux(["play", "scenarios/replay-fraud-naive.yaml"], width: 80, height: 24)
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.send("O")
        try tmux.wait(for: "Scenarios (")
        // The files in scenarios/README.md's order, each naive file before its fix: the
        // next after replay-fraud-naive is its fix, the one before it ends "Missed order".
        try tmux.send("Escape", "]")
        try tmux.wait(for: "playing scenarios/replay-fraud-blocked-hardened.yaml")
        try tmux.send("[", "[")
        try tmux.wait(for: "playing scenarios/missed-order-offline-hardened.yaml")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}

/// The virtual clock waits while nobody can see the world: stopped (Ctrl-Z) or too small.
@Suite(.serialized) struct TUIClockEndToEndTests {
    let e2e = TUIEndToEndTests()

    /// The header's clock, in milliseconds.
    static func clock(_ tmux: Tmux) -> Int? {
        let words = tmux.screen().split(separator: "\n").first?.split(separator: " ") ?? []
        guard words.count > 1 else { return nil }
        let parts = words[1].split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int($0) }
        guard parts.count == 4 else { return nil }
        return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000 + parts[3]
    }

    @Test func aStoppedOrTooSmallUIDoesNotMoveTheClock() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        let pid = try tmux.iapsimPid()
        #expect(kill(pid, SIGSTOP) == 0)
        let before = TUIClockEndToEndTests.clock(tmux) ?? 0
        Thread.sleep(forTimeInterval: 3)
        #expect(kill(pid, SIGCONT) == 0)
        try e2e.waitForPanels(tmux)
        let after = TUIClockEndToEndTests.clock(tmux) ?? Int.max
        #expect(after - before < 1_500, "stopped 3 s, the clock moved \(after - before) ms")
        try tmux.resize(width: 60, height: 15)
        try tmux.wait(for: "Terminal too small")
        Thread.sleep(forTimeInterval: 2)
        try tmux.resize(width: 120, height: 40)
        try e2e.waitForPanels(tmux)
        let resized = TUIClockEndToEndTests.clock(tmux) ?? Int.max
        #expect(resized - after < 1_500, "too small for 2 s, the clock moved \(resized - after) ms")
        try tmux.send("q")
        try e2e.expectCleanExit(tmux)
    }
}

/// A recording follows a resize and says where it went.
@Suite(.serialized) struct TUIRecordingResizeEndToEndTests {
    let e2e = TUIEndToEndTests()

    @Test(.enabled(if: Asciinema.path != nil, Comment(rawValue: Asciinema.missing)))
    func aResizeIsRecordedAndTheFileIsNamedAtTheEnd() throws {
        let directory = try TUITeachingEndToEndTests.temporaryDirectory("resize")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cast = directory.appendingPathComponent("demo.cast").path
        let tmux = try Tmux(["play", "scenarios/ask-to-buy.yaml", "--record", cast])
        defer { tmux.kill() }
        try e2e.waitForPanels(tmux)
        try tmux.resize(width: 100, height: 30)
        try tmux.wait("the 100-column frame") { $0.split(separator: "\n").first?.count ?? 0 <= 100 }
        try e2e.waitForPanels(tmux)
        try tmux.send("q")
        // The line may wrap at 100 columns: read it joined.
        try tmux.wait("where the recording went") {
            $0.replacingOccurrences(of: "\n", with: "").contains("recorded \(cast); `asciinema play \(cast)` shows it")
        }
        let text = try String(contentsOfFile: cast, encoding: .utf8)
        #expect(text.contains(", \"r\", \"100x30\"]\n"), "\(text.prefix(400))")
        let read = try Asciinema.cat(cast)
        #expect(read.status == 0, "\(read.errors)")
    }
}
