import IAPSimCore

/// What a key does on the main screen (no overlay open).
package enum UIAction: Sendable, Hashable {
    case quit, help, pause, stepEvent, faster, slower
    case buy, crash, launch, uninstall, account, openStore, closeStore
    case network, drop, outage, fail, askToBuy, approve, decline, replay, background, storeStatus
    case policy, autopilot, save, record, restart
    case focusNext, focusPrevious, scrollUp, scrollDown, pageUp, pageDown, oldest, newest
    case scrollLeft, scrollRight, zoom, filterEvents, searchEvents, hideNetwork
    case inspect, nextStep, stepBack, toEnd, story, glossary, browse, nextFile, previousFile, split
    case handout
    /// The server-side and money picker: refund, spend, forge, the merchant server's outage.
    case serverSide
    /// The Subscriptions view: each subscriber's timeline (paid, E, G) on the calendar.
    case subscriptions
    /// The subscription picker: billing fails or recovers, auto-renew, plan change, refund.
    case subscription
}

/// One row of the one key table: the keys, how they are written, what they do, and when.
/// The update function, the help overlay, the footer and README's key table all come from
/// `KeyBinding.all`, so they cannot disagree.
package struct KeyBinding: Sendable, Hashable {
    package enum Group: String, Sendable, Hashable, CaseIterable {
        case general = "General", clock = "Clock", app = "App and user", faults = "Faults and attacks"
        case view = "View", play = "Play"
    }

    /// When the binding applies.
    package enum Context: Sendable, Hashable {
        case always
        /// While the world runs (not after play has ended).
        case live
        case sandbox
        case play
        /// While the world runs, in StoreKit 1 only (`verifyReceipt` has no StoreKit 2 twin).
        case storeKit1
        /// In StoreKit 2 only (subscriptions exist there alone); `storeKit2Live` while the
        /// world runs.
        case storeKit2, storeKit2Live
        /// When there are scenario files to move between (play, learn, or a scenarios/ folder).
        case browse
    }

    package var keys: [Key]
    /// The keys as the help, the footer and README write them.
    package var written: String
    package var help: String
    /// The help in StoreKit 2's words, where they differ.
    package var storeKit2Help: String?
    /// The footer's short label; nil keeps the binding out of the footer.
    package var footer: String?
    package var group: Group
    package var context: Context
    package var action: UIAction

    init(
        _ keys: [Key], _ written: String, _ help: String, sk2: String? = nil, footer: String? = nil,
        _ group: Group, _ action: UIAction, when context: Context = .always
    ) {
        self.keys = keys
        self.written = written
        self.help = help
        storeKit2Help = sk2
        self.footer = footer
        self.group = group
        self.context = context
        self.action = action
    }

    static func chars(_ s: String) -> [Key] { s.map { Key.char($0) } }

    /// The help in the words of `world`.
    func help(in world: StoreKitWorld) -> String { world == .two ? storeKit2Help ?? help : help }

    /// Whether the key does anything in `world` (help lists only those).
    func exists(in world: StoreKitWorld) -> Bool {
        switch context {
        case .storeKit1: return world == .one
        case .storeKit2, .storeKit2Live: return world == .two
        // A new context must say which world it exists in.
        case .always, .live, .sandbox, .play, .browse: return true
        }
    }
}

