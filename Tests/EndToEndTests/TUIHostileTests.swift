import Foundation
import Testing

/// The terminal UI against signals and terminals it cannot use: SIGQUIT quits like q, a
/// stop and continue gives the screen and the keys back, TERM=dumb is refused.
@Suite(.serialized) struct TUIHostileTests {
    let ui = TUIEndToEndTests()

    @Test func sigquitQuitsLikeQWithTheTerminalRestored() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try ui.waitForPanels(tmux)
        #expect(kill(try tmux.iapsimPid(), SIGQUIT) == 0)
        try ui.expectCleanExit(tmux)
        #expect(!tmux.history().contains("Stack dump") && !tmux.history().contains("backtrace"))
    }

    /// While stopped, the terminal is put back in cooked mode and wiped (what a shell's job
    /// control may do); after SIGCONT the panels are back and a single key is read again.
    @Test func continueAfterAStopRedrawsAndReadsKeysAgain() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try ui.waitForPanels(tmux)
        let pid = try tmux.iapsimPid()
        #expect(kill(pid, SIGSTOP) == 0)
        let tty = try tmux.tmuxCommand(["display-message", "-p", "-t", "0", "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.shell("stty -F \(tty) sane && printf '\\033[?1049l\\033[H\\033[2J' > \(tty)")
        try tmux.wait("the screen wiped") { screen in
            TUIEndToEndTests.panels.allSatisfy { screen.panel($0).isEmpty }
        }
        #expect(kill(pid, SIGCONT) == 0)
        try ui.waitForPanels(tmux)
        try tmux.send("q")
        try ui.expectCleanExit(tmux)
    }

    /// A key bound to nothing (a letter, a function key, a control key) is named on the
    /// status line, with where the keys are listed; nothing else happens, and q still quits.
    @Test func anUnboundKeyIsNamedAndChangesNothing() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try ui.waitForPanels(tmux)
        try tmux.send("Space")  // paused: the screen can change only by a key
        try tmux.wait(for: "PAUSED")
        for (key, words) in [
            ("Z", "key 'Z' is not bound; ? lists every key"), ("C-x", "Ctrl-X: key not bound; ? lists every key"),
            ("IC", "Insert: key not bound; ? lists every key"),
        ] {
            try tmux.send(key)
            try tmux.wait(for: words)
        }
        // F1 is help, as in most terminal programs; q closes it.
        try tmux.send("F1")
        try tmux.wait(for: "Keys and legend")
        try tmux.send("q")
        try tmux.waitGone("Keys and legend")
        let screen = tmux.screen()
        #expect(screen.contains("4 events") && screen.contains("no transactions yet"), "\(screen)")
        try tmux.send("q")
        try ui.expectCleanExit(tmux)
    }

    /// In a pseudo-terminal from `script` (tmux would set its own TERM).
    @Test func aTerminalThatCannotMoveTheCursorIsRefused() throws {
        for (term, words) in [
            ("dumb", "TERM=dumb cannot move the cursor"),
            ("no-such-terminal", "TERM=no-such-terminal is a terminal type this system does not know"),
        ] {
            let output = try Self.shell(
                "TERM=\(term) script -qec \(Tmux.quote(CLI.binary.path)) /dev/null; "
                    + "echo \"EXIT=$?\"")
            #expect(output.contains("EXIT=2"), "TERM=\(term): \(output)")
            #expect(
                output.contains(
                    "iapsim: cannot start the terminal UI: \(words); the terminal UI "
                        + "needs a terminal that can move the cursor, such as TERM=xterm-256color"),
                "TERM=\(term): \(output)")
            #expect(!output.contains("\u{1B}"), "nothing drawn: \(output.debugDescription)")
        }
    }

    /// Runs `command` in sh; its standard output.
    @discardableResult
    static func shell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Tmux.Failure(description: "\(command) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
