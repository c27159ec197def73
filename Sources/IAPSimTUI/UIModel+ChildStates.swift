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
