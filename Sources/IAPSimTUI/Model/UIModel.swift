import IAPSimCore
import IAPSimScenario

/// How the UI looks and starts; the edge fills it from flags and the environment.
package struct UIOptions: Sendable, Hashable {
    /// False under `NO_COLOR` or `--no-color`: no colour, meaning kept by text, bold, reverse.
    package var color: Bool
    /// True when the locale is not UTF-8: ASCII frames and markers.
    package var ascii: Bool
    /// Random purchases and faults, seeded from the world's seed (demos, soak runs).
    package var autopilot: Bool
    /// One of `UIModel.speeds`.
    package var speed: Double
    /// Bound of the world's log kept in memory (the Events panel scrolls within it).
    package var logLimit: Int

    package init(
        color: Bool = true, ascii: Bool = false, autopilot: Bool = false,
        speed: Double = 1, logLimit: Int = 5_000
    ) {
        self.color = color
        self.ascii = ascii
        self.autopilot = autopilot
        self.speed = speed
        self.logLimit = logLimit
    }
}

/// The panels, in focus order.
package enum Panel: Int, Sendable, Hashable, CaseIterable {
    case app, queue, server, network, auditor, events

    package var title: String {
        switch self {
        case .app: return "App"
        case .queue: return "Payment queue"
        case .server: return "Merchant server"
        case .network: return "Network"
        case .auditor: return "Auditor"
        case .events: return "Events"
        }
    }

    /// The title in the words of `world`: StoreKit 2 has no payment queue.
    package func title(in world: StoreKitWorld) -> String {
        self == .queue ? WorldWords(world).queueTitle : title
    }
}

/// A line of the Events panel that is the UI's, not the world's: it stands before the log
/// entry that was next to be written when it was added.
package struct EventNote: Sendable, Hashable {
    package enum Kind: Sendable, Hashable { case armed, step }
    /// `Simulation.logCount` when the note was added.
    package var position: Int
    package var time: VirtualTime
    package var kind: Kind
    package var text: String
    /// The step's own record, for a step's note: a handout draws it where the step began.
    package var started: RunRecord? = nil
}

/// A command waiting for an event, armed from a picker ("crash when charged").
package struct ArmedCommand: Sendable, Hashable {
    package var event: TriggerEvent
    package var command: Command
    package var armedAt: VirtualTime
}

