import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// `picker` with what cannot happen now greyed, each with the world's own reason
    /// (`Simulation.refusal(of:)`); the first choice that can happen is selected.
    func vetted(_ picker: Picker) -> Picker {
        var p = picker
        for i in p.items.indices {
            guard case .run(let command) = p.items[i].action else { continue }
            p.items[i].refused = p.items[i].refused ?? simulation.refusal(of: command) ?? neverFires(command)
        }
        if p.items.indices.contains(p.selected), p.items[p.selected].refused != nil,
            let first = p.items.firstIndex(where: { $0.refused == nil })
        {
            p.selected = first
        }
        return p
    }

    /// A fault the world takes but that could never fire now: a drop on a route of the
    /// server side while the policy keeps that route silent.
    func neverFires(_ command: Command) -> String? {
        switch command {
        case .networkFault(.dropNextRequest(let route)), .networkFault(.dropNextResponse(let route)):
            let policy = simulation.policy
            if route == .notify, !policy.serverNotifications {
                return "server-notifications is false: nothing is sent on notify (p turns it on)"
            }
            if route == .serverAPI, policy.serverReconcileMs == nil {
                return "server-reconcile is off: nothing is sent on server-api (p turns it on)"
            }
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login,
            .logout, .network, .networkFault(.latency), .storeFault, .askToBuy, .approve, .decline, .replay, .forge,
            .serverOutage, .serverAPIFault, .refundLoop, .spend, .subscription, .heal, .setPolicy, .setPreset, .wait,
            .settle:
            break
        }
        return nil
    }

    /// `N`: Events without (or with again) the Network part's lines.
    mutating func toggleNetworkLines() {
        status = eventsView.toggleNetwork()
        panels.scroll[.events] = 0
    }

    /// What the Events title says about its filters.
    var eventsTitleNote: String { eventsView.titleNote }

    /// How far `panel`'s longest shown line reaches past the panel: `L` stops there.
    func widestLine(_ panel: Panel) -> Int {
        let layout = Layout(width: width, height: height, play: isPlay)
        let inner = zoomed == panel ? max(0, width - 2) : (layout.panels[panel]?.inner.width ?? width)
        let content = PanelContent(sim: simulation, glyphs: glyphs, ascii: options.ascii, width: inner)
        let lines: [Line]
        switch panel {
        case .app: lines = content.app
        case .queue: lines = content.queue
        case .server: lines = content.server
        case .network: lines = content.network
        case .auditor: lines = content.auditor
        case .events:
            let rows = eventRows(content)
            lines = content.events(rows, notes: notes, count: 200, offsetFromBottom: scrollOffset(.events))
        }
        let widest = lines.map { $0.reduce(0) { $0 + TextWidth.of($1.text) } }.max() ?? 0
        return max(0, widest - inner)
    }

    // MARK: the scenario browser

    /// The file play shows, if any.
    var playFile: String? { if case .play(let file) = mode { return file } else { return nil } }

    /// `O`: every file of the playlist under its failure mode, with its title; the one
    /// playing is selected.
    var browser: Picker {
        let current = playFile.flatMap { playlist.firstIndex(of: $0) } ?? 0
        return Picker(
            title: "Scenarios (\(playlist.count)) by failure mode",
            items: playlist.map { path in
                let name = path.split(separator: "/").last.map(String.init) ?? path
                let title = playlistTitles[path] ?? ""
                let detail = path != playFile ? title : title.isEmpty ? "playing now" : "playing now: " + title
                var item = PickerItem(name, detail, .open(path))
                item.group = playlistGroups[path]
                return item
            }, selected: current)
    }

    /// A sandbox whose world the user has acted on asks before another file replaces it
    /// (`]`, `[`, `O`); a played file is there again with `[` / `]`.
    var asksBeforeLeaving: Bool { !isPlay && tour == nil && !session.isEmpty && !playlist.isEmpty }

    mutating func ask(_ question: Confirmation) -> [UIEffect] {
        overlay = .confirm(question)
        return []
    }

    /// `]` / `[`: the next or previous file of the playlist (wrapping round).
    mutating func openFile(by delta: Int) -> [UIEffect] {
        if tour != nil {
            openLesson(by: delta)
            return []
        }
        guard !playlist.isEmpty else { return [] }
        let index = playFile.flatMap { playlist.firstIndex(of: $0) } ?? (delta > 0 ? -1 : 0)
        let next = ((index + delta) % playlist.count + playlist.count) % playlist.count
        status = "opening \(playlist[next])…"
        return [.openScenario(path: playlist[next])]
    }

    /// The edge read the file: play it from step 0, keeping the view and the playlist.
    mutating func opened(_ file: ScenarioFile) {
        var fresh = UIModel(play: file.scenario, file: file.path, options: options)
        fresh.keepView(of: self)
        self = fresh
        let n = playlist.firstIndex(of: file.path).map { " (\($0 + 1) of \(playlist.count); ] next, [ previous)" } ?? ""
        status = "playing \(file.path)\(n)"
    }

    /// A text from a file or the core, without Markdown's backticks (the screen shows no code font).
    static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }
}

// MARK: the tour (`iapsim learn`)

extension UIModel {
    /// `iapsim learn`: the first lesson's naive file, played with its question.
    package init(tour: Tour, options: UIOptions = UIOptions()) {
        let first = tour.lesson.naive
        self.init(play: first.scenario, file: first.path, options: options)
        self.tour = tour
        playlist = tour.lessons.map(\.naive.path)
        status = lessonIntro
    }

