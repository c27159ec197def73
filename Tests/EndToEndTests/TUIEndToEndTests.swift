import Foundation
import Testing

/// The terminal UI end to end: the real binary in a real terminal (tmux), keys in, screen out,
/// and the terminal given back (`stty -a` shows `icanon`) on every way out.
@Suite(.serialized) struct TUIEndToEndTests {
    static let panels = ["App", "Payment queue", "Merchant server", "Network", "Auditor", "Events"]

    /// Waits until every panel title is on screen.
    @discardableResult
    func waitForPanels(_ tmux: Tmux) throws -> String {
        try tmux.wait("every panel title") { screen in
            TUIEndToEndTests.panels.allSatisfy { !screen.panel($0).isEmpty }
        }
    }

    /// Waits for the exit and checks the status and the restored terminal.
    func expectCleanExit(_ tmux: Tmux, status expected: Int = 0) throws {
        let (status, stty) = try tmux.exitAndStty()
        #expect(status == expected, "exit status; the screen:\n\(tmux.screen())")
        let words = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(words.contains("icanon") && !words.contains("-icanon"), "canonical mode back:\n\(stty)")
        #expect(words.contains("echo") && !words.contains("-echo"), "echo back:\n\(stty)")
    }

    @Test func startShowsEveryPanelAndTheHeader() throws {
        let tmux = try Tmux(["--policy", "naive", "--seed", "7"])
        defer { tmux.kill() }
        let screen = try waitForPanels(tmux)
        let header = screen.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("policy naive"), "header: \(header)")
        #expect(header.contains("seed 7"), "header: \(header)")
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func questionMarkOpensHelpAndEscapeClosesIt() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("?")
        try tmux.wait(for: "this help and the legend")
        try tmux.wait(for: "save the session as")
        try tmux.send("Escape")
        try tmux.waitGone("this help and the legend")
        try waitForPanels(tmux)
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    /// Waits for the too-small message at 40x12: 42 columns of text, so the render wraps it
    /// after "small:" and both halves must show.
    func waitForTooSmall(_ tmux: Tmux) throws {
        try tmux.wait(for: "Terminal too small:")
        try tmux.wait(for: "need 80x24, have 40x12")
    }

    @Test func resizeToTooSmallAndBack() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.resize(width: 40, height: 12)
        try waitForTooSmall(tmux)
        try tmux.resize(width: 120, height: 40)
        try waitForPanels(tmux)
        try tmux.waitGone("Terminal too small")
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func qStillQuitsWhenTheTerminalIsTooSmall() throws {
        let tmux = try Tmux([], width: 40, height: 12)
        defer { tmux.kill() }
        try waitForTooSmall(tmux)
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func qExitsZeroWithTheTerminalRestored() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func controlCExitsZeroWithTheTerminalRestored() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("C-c")
        try expectCleanExit(tmux)
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        let pid = try tmux.iapsimPid()
        #expect(kill(pid, SIGTERM) == 0)
        try expectCleanExit(tmux, status: 128 + Int(SIGTERM))
    }

    @Test func aCrashSignalRestoresTheTerminal() throws {
        // What a Swift trap raises on x86-64 (SIGTRAP on arm64); the same handler serves both.
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        #expect(kill(try tmux.iapsimPid(), SIGILL) == 0)
        try expectCleanExit(tmux, status: 128 + Int(SIGILL))
    }

    @Test func colourUnlessNoColor() throws {
        for (arguments, environment, coloured) in [
            ([String](), [String: String](), true),
            ([], ["NO_COLOR": "1"], false),
            (["--no-color"], [:], false),
        ] {
            let tmux = try Tmux(arguments, environment: environment)
            defer { tmux.kill() }
            try waitForPanels(tmux)
            let colours = tmux.screenWithEscapes().colourParameters.filter { $0 != 39 && $0 != 49 }
            #expect(colours.isEmpty != coloured, "\(arguments) \(environment): \(Set(colours))")
            try tmux.send("q")
            try expectCleanExit(tmux)
        }
    }

