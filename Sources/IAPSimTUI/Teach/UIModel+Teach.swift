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

    /// `/`: letters build the text, Enter searches, Esc leaves the search as it was.
    mutating func searchKey(_ action: SearchKeyAction, _ text: String, _ key: Key) {
        switch action {
        case .cancel: overlay = nil
        case .submit:
            overlay = nil
            status = eventsView.searchFor(text)
            panels.scroll[.events] = 0
        case .erase: overlay = .search(String(text.dropLast()))
        case .type:
            if case .char(let c) = key, text.count < 60 { overlay = .search(text + String(c)) }
        }
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

    /// The status line after `n`, Esc or `q` to a question.
    static func declined(_ question: Confirmation) -> String {
        switch question {
        case .restart: return "not restarted"
        case .uninstall: return "not uninstalled"
        case .leave, .browse: return "stayed in this world"
        }
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

    // MARK: pages

    /// `S`: the story, then every step with its `say`; the steps run so far marked.
    var storyLines: [Line] {
        let s = player.scenario
        var out: [Line] = [[Span(s.title, Style(.title, bold: true))], []]
        // One line per paragraph (the file's line breaks are the author's, not the screen's):
        // the box wraps them to its width.
        let story = UIModel.plain(s.story ?? "(no story)").components(separatedBy: "\n\n")
        for paragraph in story {
            let words = paragraph.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !words.isEmpty { out += [[Span(words)], []] }
        }
        for (i, step) in s.steps.enumerated() {
            let done = i < player.nextStep
            out.append([
                Span(done ? "\(glyphs.check) " : "  ", Style(.good)),
                Span("step \(i + 1) (line \(step.line)) ", Style(.title, bold: !done)),
                Span(UIModel.triggerText(step.trigger) + step.command.scenarioText, Style(bold: true)),
            ])
            if let say = step.say { out.append([Span("    " + UIModel.plain(say), Style(done ? .dim : .normal))]) }
        }
        return out
    }

    /// A text from a file or the core, without Markdown's backticks (the screen shows no code font).
    static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }

    /// The lines of `page`, before wrapping.
    func pageLines(_ page: Page) -> [Line] {
        switch page {
        case .story: return storyLines
        case .glossary: return Glossary.lines(world: simulation.policy.storekit, glyphs: glyphs)
        case .question(let text):
            return [[Span("Before the next step, a question", Style(.title, bold: true))], []]
                + Wrap.words(text, width: 66).map { [Span($0, Style(bold: true))] }
                + [[]]
                + Wrap.words("Think it over (tell the class), then press Enter to run the step and see.", width: 66)
                .map { [Span($0, Style(.dim))] }
        }
    }

    func pageTitle(_ page: Page) -> String {
        switch page {
        case .story: return "The story and its steps"
        case .glossary: return "Glossary"
        case .question: return "Lesson \((tour?.index ?? 0) + 1): what happens next?"
        }
    }
}
