import IAPSimCore
import IAPSimScenario

/// The Events panel's own choice of lines: one part only (`F`), a search (`/`), no Network
/// lines (`N`). Each change returns what the status line says about it.
package struct EventsView: Sendable, Hashable {
    /// Only this part's lines when set.
    package internal(set) var filter: Part?
    /// Only lines containing this text, ignoring case.
    package internal(set) var search: String?
    /// The Network part's lines left out.
    package internal(set) var hideNetwork = false

    /// Whether any line is left out.
    var isFiltered: Bool { filter != nil || hideNetwork || search != nil }

    /// `F`: every part, then one part at a time.
    mutating func cycleFilter() -> String {
        let parts = Part.allCases
        if let current = filter, let i = parts.firstIndex(of: current) {
            filter = i + 1 < parts.count ? parts[i + 1] : nil
        } else {
            filter = parts.first
        }
        return filter.map { "Events: only \($0.rawValue) (F: next part)" } ?? "Events: every part"
    }

    /// `N`: Events without (or with again) the Network part's lines.
    mutating func toggleNetwork() -> String {
        hideNetwork.toggle()
        return hideNetwork ? "Events: Network lines hidden (N shows them)" : "Events: Network lines shown"
    }

    /// The search box's Enter: `text`, or every line again when it is empty.
    mutating func searchFor(_ text: String) -> String {
        search = text.isEmpty ? nil : text
        return search.map { "Events: only lines with \"\($0)\" (/ then Enter on nothing shows all)" }
            ?? "Events: search cleared"
    }

    /// What the Events title says about the filters.
    var titleNote: String {
        var notes: [String] = []
        if let filter { notes.append("\(filter.rawValue) only") }
        if hideNetwork { notes.append("no Network") }
        if let search { notes.append("/\(search)") }
        return notes.isEmpty ? "" : ": " + notes.joined(separator: ", ")
    }
}

/// The Subscriptions view (`T`): shown in the panels' place, and the subscriber selected.
package struct SubscriptionsView: Sendable, Hashable {
    package internal(set) var shown = false
    /// The selected subscriber's row (j/k), kept inside the list.
    var selection = 0

    /// `T`: shows or closes the view; returns the status line's words.
    mutating func toggle() -> String {
        shown.toggle()
        return shown ? "Subscriptions: j k select, T closes" : "Subscriptions closed"
    }

    /// Moves the selection `delta` rows within `count` rows.
    mutating func move(by delta: Int, count: Int) {
        selection = max(0, min(count - 1, selection + delta))
    }

    /// The selected row of `count` rows (the list may have shrunk).
    func selected(of count: Int) -> Int { max(0, min(count - 1, selection)) }
}

/// Where a played file stands: waiting for Enter, the step narrated, what the person did
/// beside the file, and how the run ended.
package struct PlayState: Sendable {
    /// The clock stopped because the next step is due; Enter runs it.
    package internal(set) var waitingForStep = false
    /// The step whose `say` the narration shows (0-based), nil before the first.
    package internal(set) var narratedStep: Int?
    /// What the person did that the file does not (keys, policy changes).
    package internal(set) var offScript: [Command] = []
    /// How the run ended once `G` (or the last Enter) finished it.
    package internal(set) var result: ScenarioResult?

    /// Step `index` ran; the clock waits when the next one is due already.
    mutating func ran(step index: Int, nextIsDue: Bool) {
        narratedStep = index
        waitingForStep = nextIsDue
    }

    /// The run settled with `outcome`; the narration shows `lastStep`.
    mutating func finished(_ outcome: ScenarioResult, lastStep: Int?) {
        result = outcome
        waitingForStep = false
        narratedStep = lastStep
    }

    mutating func waitForStep() { waitingForStep = true }

    /// A command given beside the file.
    mutating func addOffScript(_ command: Command) { offScript.append(command) }
}

/// The split screen (`V`): the twin world, the same inputs under another policy, and what
/// each half avoided.
package struct SplitState: Sendable {
    package internal(set) var twin: ScenarioPlayer?
    /// What each half avoided, with the settings that saved it, worked out by the replays
    /// once both worlds are idle.
    package internal(set) var avoided: SplitAvoided?

    /// Closes the split: the twin goes, and what it avoided with it.
    mutating func close() {
        twin = nil
        avoided = nil
    }

    /// Brings the twin's clock up to `now`.
    mutating func sync(to now: VirtualTime) {
        if twin != nil, twin!.simulation.now < now { _ = twin!.advance(until: now) }
    }
}

/// The panels as seen: which has focus, which fills the screen (`z`), how far each is
/// scrolled down and right, and the selected row of the Auditor and the Payment queue.
package struct PanelsView: Sendable, Hashable {
    package internal(set) var focus: Panel = .events
    package internal(set) var zoomed: Panel?
    /// Lines from the top (from the bottom for Events).
    var scroll: [Panel: Int] = [:]
    /// Columns scrolled to the right, for lines wider than the panel.
    var hscroll: [Panel: Int] = [:]
    /// The selected row of the Auditor (anomalies, newest first) and the Payment queue.
    var selection: [Panel: Int] = [:]

    /// Tab (1) or Shift-Tab (-1); zoomed, the zoom pages along with the focus.
    mutating func moveFocus(by step: Int) {
        let count = Panel.allCases.count
        focus = Panel(rawValue: ((focus.rawValue + step) % count + count) % count)!
        if zoomed != nil { zoomed = focus }
    }

    /// `z`: the focused panel on the whole screen, or back.
    mutating func toggleZoom() { zoomed = zoomed == focus ? nil : focus }

    /// `h` / `L`: the focused panel `delta` columns sideways, within `0...limit`.
    mutating func scrollSideways(by delta: Int, limit: Int) {
        hscroll[focus] = max(0, min(limit, (hscroll[focus] ?? 0) + delta))
    }

    /// The focused panel's selected row moved `delta` within `count` rows.
    mutating func select(by delta: Int, count: Int) {
        selection[focus] = max(0, min(count - 1, (selection[focus] ?? 0) + delta))
    }

    /// `panel`'s selected row of `count` rows (the list may have shrunk).
    func selected(_ panel: Panel, of count: Int) -> Int { max(0, min(count - 1, selection[panel] ?? 0)) }

    /// The focused panel scrolled `delta` lines toward the older (Events: up is older),
    /// within `0...limit`: Home then Down moves at once.
    mutating func scrollFocused(by delta: Int, limit: Int) {
        let current = min(scroll[focus] ?? 0, limit)
        let next = focus == .events ? current - delta : current + delta
        scroll[focus] = max(0, min(next, limit))
    }

    /// Every panel back at its start: no scroll, no selection (a split's other half).
    mutating func rewind() {
        scroll = [:]
        hscroll = [:]
        selection = [:]
    }

    /// The focus and zoom of `old` (a restart keeps where the person was looking).
    mutating func keep(_ old: PanelsView) {
        focus = old.focus
        zoomed = old.zoomed
    }
}