    @Test func asciiFramesWhenTheLocaleIsNotUTF8() throws {
        let tmux = try Tmux([], environment: ["LANG": "C"])
        defer { tmux.kill() }
        let screen = try tmux.wait("every panel title in ASCII frames") { screen in
            TUIEndToEndTests.panels.allSatisfy { screen.contains("+ \($0) ") }
        }
        #expect(!screen.unicodeScalars.contains { $0.value > 0x7e }, "\(screen)")
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func wideNamesKeepTheFramesAligned() throws {
        let tmux = try Tmux(["--users", "张三,李四"])
        defer { tmux.kill() }
        let screen = try tmux.wait("张三 in the Merchant server") { $0.panel("Merchant server").contains("张三") }
        let rows = screen.borderColumns
        let bottom =
            screen.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasPrefix("└") } ?? 1
        for row in 1...bottom {
            #expect(rows[row] == rows[1], "row \(row) borders at \(rows[row]), title row at \(rows[1]):\n\(screen)")
        }
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    /// The crash is armed on `charged` (`c`, then 2), so it lands right after the charge and
    /// before the callback however loaded the machine is.
    @Test func buyThenCrashThenLaunchResolvesTheLostOrder() throws {
        let tmux = try Tmux(["--speed", "64"])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("c")
        try tmux.wait(for: "right after the App Store charges")
        try tmux.send("2")
        try tmux.wait(for: "armed: crash when charged")
        try tmux.send("b")
        try tmux.wait(for: "coins_100")
        try tmux.send("Enter")
        try tmux.wait("the app crashed after the charge", timeout: 20) { screen in
            screen.panel("App").contains("crashed") && screen.panel("Events").contains("charged")
        }
        try tmux.wait("the Auditor showing lost-order open", timeout: 20) { screen in
            screen.panel("Auditor").lines(containing: "lost-order").contains { $0.contains("open") }
        }
        try tmux.send("l")
        try tmux.wait("the Auditor showing lost-order resolved", timeout: 20) { screen in
            screen.panel("Auditor").lines(containing: "lost-order").contains { $0.contains("resolved") }
        }
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    /// `.` while paused runs exactly one event: after a purchase, the order request arrives
    /// at the server, and nothing after it.
    @Test func dotRunsOneEventWhilePaused() throws {
        let tmux = try Tmux([])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("Space")
        try tmux.wait(for: "PAUSED")
        try tmux.send("b")
        try tmux.wait(for: "coins_100")
        try tmux.send("Enter")
        try tmux.wait(for: "order request sent")
        try tmux.send(".")
        let screen = try tmux.wait(for: "order request arrived after 80ms")
        // That one event (the server creating the order) sends the response; its arrival is
        // the next event, which must not have run.
        #expect(screen.contains("order response sent"), "\(screen)")
        #expect(!screen.contains("order response arrived"), "one event only:\n\(screen)")
        #expect(screen.contains("PAUSED"), "\(screen)")
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func playOfAShippedScenarioToTheEnd() throws {
        let tmux = try Tmux(["play", "scenarios/lost-order-crash-at-charge-hardened.yaml"])
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("G")
        try tmux.wait(for: "holds", timeout: 20)
        #expect(!tmux.screen().contains("FAILS"), "\(tmux.screen())")
        try tmux.send("q")
        try expectCleanExit(tmux)
    }

    @Test func saveWritesASessionThatRunPasses() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("iapsim-e2e-save-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try Tmux(["--speed", "64"], directory: directory.path)
        defer { tmux.kill() }
        try waitForPanels(tmux)
        try tmux.send("b")
        try tmux.wait(for: "coins_100")
        try tmux.send("Enter")
        try tmux.wait("the purchase in the Merchant server", timeout: 20) {
            $0.panel("Merchant server").contains("100")
        }
        try tmux.send("s")
        try tmux.wait(for: "iapsim-session-1.yaml", timeout: 20)
        try tmux.send("q")
        try expectCleanExit(tmux)
        let file = directory.appendingPathComponent("iapsim-session-1.yaml").path
        #expect(FileManager.default.fileExists(atPath: file))
        let run = try CLI.run(["run", file])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func playOfAnInvalidFileExitsTwoWithALocatedMessageAndNoCurses() throws {
        let file = CLI.fixture("invalid.yaml")
        let result = try CLI.run(["play", file])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "curses must not start: \(result.stdout.debugDescription)")
        #expect(result.stderr.hasPrefix("\(file):15:9: unknown command 'explode'"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func theUIRefusesToRunWithoutATerminal() throws {
        for arguments in [[], ["play", "scenarios/lost-order-crash-at-charge-hardened.yaml"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr == "iapsim: the terminal UI needs a terminal; "
                    + "for headless runs use `iapsim run FILE` or `iapsim check`\n")
        }
    }

    @Test func badSandboxFlagsExitTwo() throws {
        for arguments in [
            ["--speed", "3"], ["--users", "alice,alice"], ["--users", "alice,"],
            ["--policy", "nope"],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.stderr.isEmpty, "\(arguments)")
        }
    }
}
