import IAPSimScenario

/// A key as the UI understands it; the terminal edge translates what ncurses reports.
package enum Key: Sendable, Hashable {
    case char(Character)
    case enter, escape, tab, backTab, backspace
    case up, down, left, right, pageUp, pageDown, home, end
    case ctrlC
    /// A key that the UI has no use for, by its name (`F1`, `Insert`, `Ctrl-X`): it is
    /// bound to nothing, and the status line names it when it is pressed.
    case other(String)

    /// The key as the help screen writes keys: `Z`, `Space`, `Enter`, `PgUp`, `F1`.
    package var name: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .ctrlC: "Ctrl-C"
        case .other(let name): name
        }
    }
}

/// Everything that reaches the UI from outside comes as one of these.
package enum UIMessage: Sendable, Hashable {
    case key(Key)
    /// Wall-clock milliseconds passed since the previous tick; the model turns them into
    /// virtual time at its speed (and ignores them while paused).
    case tick(wallMs: Int)
    case resize(width: Int, height: Int)
    /// SIGINT, SIGTERM or SIGHUP reached the process.
    case interrupted
    /// The edge wrote a file that a `.save` effect asked for.
    case saved(path: String)
    case saveFailed(reason: String)
    case handoutSaved(path: String)
    /// The edge started or stopped recording the screen (`.toggleRecording`), or failed to.
    case recordingStarted(path: String)
    case recordingStopped(path: String)
    case recordingFailed(reason: String)
    /// The edge read a scenario file an `.openScenario` effect asked for.
    case scenarioOpened(ScenarioFile)
    case scenarioFailed(path: String, reason: String)
    /// The edge has drawn the frame that says the replays are under way (`.afterFrame`):
    /// work out what caused the anomaly and what prevents it now.
    case workOutWhatIf
    /// The edge has drawn the frame that says anomaly `id`'s handout is being written
    /// (`.afterFrame`): replay the session and write it (walkthrough 6, N9: `H` showed
    /// nothing for as long as the replays took).
    case writeHandout(id: Int)
}

/// A scenario read from a file, as the edge hands it to the model.
package struct ScenarioFile: Sendable, Hashable {
    package var path: String
    package var scenario: Scenario

    package init(path: String, scenario: Scenario) {
        self.path = path
        self.scenario = scenario
    }

    package static func == (a: ScenarioFile, b: ScenarioFile) -> Bool { a.path == b.path && a.scenario == b.scenario }
    package func hash(into h: inout Hasher) { h.combine(path) }
}

/// What the model asks the edge to do; the model itself never does I/O.
package enum UIEffect: Sendable, Hashable {
    case quit
    /// Write `contents` to a new file named like `baseName-N.yaml` in the working directory
    /// (the edge picks N so that nothing is overwritten) and answer with `.saved` or
    /// `.saveFailed`.
    case save(baseName: String, contents: String)
    /// Start recording the screen to a new `baseName-N.cast` (asciicast v2), or stop the
    /// recording under way; answer with `.recordingStarted` / `.recordingStopped` / `.recordingFailed`.
    case toggleRecording(baseName: String)
    /// Write `contents` to a new `baseName-N.md` (an anomaly's handout) and answer with
    /// `.handoutSaved` or `.saveFailed`.
    case saveHandout(baseName: String, contents: String)
    /// Read and parse the scenario at `path`; answer with `.scenarioOpened` or `.scenarioFailed`.
    case openScenario(path: String)
    /// Draw the screen as it is now, then answer with `message`: what takes long (the
    /// replays of an anomaly's inspector, seconds in a long session) shows that it is under
    /// way before it starts.
    case afterFrame(UIMessage)
}