/// The whole state of the terminal UI: the world (through a `ScenarioPlayer`, empty in the
/// sandbox), the clock's speed, focus, scrolling, the overlay, and the session so far.
/// `update` is the only way it changes; `render` only reads it.
package struct UIModel: Sendable {
    package enum Mode: Sendable, Hashable {
        case sandbox
        case play(file: String)
    }

    /// Virtual-time speeds offered by `+` and `-`.
    package static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
    /// How often the clock moves while running, in wall milliseconds.
    package static let tickMs = 100
    package static let minWidth = 80
    package static let minHeight = 24

    package internal(set) var player: ScenarioPlayer
    package let mode: Mode
    package internal(set) var options: UIOptions
    package internal(set) var width = 80
    package internal(set) var height = 24
    package internal(set) var paused = false
    var speedIndex: Int
    /// Virtual time owed in quarter milliseconds, so 0.25x loses nothing.
    var carryQuarters = 0
    /// Focus, zoom, scrolling and the selected rows of the panels.
    package internal(set) var panels = PanelsView()
    package internal(set) var overlay: Overlay?
    /// First line of the help overlay shown (it scrolls on small screens).
    var helpScroll = 0
    /// The Subscriptions view (`T`) takes the panels' place while shown.
    package internal(set) var subscriptionsView = SubscriptionsView()
    /// Which lines Events shows (`F`, `/`, `N`).
    package internal(set) var eventsView = EventsView()
    /// Scenario files `]`, `[` and `O` move between (the edge fills it); empty: none.
    package var playlist: [String] = []
    /// Each playlist file's failure mode (its heading in scenarios/README.md) and title, for
    /// the browser (`O`); a file missing here is listed by its name alone.
    package var playlistGroups: [String: String] = [:]
    package var playlistTitles: [String: String] = [:]
    /// The split screen (`V`): the same inputs under another policy, in lockstep.
    package internal(set) var split = SplitState()
    /// Play mode: where the file stands (waiting for Enter, narrated step, result, off script).
    package internal(set) var playState = PlayState()
    /// `iapsim learn`: the lessons and where the tour stands.
    package internal(set) var tour: Tour?
    /// The file the edge is recording the screen to, while it does.
    package internal(set) var recording: String?
    package internal(set) var status: String?
    /// A preset of the other StoreKit world chosen in the policy panel: worlds switch only
    /// between runs, so it takes effect on restart (`R`).
    package internal(set) var pendingPreset: PolicyPreset?
    /// The environment chosen for the next run (`m`), which starts on restart.
    package internal(set) var pendingEnvironment: StoreEnvironment?
    package internal(set) var armed: ArmedCommand?
    /// Lines the UI adds to the Events panel: a command armed on an event, a step of play.
    package internal(set) var notes: [EventNote] = []
    /// Every command applied, with its virtual time: what `s` saves.
    package internal(set) var session: [Step] = []
    /// `Simulation.logCount` when the last session step was recorded.
    var lastRecordLogCount = 0
    var autopilot: Autopilot?
    /// The replays' answers (caused by, prevented by, saved by), worked out when an anomaly
    /// inspector opens (`workOutWhatIf`).
    package internal(set) var whatIf: WhatIfReport?
    /// An anomaly's inspector is open and its replays wait for the frame that says so.
    var whatIfWorking = false
    /// `iapsim serve`: makes the link to the user's backend for each new world (a restart is
    /// a world of its own, with its own user names and ids).
    package internal(set) var backend: (@Sendable () -> ExternalLink)?

    /// The sandbox: the built-in world, driven by hand.
    package init(
        seed: UInt64 = 1, users: [String] = ["alice", "bob"],
        preset: PolicyPreset = .hardened, options: UIOptions = UIOptions(),
        catalog: LoadedCatalog = .builtIn, storekitPath: String? = nil, gracePeriodMs: VirtualTime?? = nil
    ) {
        var scenario = Scenario(title: "iapsim sandbox", preset: preset, seed: seed, users: users)
        scenario.catalog = catalog
        scenario.storekitPath = storekitPath
        // `--grace-period` (nil when not given: the catalog's `_billingGracePeriodEnabled` decides).
        if let given = gracePeriodMs {
            scenario.gracePeriodMs = given
        } else if catalog.catalog.settings.billingGracePeriod {
            scenario.gracePeriodMs = CatalogOptions.fileGracePeriodMs
        }
        self.init(scenario: scenario, mode: .sandbox, options: options)
        // A StoreKit file's catalog says what it is, and what is not modelled, until the first key.
        status = UIModel.catalogLines(catalog).map { $0.joined(separator: "; ") }
    }

    /// What the status line at start and help (`?`) say of a team's catalog: its header line
    /// (file, products, currency, what is not modelled: `LoadedCatalog.headerLine`, the line
    /// `run` prints), and the consumables no grant names; nil for the built-in catalog.
    static func catalogLines(_ catalog: LoadedCatalog) -> [String]? {
        guard let header = catalog.headerLine else { return nil }
        return [header] + (catalog.ungrantedLine.map { [$0] } ?? [])
    }

    /// Play mode: a scenario file, one step at a time.
    package init(play scenario: Scenario, file: String, options: UIOptions = UIOptions()) {
        self.init(scenario: scenario, mode: .play(file: file), options: options)
        status = UIModel.catalogLines(scenario.catalog).map { $0.joined(separator: "; ") }
        if player.nextStepIsDue { playState.waitForStep() }
    }

    init(scenario: Scenario, mode: Mode, options: UIOptions) {
        player = ScenarioPlayer(scenario, logLimit: options.logLimit)
        self.mode = mode
        self.options = options
        speedIndex = UIModel.speeds.firstIndex(of: options.speed) ?? 2
        if options.autopilot { autopilot = Autopilot(seed: scenario.seed) }
        if case .play = mode { panels.focus = .events }
    }

    /// The split screen's twin world, if the split is open.
    package var twin: ScenarioPlayer? { split.twin }
    package var splitAvoided: SplitAvoided? { split.avoided }
    /// Play mode: how the run ended once `G` (or the last Enter) finished it.
    package var result: ScenarioResult? { playState.result }
    package var waitingForStep: Bool { playState.waitingForStep }
    package var narratedStep: Int? { playState.narratedStep }
    package var offScript: [Command] { playState.offScript }

    /// The world as it is now.
    package var simulation: Simulation { player.simulation }
    package var speed: Double { UIModel.speeds[speedIndex] }
    package var isPlay: Bool { if case .play = mode { return true } else { return false } }
    package var tooSmall: Bool { width < UIModel.minWidth || height < UIModel.minHeight }

    /// Whether the clock is moving: not paused, not waiting for Enter, not finished.
    package var clockRunning: Bool { !paused && !waitingForStep && result == nil && !lessonWaitsForDecidingStep }

    /// Wall milliseconds until the model wants a tick, or nil to sleep until input.
    package var wakeDelayMs: Int? { clockRunning ? UIModel.tickMs : nil }

    /// How far `panel` is scrolled (lines from the top; from the bottom for Events).
    package func scrollOffset(_ panel: Panel) -> Int { panels.scroll[panel] ?? 0 }
    package var focus: Panel { panels.focus }
    /// The panel shown on the whole screen (`z`), if any.
    package var zoomed: Panel? { panels.zoomed }
}
