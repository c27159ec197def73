/// A key as the UI understands it; the terminal edge translates what ncurses reports.
package enum Key: Sendable, Hashable {
    case char(Character)
    case enter, escape, tab, backTab, backspace
    case up, down, left, right, pageUp, pageDown, home, end
    case ctrlC
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
    /// The edge started or stopped recording the screen (`.toggleRecording`), or failed to.
    case recordingStarted(path: String)
    case recordingStopped(path: String)
    case recordingFailed(reason: String)
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
}
