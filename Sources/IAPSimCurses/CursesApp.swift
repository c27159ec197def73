import CNcurses
// Not used by name: importing the core makes an incremental build recompile this module when
// the core's layout changes (UIModel, held here by value, contains the simulation).
import IAPSimCore
import IAPSimTUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a terminal session ended.
package enum CursesExit: Sendable, Equatable {
    /// `q`, Ctrl-C or SIGQUIT (Ctrl-\): exit status 0.
    case quit
    /// SIGTERM or SIGHUP asked the program to stop: exit status 128 + the signal.
    case signal(Int32)

    package var status: Int32 {
        switch self {
        case .quit: return 0
        case .signal(let sig): return 128 + sig
        }
    }
}

/// The terminal edge: runs a `UIModel` on the real terminal. It blocks in `poll` until input
/// or the model's next tick (forever while the clock is stopped), feeds ticks, keys, resizes
/// and signals in as messages, carries out the effects, and redraws what changed.
package enum CursesApp {
    /// Colour and ASCII as the environment and flags decide; sets the locale from the
    /// environment (call it before building the model and before `run`).
    package static func environment(noColorFlag: Bool) -> (color: Bool, ascii: Bool) {
        let locale = Terminal.setLocaleFromEnvironment()
        let noColor = getenv("NO_COLOR").map { String(cString: $0) } ?? ""
        return (!noColorFlag && noColor.isEmpty, locale.ascii)
    }

    /// Whether standard input and output are both terminals.
    package static var haveTerminal: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Runs the UI until it quits. `makeModel` gets `options` with `color` turned off when
    /// the terminal has no colours. The terminal is restored before this returns or throws.
    /// `record`: a file to record the screen to (asciicast v2) from the first frame; it is
    /// written when the UI quits (or when `W` stops it).
    /// `open`: reads a scenario file the model asks for (`.openScenario`) and answers.
    package static func run(
        options: UIOptions, record: String? = nil,
        open: @escaping (String) -> UIMessage = { .scenarioFailed(path: $0, reason: "no files here") },
        makeModel: (UIOptions) -> UIModel
    ) throws -> CursesExit {
        let terminal = try Terminal(color: options.color)
        defer { terminal.stop() }
        var adjusted = options
        adjusted.color = terminal.color
        var loop = EventLoop(terminal: terminal, model: makeModel(adjusted))
        loop.open = open
        if let record { loop.startRecording(path: record) }
        let exit = loop.run()
        let failure = loop.stopRecording()
        terminal.stop()
        if let failure { throw RecordingError(reason: failure) }
        loop.stats.appendIfAsked(size: (terminal.width, terminal.height))
        return exit
    }
}

/// The recording could not be written.
package struct RecordingError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "could not write the recording: \(reason)" }
}

/// The loop itself, with the last frame drawn.
struct EventLoop {
    static let minFrameMs: Int64 = 16

    let terminal: Terminal
    var model: UIModel
    var dirty = true
    var lastFrameMs: Int64 = -1_000
    var lastTickMs: Int64 = cn_monotonic_ms()
    var stopSignal: Int32 = 0
    var stats = FrameStats()
    /// The screen recording under way: its file, when it began, the frames so far.
    var recording: (path: String, startMs: Int64, cast: Asciicast)?
    var open: (String) -> UIMessage = { .scenarioFailed(path: $0, reason: "no files here") }

    init(terminal: Terminal, model: UIModel) {
        self.terminal = terminal
        self.model = model
        _ = self.model.update(.resize(width: terminal.width, height: terminal.height))
    }

    mutating func run() -> CursesExit {
        while true {
            drawIfDue()
            _ = cn_wait_stdin(Int32(clamping: pollTimeout()))
            if let exit = step() { return exit }
        }
    }

    /// Milliseconds to block: until the model's next tick, or until a postponed frame is
    /// due; -1 to sleep until input or a signal.
    func pollTimeout() -> Int {
        var timeout = model.wakeDelayMs ?? -1
        if dirty {
            let wait = Int(max(0, EventLoop.minFrameMs - (cn_monotonic_ms() - lastFrameMs)))
            timeout = timeout < 0 ? wait : min(timeout, wait)
        }
        return timeout
    }