    /// The status line as a lesson starts: its number only (its anomaly's name would answer
    /// the question; the reveal names it).
    var lessonIntro: String {
        guard let tour else { return "" }
        return "lesson \(tour.index + 1) of \(tour.lessons.count): watch; a question comes before the step "
            + "that decides it. Enter runs each step; ] next lesson"
    }

    /// Before the decisive step: the question, once, with the clock stopped. True when asked.
    /// Enter does not wait for the clock: what the steps before still have to do (a
    /// purchase's charge and credit) runs first, so that the question is about what the
    /// screen shows.
    mutating func askIfDue() -> Bool {
        guard var t = tour, t.stage == .playing, player.nextStep >= t.lesson.askBefore else { return false }
        runToQuestion()
        t.stage = .asked
        tour = t
        paused = true
        overlay = .page(.question(t.lesson.question), scroll: 0)
        return true
    }

    /// What the Auditor panel shows while the lesson holds it back: until its question is
    /// answered (Enter runs the step it was asked before), then, once that step has run,
    /// until the auditor finds what the question was about (the inspector opens on it).
    var auditorHeldBack: [Line] {
        [
            [Span(Self.heldBackWords(asked: tour.map { player.nextStep > $0.lesson.askBefore } ?? false), Style(.dim))],
            [Span("(its money and findings would answer the question)", Style(.dim))],
        ]
    }

    /// The held-back Auditor's first line (Events shows it for the Auditor's lines too).
    static func heldBackWords(asked: Bool) -> String {
        asked
            ? "held back until the auditor finds what the question was about"
            : "held back until you have answered the lesson's question"
    }

    /// The lesson before its question is answered: its title, story and file name would give
    /// the answer away, so they are held back.
    var lessonHoldsBack: Tour? {
        guard let t = tour, t.stage == .playing || t.stage == .asked else { return nil }
        return t
    }

    /// A lesson whose next step decides it: once its question is due, the clock waits for
    /// Enter, whatever its speed, so that nothing decides the question before that step runs.
    var lessonWaitsForDecidingStep: Bool {
        guard let t = tour, player.nextStep == t.lesson.askBefore else { return false }
        return t.stage == .asked || (t.stage == .playing && lessonReadyToAsk)
    }

    /// The deciding step is next and the steps before have done what they started: it is
    /// due; or it waits for an event (`when`: the clock may not run towards it); or nothing
    /// the world has scheduled before its time changes anything (the first event is after
    /// it, or moot: a delivery with no observer, a dead process's timer).
    var lessonReadyToAsk: Bool {
        guard let t = tour, player.nextStep >= t.lesson.askBefore else { return false }
        guard result == nil, !player.nextStepIsDue, let time = player.nextStepTime else { return true }
        guard let next = simulation.nextEvent, next.time < time else { return true }
        return simulation.moot(next.action) != nil
    }

    /// Runs the world, event by event, as its clock would, to where the lesson's question is
    /// due; never into the deciding step (the player stops before a step's trigger).
    mutating func runToQuestion() {
        var events = 0
        while !lessonReadyToAsk, simulation.nextEventTime != nil, events < 10_000 {
            let moved = player.advance(until: Int.max / 2, maxEvents: 1, watch: armed?.event)
            events += 1
            if moved.watchFired { fireArmed() }
            if moved.stepDue { playState.waitForStep() }
        }
    }

    /// After each message: once the step before the decisive one has run, the question, with
    /// the clock stopped whatever its speed (nothing may happen before it is asked); once it
    /// is asked and the lesson's anomaly appears, the clock stops and its inspector opens,
    /// with what caused it and what prevents it worked out by replay.
    mutating func watchLesson() {
        guard var t = tour, overlay == nil else { return }
        if t.stage == .playing, result == nil, lessonReadyToAsk {
            _ = askIfDue()
            return
        }
        guard t.stage == .asked, player.nextStep > t.lesson.askBefore || result != nil,
            let found = simulation.auditor.anomalies.first(where: { $0.type == t.lesson.type })
        else { return }
        t.stage = .inspecting
        tour = t
        paused = true
        workOutWhatIf()
        overlay = .inspect(.anomaly(id: found.id), scroll: 0)
        status = "the auditor found \(t.lesson.type.rawValue): read why, then Esc shows the fix beside it"
    }

    /// The inspector closed: the same steps under the hardened file's policy, beside this run.
    mutating func lessonInspectorClosed() {
        guard var t = tour, t.stage == .inspecting else { return }
        t.stage = .comparing
        tour = t
        startTwin(policy: t.lesson.hardened.scenario.policy)
        paused = false
        let name = t.lesson.hardened.path.split(separator: "/").last.map(String.init) ?? t.lesson.hardened.path
        status = "the fix beside it: the same steps under \(name)'s policy (right); G to the end, ] next lesson"
    }

    /// `]` / `[` during the tour: the next or previous lesson, from the files already read.
    mutating func openLesson(by delta: Int) {
        guard var t = tour else { return }
        t.index = ((t.index + delta) % t.lessons.count + t.lessons.count) % t.lessons.count
        t.stage = .playing
        let file = t.lesson.naive
        var fresh = UIModel(play: file.scenario, file: file.path, options: options)
        fresh.keepView(of: self)
        fresh.split.close()
        fresh.tour = t
        self = fresh
        status = lessonIntro
    }
}