extension KeyBinding {
    /// Every key of the main screen, in the order help and the footer list them.
    package static let all: [KeyBinding] = [
        KeyBinding(
            [.char("q"), .ctrlC], "`q`, Ctrl-C", "quit (the terminal is restored); in a box, q closes it",
            footer: "quit", .general, .quit),
        KeyBinding(
            [.char("?"), .other("F1")], "`?`, F1", "this help and the legend; Esc or q closes",
            footer: "all keys", .general, .help),
        KeyBinding(
            chars("H"), "`H`", "write the selected anomaly's handout (Markdown + Mermaid); also in its inspector",
            .general, .handout),
        KeyBinding([.enter], "Enter", "play: run the next step", footer: "next step", .play, .nextStep, when: .play),
        KeyBinding(
            chars("i"), "`i`", "inspect the selected row: Auditor, queue; elsewhere the Auditor's",
            sk2: "inspect the selected row: Auditor, Transactions; elsewhere the Auditor's",
            footer: "inspect", .general, .inspect),
        KeyBinding([.enter], "Enter", "sandbox: inspect, as i does", .general, .inspect, when: .sandbox),
        KeyBinding(
            chars("G"), "`G`", "play: run to the end and check expectations",
            footer: "to end", .play, .toEnd, when: .play),
        KeyBinding(
            chars("B"), "`B`", "play: step back (replay to the step before)",
            footer: "back", .play, .stepBack, when: .play),
        KeyBinding(
            chars("S"), "`S`", "play: the whole story and the step so far", footer: "story", .play, .story, when: .play),
        KeyBinding(
            chars("]"), "`]`", "the next file, README order (no quitting)",
            footer: "next file", .play, .nextFile,
            when: .browse),
        KeyBinding(chars("["), "`[`", "the previous scenario file", .play, .previousFile, when: .browse),
        KeyBinding(
            chars("O"), "`O`", "file browser, by failure mode", footer: "files",
            .play, .browse, when: .browse),
        KeyBinding(chars(" "), "Space", "pause or resume the clock", footer: "pause", .clock, .pause, when: .live),
        KeyBinding(
            chars("."), "`.`", "run the next event, then pause", footer: "event", .clock, .stepEvent, when: .live),
        KeyBinding(chars("+="), "`+`", "faster (up to 64x virtual time)", footer: "speed", .clock, .faster),
        KeyBinding(chars("-_"), "`-`", "slower (down to 0.25x)", .clock, .slower),
        KeyBinding(
            chars("b"), "`b`", "buy (product picker)", sk2: "buy: product.purchase() (picker)", footer: "buy", .app,
            .buy, when: .live),
        KeyBinding(chars("l"), "`l`", "launch the app", footer: "launch", .app, .launch, when: .live),
        KeyBinding(
            chars("u"), "`u`", "uninstall the app, after y/n (keychain survives)", footer: "uninstall", .app,
            .uninstall,
            when: .live),
        KeyBinding(
            chars("a"), "`a`", "switch account or log out (picker)", footer: "account", .app, .account, when: .live),
        KeyBinding(chars("e"), "`e`", "open the store screen", .app, .openStore, when: .live),
        KeyBinding(chars("E"), "`E`", "leave the store screen", .app, .closeStore, when: .live),
        KeyBinding(chars("g"), "`g`", "app to the background / back to the front", .app, .background, when: .live),
        KeyBinding(
            chars("c"), "`c`", "crash now, or right after an event (picker)",
            footer: "crash", .faults, .crash, when: .live),
        KeyBinding(chars("n"), "`n`", "network off / on", footer: "net", .faults, .network, when: .live),
        KeyBinding(
            chars("d"), "`d`", "drop the next request or response (picker)", footer: "drop", .faults, .drop, when: .live
        ),
        KeyBinding(
            chars("f"), "`f`", "fail the next payment: how (picker)",
            sk2: "fail the next purchase(): how (picker)",
            footer: "fail", .faults, .fail, when: .live),
        KeyBinding(
            chars("o"), "`o`", "App Store outage on / off",
            sk2: "App Store outage on / off (purchases fail; crediting goes on)", footer: "outage", .faults, .outage,
            when: .live),
        KeyBinding(
            chars("v"), "`v`", "the next verifyReceipt status (picker)", .faults, .storeStatus, when: .storeKit1),
        KeyBinding(
            chars("t"), "`t`", "Ask to Buy on / off (a parent must approve)",
            sk2: "Ask to Buy on / off (purchase() returns .pending)", footer: "ask-to-buy",
            .faults, .askToBuy, when: .live),
        KeyBinding(
            chars("y"), "`y`", "approve the newest Ask to Buy request", footer: "approve", .faults, .approve,
            when: .live),
        KeyBinding(chars("x"), "`x`", "decline the newest Ask to Buy request", .faults, .decline, when: .live),
        KeyBinding(
            chars("r"), "`r`", "replay attack: old receipt, fresh order",
            sk2: "replay attack: an old jwsRepresentation, fresh order",
            footer: "replay", .faults, .replay, when: .live),
        KeyBinding(
            chars("m"), "`m`", "server side and money: refund, spend, forge, server outage (picker)",
            footer: "server", .faults, .serverSide, when: .live),
        KeyBinding(
            chars("T"), "`T`",
            "subscriptions: each subscriber's timeline, paid periods, entitled (E) and granted (G), differences marked; again closes",
            footer: "subs", .view, .subscriptions, when: .storeKit2),
        KeyBinding(
            chars("C"), "`C`",
            "the subscription: billing fails / recovers, auto-renew off / on, change plan, refund a renewal, grace 16d / off, "
                + "price increase, consent, StoreKit messages, Family Sharing, offer codes (picker)",
            footer: "subscription", .faults, .subscription, when: .storeKit2Live),
        KeyBinding(chars("A"), "`A`", "autopilot: seeded random purchases, faults", .faults, .autopilot, when: .live),
        KeyBinding(
            chars("p"), "`p`", "policy panel: every key, changed live",
            footer: "policy", .general, .policy, when: .live),
        KeyBinding(
            chars("R"), "`R`", "restart, after y/n: same seed and policy (play: step 0)",
            footer: "restart", .general, .restart),
        KeyBinding(
            chars("V"), "`V`", "split: the same inputs under another preset, side by side; again closes",
            footer: "split", .general, .split),
        KeyBinding(
            chars("w"), "`w`", "glossary: anomaly types, statuses, policy keys", footer: "glossary", .general, .glossary
        ),
        KeyBinding(
            chars("s"), "`s`", "save the session as iapsim-session-N.yaml",
            footer: "save", .general, .save),
        KeyBinding(
            chars("W"), "`W`", "record to iapsim-demo-N.cast; again stops",
            .general, .record),
        KeyBinding([.tab], "Tab", "focus the next panel", footer: "focus", .view, .focusNext),
        KeyBinding([.backTab], "Shift-Tab", "focus the previous panel", .view, .focusPrevious),
        KeyBinding([.up, .char("k")], "`k`, Up", "scroll up / select the row above", .view, .scrollUp),
        KeyBinding([.down, .char("j")], "`j`, Down", "scroll down / select the row below", .view, .scrollDown),
        KeyBinding([.left, .char("h")], "`h`, Left", "scroll long lines left", .view, .scrollLeft),
        KeyBinding([.right, .char("L")], "`L`, Right", "scroll long lines right", .view, .scrollRight),
        KeyBinding([.pageUp], "PgUp", "scroll a page up", .view, .pageUp),
        KeyBinding([.pageDown], "PgDn", "scroll a page down", .view, .pageDown),
        KeyBinding([.home], "Home", "the oldest line", .view, .oldest),
        KeyBinding([.end], "End", "the newest line (Events follows again)", .view, .newest),
        KeyBinding(
            chars("z"), "`z`", "zoom the focused panel; again unzooms", footer: "zoom",
            .view, .zoom),
        KeyBinding(chars("F"), "`F`", "Events: one part only (App, StoreKit, ...)", .view, .filterEvents),
        KeyBinding(chars("N"), "`N`", "Events: hide / show Network lines", .view, .hideNetwork),
        KeyBinding(
            chars("/"), "`/`", "Events: search (only lines with the text; empty clears)", footer: "search", .view,
            .searchEvents),
    ]

    /// Whether the binding works in this state of the model.
    func applies(to model: UIModel) -> Bool {
        switch context {
        case .always: return true
        case .live: return model.result == nil
        case .sandbox: return !model.isPlay
        case .play: return model.isPlay
        case .browse: return !model.playlist.isEmpty
        case .storeKit1: return model.result == nil && model.simulation.policy.storekit == .one
        case .storeKit2: return model.simulation.policy.storekit == .two
        case .storeKit2Live: return model.result == nil && model.simulation.policy.storekit == .two
        }
    }

    /// The binding `key` triggers now, if any (the first in table order).
    static func binding(for key: Key, in model: UIModel) -> KeyBinding? {
        all.first { $0.keys.contains(key) && $0.applies(to: model) }
    }

    /// README's key table, exactly as README.md must hold it.
    package static var markdownTable: String {
        var out = "| key | group | does |\n|---|---|---|\n"
        for b in all { out += "| \(b.written) | \(b.group.rawValue) | \(b.help) |\n" }
        // Each box (picker, policy panel, inspector, ...) takes the keys while it is open.
        return out + "\nWhile a box is open, its own table:\n\n" + OverlayKeys.markdownTable
    }
}
