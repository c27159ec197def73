import Foundation
import Testing

/// The real `iapsim` binary in a real terminal: a private tmux server (its own socket file, no
/// config), driven with send-keys and read with capture-pane. The pane runs a small shell
/// script so that after iapsim exits it shows `EXIT=<status>`, `stty -a` and `STTY-END`.
final class Tmux {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    nonisolated(unsafe) private static var counter = 0
    /// Generous: CI runs these beside the mutation test on two cores; polling makes a pass fast.
    static let timeout: Double = 45

    let socket: String
    private var alive = true

    /// Starts `iapsim ARGUMENTS` in a detached `width`x`height` session, in `directory`
    /// (the repository root by default).
    init(
        _ arguments: [String], directory: String = CLI.root.path, width: Int = 120,
        height: Int = 40, environment: [String: String] = [:]
    ) throws {
        guard let tmux = Tmux.executable else {
            throw Failure(
                description: "tmux is not installed: the terminal UI's end-to-end tests "
                    + "need it (apt-get install tmux; .ci/run installs it)")
        }
        Tmux.counter += 1
        socket =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "iapsim-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(Tmux.counter).sock"
            ).path
        self.tmuxPath = tmux
        let command = ([CLI.binary.path] + arguments).map(Tmux.quote).joined(separator: " ")
        let script =
            "ulimit -c 0 2>/dev/null; cd \(Tmux.quote(directory)) && \(command); echo \"EXIT=$?\"; stty -a; echo STTY-END; sleep 30"
        var env = ["LANG": "C.UTF-8", "LC_ALL": "", "NO_COLOR": "", "TERM": "xterm-256color"]
        env.merge(environment) { $1 }
        let flags = env.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try startServer(["new-session", "-d", "-x", "\(width)", "-y", "\(height)"] + flags + [script])
        try tmuxCommand(["set-option", "-g", "status", "off"])
    }

    private let tmuxPath: String

    deinit { kill() }

    /// Stops the server and everything in it.
    func kill() {
        guard alive else { return }
        alive = false
        _ = try? tmuxCommand(["kill-server"])
        // tmux leaves its socket file behind.
        try? FileManager.default.removeItem(atPath: socket)
    }

    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = "\(dir)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmuxCommand(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmuxPath)
        process.arguments = ["-S", socket, "-f", "/dev/null"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs the tmux client that starts the server, with no signal blocked or ignored: a
    /// test runs on a thread that blocks most signals, and Foundation's `Process` would hand
    /// that mask down to the server and the pane (where SIGHUP, SIGINT, SIGTERM and SIGWINCH
    /// would then never arrive). Its output goes to /dev/null: the server keeps inherited
    /// descriptors open.
    private func startServer(_ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTTIN, SIGTTOU, SIGWINCH, SIGCHLD] {
            sigaddset(&defaults, sig)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([tmuxPath, "-S", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmuxPath, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start tmux: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw Failure(description: "tmux new-session failed (status \(status))") }
    }

    /// Keys as tmux names them: "q", "Space", "Enter", "Escape", "C-c", "Tab".
    func send(_ keys: String...) throws {
        try tmuxCommand(["send-keys", "-t", "0"] + keys)
    }

    func resize(width: Int, height: Int) throws {
        try tmuxCommand(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The visible screen as text.
    func screen() -> String {
        (try? tmuxCommand(["capture-pane", "-p", "-t", "0"])) ?? ""
    }

    /// The screen and the scrollback, wrapped lines joined: the shell's output after iapsim
    /// (which may scroll past the top of a small window).
    func history() -> String {
        (try? tmuxCommand(["capture-pane", "-p", "-J", "-S", "-200", "-t", "0"])) ?? ""
    }

    /// The visible screen with its SGR escape sequences (colours, bold, reverse).
    func screenWithEscapes() -> String {
        (try? tmuxCommand(["capture-pane", "-p", "-e", "-t", "0"])) ?? ""
    }

    /// Polls the screen every 20 ms until `condition` holds; on timeout throws with the screen.
    @discardableResult
    func wait(
        _ what: String, timeout: Double = Tmux.timeout,
        until condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = screen()
            if condition(last) { return last }
            usleep(20_000)
        }
        throw Failure(description: "gave up after \(timeout) s waiting for \(what); the screen:\n\(last)")
    }

    /// Waits until `text` is on the screen (lines joined, runs of spaces as one, so a message
    /// wrapped over two lines counts).
    @discardableResult
    func wait(for text: String, timeout: Double = Tmux.timeout) throws -> String {
        try wait("\"\(text)\"", timeout: timeout) { Tmux.flat($0).contains(Tmux.flat(text)) }
    }

    func waitGone(_ text: String, timeout: Double = Tmux.timeout) throws {
        try wait("\"\(text)\" to go", timeout: timeout) { !$0.contains(text) }
    }

    static func flat(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// Waits for the script's `EXIT=` line and the end of `stty -a`; returns the status and
    /// the `stty -a` text.
    func exitAndStty() throws -> (status: Int, stty: String) {
        let deadline = Date().addingTimeInterval(Tmux.timeout)
        var screen = history()
        // `stty -a` prints several lines; the marker after it says it has printed them all
        // (waiting for one of its lines raced the rest of them under load).
        while !(screen.split(separator: "\n").contains { $0.hasPrefix("EXIT=") }
            && screen.split(separator: "\n").contains { $0.hasPrefix("STTY-END") })
        {
            guard Date() < deadline else {
                throw Failure(description: "gave up waiting for EXIT= after iapsim; the screen:\n\(self.screen())")
            }
            usleep(20_000)
            screen = history()
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let index = lines.firstIndex { $0.hasPrefix("EXIT=") }!
        let end = lines.firstIndex { $0.hasPrefix("STTY-END") }!
        let status = Int(lines[index].dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? -1
        return (status, lines[(index + 1)..<max(index + 1, end)].joined(separator: "\n"))
    }

    /// The pid of iapsim: the child of the pane's shell.
    func iapsimPid() throws -> Int32 {
        let shell = try tmuxCommand(["list-panes", "-t", "0", "-F", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = "/proc/\(shell)/task/\(shell)/children"
        if let text = try? String(contentsOfFile: children, encoding: .utf8),
            let first = text.split(separator: " ").first, let pid = Int32(first)
        {
            return pid
        }
        throw Failure(description: "no child process of the pane's shell \(shell)")
    }
}

extension String {
    /// The text inside the panel titled `title` (its box, from the title line down to the
    /// bottom edge), or "" when there is no such panel on screen.
    func panel(_ title: String) -> String {
        let lines = split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        for (row, line) in lines.enumerated() {
            let text = String(line)
            guard let range = text.range(of: "┌ \(title) ") ?? text.range(of: "+ \(title) ") else { continue }
            let start = text.distance(from: text.startIndex, to: range.lowerBound)
            let end = line[(start + 1)...].firstIndex { "┐+".contains($0) } ?? line.count - 1
            var out: [String] = []
            for r in (row + 1)..<lines.count {
                let l = lines[r]
                guard start < l.count, !"└+".contains(l[start]) else { break }
                out.append(String(l[start..<min(end + 1, l.count)]))
            }
            return out.joined(separator: "\n")
        }
        return ""
    }

    /// Columns (display columns, CJK counted two) of the box-drawing characters of each line.
    var borderColumns: [[Int]] {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var column = 0
            var found: [Int] = []
            for ch in line {
                if "│┌┐└┘".contains(ch) { found.append(column) }
                let v = ch.unicodeScalars.first!.value
                column +=
                    (0x2E80...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v)
                        || (0xFF00...0xFF60).contains(v) ? 2 : 1
            }
            return found
        }
    }

    /// The foreground and background colour parameters (30-37, 38, 40-47, 48, 90-97, 100-107)
    /// in the SGR sequences of the text.
    var colourParameters: [Int] {
        var out: [Int] = []
        var rest = Substring(self)
        while let start = rest.range(of: "\u{1b}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !"0123456789;".contains($0) }) else { break }
            if rest[end] == "m" {
                for p in rest[..<end].split(separator: ";").compactMap({ Int($0) })
                where (30...38).contains(p) || (40...48).contains(p) || (90...97).contains(p) || (100...107).contains(p)
                {
                    out.append(p)
                }
            }
            rest = rest[end...]
        }
        return out
    }

    /// The lines of the text that contain `word`.
    func lines(containing word: String) -> [String] {
        split(separator: "\n").map(String.init).filter { $0.contains(word) }
    }
}