    /// One wake-up: the tick, a signal, then every key waiting; effects carried out.
    mutating func step() -> CursesExit? {
        let now = cn_monotonic_ms()
        var effects: [UIEffect] = []
        if cn_take_resumed() != 0 {
            terminal.resume()
            dirty = true
            // The world does not move while the process was stopped (Ctrl-Z): the stopped
            // time is not given to the clock.
            lastTickMs = now
        }
        let elapsed = now - lastTickMs
        lastTickMs = now
        if model.clockRunning { dirty = true }
        effects += model.update(.tick(wallMs: Int(elapsed)))
        let sig = cn_take_stop_signal()
        if sig != 0 {
            stopSignal = sig
            effects += model.update(.interrupted)
            dirty = true
        }
        if let exit = perform(effects) { return exit }
        // Each key's effects are carried out before the next key is read: a second `]` in
        // the same burst must see the file the first one opened.
        for message in terminal.readMessages() {
            if case .resize = message { terminal.invalidate() }
            dirty = true
            if let exit = perform(model.update(message)) { return exit }
        }
        return nil
    }

    mutating func perform(_ effects: [UIEffect]) -> CursesExit? {
        var pending = effects
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .quit:
                // Ctrl-C and SIGQUIT are quit keys like q; only SIGTERM and SIGHUP end with a
                // signal status.
                let quitKeys = [0, SIGINT, SIGQUIT]
                return quitKeys.contains(stopSignal) ? .quit : .signal(stopSignal)
            case .save(let baseName, let contents):
                let reply: UIMessage
                switch SessionFile.write(baseName: baseName, contents: contents) {
                case .success(let path): reply = .saved(path: path)
                case .failure(let error): reply = .saveFailed(reason: error.reason)
                }
                pending += model.update(reply)
                dirty = true
            case .saveHandout(let baseName, let contents):
                let reply: UIMessage
                switch SessionFile.write(baseName: baseName, contents: contents, ext: "md") {
                case .success(let path): reply = .handoutSaved(path: path)
                case .failure(let error): reply = .saveFailed(reason: error.reason)
                }
                pending += model.update(reply)
                dirty = true
            case .toggleRecording(let baseName):
                pending += model.update(toggleRecording(baseName: baseName))
                dirty = true
            case .openScenario(let path):
                pending += model.update(open(path))
                dirty = true
            case .afterFrame(let message):
                dirty = true
                lastFrameMs = 0
                drawIfDue()
                pending += model.update(message)
                dirty = true
            }
        }
        return nil
    }

    /// Renders and writes the changed cells when something changed and the last frame is at
    /// least `minFrameMs` old.
    mutating func drawIfDue() {
        guard dirty, cn_monotonic_ms() - lastFrameMs >= EventLoop.minFrameMs else { return }
        let start = cn_monotonic_us()
        let grid = model.render(width: terminal.width, height: terminal.height)
        if recording != nil {
            recording!.cast.add(grid, at: Double(cn_monotonic_ms() - recording!.startMs) / 1000)
        }
        let rendered = cn_monotonic_us()
        terminal.draw(grid)
        let diffed = cn_monotonic_us()
        terminal.flush()
        stats.record(renderUs: rendered - start, diffUs: diffed - rendered, outputUs: cn_monotonic_us() - diffed)
        dirty = false
        lastFrameMs = cn_monotonic_ms()
    }
}

extension EventLoop {
    mutating func startRecording(path: String) {
        recording = (
            path, cn_monotonic_ms(),
            Asciicast(width: terminal.width, height: terminal.height, unixTime: time(nil), color: terminal.color)
        )
        _ = model.update(.recordingStarted(path: path))
        dirty = true
    }

    /// Writes the recording (a new staged file, then rename, so a reader never sees half a
    /// file and nothing already there is written through); returns why it failed, if it did.
    mutating func stopRecording() -> String? {
        guard let (path, _, cast) = recording else { return nil }
        recording = nil
        do throws(StagedFile.Failure) {
            let file = try StagedFile(for: path)
            do {
                try file.write(cast.text)
                try file.finish()
                try file.putInPlace()
            } catch {
                file.discard()
                throw error
            }
        } catch {
            return error.message
        }
        return nil
    }

    /// `W`: stop the recording under way, or start one in a new `BASE-N.cast`.
    mutating func toggleRecording(baseName: String) -> UIMessage {
        if let path = recording?.path {
            if let failure = stopRecording() { return .recordingFailed(reason: failure) }
            return .recordingStopped(path: path)
        }
        for n in 1...10_000 {
            let path = "\(baseName)-\(n).cast"
            if access(path, F_OK) == 0 { continue }
            startRecording(path: path)
            return .recordingStarted(path: path)
        }
        return .recordingFailed(reason: "\(baseName)-1.cast to -10000.cast all exist")
    }
}
