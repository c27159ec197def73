import IAPSimCore

extension UIModel {
    var glyphs: Glyphs { options.ascii ? .ascii : .unicode }

    /// The whole screen as a grid of cells. Pure: the same model and size give the same grid.
    package func render(width: Int, height: Int) -> Grid {
        var grid = Grid(width: width, height: height)
        if width < UIModel.minWidth || height < UIModel.minHeight {
            renderTooSmall(&grid)
            return grid
        }
        let layout = Layout(width: width, height: height, play: isPlay)
        renderHeader(&grid)
        if let r = layout.narration { renderNarration(&grid, r) }
        if subscriptionsView.shown {
            let top = layout.narration.map { $0.y + $0.height } ?? 1
            renderSubscriptions(subscriberRows, &grid, Rect(x: 0, y: top, width: width, height: layout.statusRow - top))
        } else if let zoomed {
            let top = layout.narration.map { $0.y + $0.height } ?? 1
            renderPanel(zoomed, &grid, Rect(x: 0, y: top, width: width, height: layout.statusRow - top))
        } else if let twin {
            let top = layout.narration.map { $0.y + $0.height } ?? 1
            renderSplit(twin, &grid, Rect(x: 0, y: top, width: width, height: layout.statusRow - top))
        } else {
            for panel in Panel.allCases { renderPanel(panel, &grid, layout.panels[panel]!) }
        }
        renderStatus(&grid, row: layout.statusRow)
        renderFooter(&grid, row: layout.footerRow)
        renderOverlay(&grid)
        return grid
    }

    func renderTooSmall(_ grid: inout Grid) {
        let need = "need \(UIModel.minWidth)x\(UIModel.minHeight), have \(grid.width)x\(grid.height)"
        let message = "Terminal too small: " + need
        let parts = TextWidth.of(message) <= grid.width ? [message] : ["Terminal too small:", need]
        let lines =
            parts.flatMap { Wrap.words($0, width: grid.width) }.map { ($0, Style(.bad, bold: true)) }
            + Wrap.words("enlarge the window, or press q to quit", width: grid.width).map { ($0, Style(.dim)) }
        let top = max(0, (grid.height - lines.count) / 2)
        for (i, (line, style)) in lines.enumerated() {
            grid.put(line, x: max(0, (grid.width - TextWidth.of(line)) / 2), y: top + i, style)
        }
    }

    func renderHeader(_ grid: inout Grid) {
        grid.fill(x: 0, y: 0, width: grid.width, height: 1, " ", Style(.header, reverse: true))
        let bar = Style(.header, reverse: true)
        var spans: [Span] = [
            Span(" iapsim ", Style(.header, bold: true, reverse: true)),
            Span(" \(DurationText.clock(simulation.now)) ", Style(.header, bold: true, reverse: true)),
            Span(" \(speedText) ", bar),
        ]
        spans.append(Span(" \(badge.text) ", badge.style))
        // A narrow header drops the word "policy" so that the file name of play mode fits.
        spans.append(Span((grid.width < 100 ? "  " : "  policy ") + policyName, bar))
        // A team's catalog is named with its currency; a narrow header makes room for it by
        // leaving out the seed and the word "sandbox" (the default mode).
        let catalog = catalogBadge
        let narrow = grid.width < 100
        if !(narrow && catalog != nil) { spans.append(Span("  seed \(player.scenario.seed)", bar)) }
        // The App Store's Sandbox environment is said (production is the default, left unsaid),
        // in words that do not read as the sandbox mode that follows.
        if simulation.config.environment == .sandbox { spans.append(Span("  App Store env: Sandbox", bar)) }
        let room = grid.width - 8 - spans.reduce(0) { $0 + TextWidth.of($1.text) }
        switch mode {
        case .sandbox:
            if simulation.isExternal {
                spans.append(Span("  serve: your backend", bar))
            } else if !(narrow && catalog != nil) {
                spans.append(Span("  sandbox", bar))
            }
            if let catalog {
                let left = grid.width - 8 - spans.reduce(0) { $0 + TextWidth.of($1.text) }
                spans.append(Span(catalogText(catalog, room: left), bar))
            }
        case .play(let file):
            // A lesson's file name says how it ends: held back until the reveal.
            let name =
                lessonHoldsBack.map { "lesson \($0.index + 1)" } ?? file.split(separator: "/").last.map(String.init)
                ?? file
            // The file's name keeps up to 24 columns before the catalog's name is cut.
            let catalogRoom = catalog.map { _ in max(0, room - 7 - min(TextWidth.of(name), 24)) } ?? 0
            let catalogSpan = catalog.map { catalogText($0, room: catalogRoom) } ?? ""
            let nameRoom = room - 7 - TextWidth.of(catalogSpan)
            spans.append(
                Span(
                    "  play " + (nameRoom >= 6 ? TextWidth.truncate(name, to: nameRoom, ascii: options.ascii) : ""),
                    bar))
            if catalog != nil { spans.append(Span(catalogSpan, bar)) }
        }
        if recording != nil { spans.append(Span("  REC", Style(.bad, bold: true, reverse: true))) }
        if autopilot != nil { spans.append(Span("  AUTOPILOT", Style(.header, bold: true, reverse: true))) }
        grid.put(spans, x: 0, y: 0, width: grid.width - 8)
        grid.put("? help ", x: grid.width - 7, y: 0, bar)
    }

    /// A team's catalog (`--storekit`, a scenario's `storekit:`): its file's name and its
    /// currency; nil for the built-in one.
    var catalogBadge: (file: String, currency: String)? {
        let loaded = player.scenario.catalog
        guard let file = loaded.file else { return nil }
        return (String(file.split(separator: "/").last ?? Substring(file)), loaded.catalog.settings.currency)
    }

    /// `  dungeon.storekit GBP` in at most `room` columns: the file's name is cut first, then
    /// left out (the currency stays).
    func catalogText(_ catalog: (file: String, currency: String), room: Int) -> String {
        let fixed = 3 + TextWidth.of(catalog.currency)
        let nameRoom = room - fixed
        guard nameRoom >= 6 else { return "  " + catalog.currency }
        return "  " + TextWidth.truncate(catalog.file, to: nameRoom, ascii: options.ascii) + " " + catalog.currency
    }

    var speedText: String {
        let s = speed
        return s == s.rounded() ? "\(Int(s))x" : (s == 0.5 ? "0.5x" : "0.25x")
    }

    /// PAUSED, RUNNING, NEXT: Enter, WAITING: answer or ENDED: a word, bold and reversed as well as coloured.
    var badge: (text: String, style: Style) {
        if result != nil { return ("ENDED", Style(.accent, bold: true)) }
        // The lesson's question holds the clock until Enter runs the step it asks about.
        if lessonWaitsForDecidingStep { return ("WAITING: answer", Style(.warn, bold: true)) }
        if waitingForStep { return ("NEXT: Enter", Style(.warn, bold: true)) }
        if paused { return ("PAUSED", Style(.warn, bold: true)) }
        return ("RUNNING", Style(.good, bold: true))
    }

    /// The rows Events shows now: its filters, and the Auditor's lines held back while a
    /// lesson's question waits (they would answer it).
    func eventRows(_ content: PanelContent) -> [EventRow] {
        content.eventRows(
            notes: notes, filter: eventsView.filter, hiding: eventsView.hideNetwork ? .network : nil,
            search: eventsView.search, holding: lessonHoldsBack == nil ? nil : .auditor)
    }

    /// The largest scroll of `panel` that still moves what it shows: its lines (for Events,
    /// the rows its filter keeps) less the rows it has on the screen as it is laid out now.
    func scrollLimit(_ panel: Panel) -> Int {
        let layout = Layout(width: width, height: height, play: isPlay)
        let rows: Int
        if zoomed == panel || subscriptionsView.shown || twin != nil {
            let top = layout.narration.map { $0.y + $0.height } ?? 1
            rows = layout.statusRow - top - 2
        } else {
            rows = (layout.panels[panel]?.inner.height) ?? 1
        }
        let content = PanelContent(sim: simulation, glyphs: glyphs, ascii: options.ascii, width: width)
        let total = panel == .events ? eventRows(content).count : content.total(panel)
        return max(0, total - max(1, rows))
    }

    func renderPanel(_ panel: Panel, _ grid: inout Grid, _ r: Rect) {
        let inner = r.inner
        var content = PanelContent(sim: simulation, glyphs: glyphs, ascii: options.ascii, width: inner.width)
        content.heldBackWords = auditorHeldBack[0].map(\.text).joined()
        let shift = panels.hscroll[panel] ?? 0
        let shiftBadge = shift > 0 ? "\(glyphs.right)+\(shift) " : ""
        let name =
            panel == .server && simulation.isExternal ? "Your backend" : panel.title(in: simulation.policy.storekit)
        let title =
            (panel == .events ? name + eventsTitleNote : name)
            + (zoomed == panel ? " (zoomed: z returns, Tab pages)" : "")
        if panel == .events {
            let rows = eventRows(content)
            let total = rows.count
            let offset = min(scrollOffset(panel), max(0, total - inner.height))
            let lines = content.events(rows, notes: notes, count: inner.height, offsetFromBottom: offset)
            let above = max(0, total - offset - inner.height)
            let filtered = eventsView.isFiltered
            let badge =
                offset > 0
                ? (above > 0 ? "\(glyphs.up) \(above) older" : "the oldest kept") + " \(glyphs.sep) End follows"
                : !filtered ? "\(simulation.logCount) events" : "\(total) of \(simulation.logCount) events"
            grid.frame(r, title: title, focused: focus == panel, glyphs: glyphs, badge: shiftBadge + badge)
            grid.lines(lines.map { UIModel.shifted($0, by: shift) }, in: inner, offset: 0, ellipsis: glyphs.more)
            return
        }
        // A lesson's question comes first: the auditor's money and findings would answer it.
        let heldBack = panel == .auditor && lessonHoldsBack != nil
        let total = heldBack ? auditorHeldBack.count : content.total(panel)
        let highlight = heldBack ? nil : selectedLines(panel, content: content)
        var offset = min(scrollOffset(panel), max(0, total - inner.height))
        if let h = highlight, focus == panel { offset = max(0, h.upperBound - inner.height) }
        // A short Auditor shows its anomalies, the thing being taught, before its money lines.
        if panel == .auditor, !heldBack, focus != panel, scrollOffset(panel) == 0,
            !simulation.auditor.anomalies.isEmpty
        {
            offset = min(content.auditorHeaderCount, max(0, total - inner.height))
        }
        content.limit = offset + inner.height + 2
        var badge: String?
        var lines: [Line]
        switch panel {
        case .app: lines = content.app
        case .queue: lines = content.queue; badge = content.queueBadge
        case .server: lines = simulation.isExternal ? content.backend : content.server
        case .network: lines = content.network
        case .auditor: lines = heldBack ? auditorHeldBack : content.auditor
        case .events: lines = []
        }
        if let h = highlight, focus == panel {
            for i in h where i < lines.count {
                lines[i] = lines[i].map { Span($0.text, Style($0.style.role, bold: true, reverse: true)) }
            }
        }
        if total > inner.height {
            let more =
                "\(offset > 0 ? glyphs.up : "")\(offset + inner.height < total ? glyphs.down : "") \(offset + 1)-\(min(total, offset + inner.height))/\(total)"
            badge = badge.map { "\($0) \(more)" } ?? more
        }
        grid.frame(r, title: title, focused: focus == panel, glyphs: glyphs, badge: badge.map { shiftBadge + $0 })
        grid.lines(lines.map { UIModel.shifted($0, by: shift) }, in: inner, offset: offset, ellipsis: glyphs.more)
    }

    /// The lines of the selected row of the Auditor or the Payment queue.
    func selectedLines(_ panel: Panel, content: PanelContent) -> Range<Int>? {
        switch panel {
        case .auditor:
            guard !simulation.auditor.anomalies.isEmpty else { return nil }
            let first = content.auditorHeaderCount + 2 * selectedIndex(.auditor)
            return first..<first + 2
        case .queue:
            guard !simulation.store.transactions.isEmpty else { return nil }
            let i = selectedIndex(.queue), open = simulation.store.queue.count
            let line = 1 + i + (i >= open ? 1 : 0)
            return line..<line + 1
        case .app, .server, .network, .events: return nil
        }
    }

    /// `line` without its first `columns` columns (horizontal scroll).
    static func shifted(_ line: Line, by columns: Int) -> Line {
        guard columns > 0 else { return line }
        var skip = columns
        var out: Line = []
        for span in line {
            if skip == 0 { out.append(span); continue }
            var text = Substring(span.text)
            while skip > 0, let ch = text.first {
                skip -= TextWidth.of(ch)
                text = text.dropFirst()
            }
            if !text.isEmpty { out.append(Span(String(text), span.style)) }
        }
        return out
    }

    func renderStatus(_ grid: inout Grid, row: Int) {
        var spans: [Span] = []
        if let status { spans.append(Span(" " + status + " ", Style(.info, bold: true))) }
        // Under `finish-failed: false` every failure is left unfinished already: the armed
        // fault would never be used, so it is not shown as waiting.
        var armedWords = simulation.armedFaults.filter {
            $0 != "next failure left unfinished" || simulation.policy.value(of: .finishFailed) == "true"
        }
        if let armed { armedWords.insert("\(armed.command.scenarioText) when \(armed.event.rawValue)", at: 0) }
        if !armedWords.isEmpty {
            spans.append(Span(" armed: ", Style(.warn, bold: true)))
            spans.append(Span(armedWords.joined(separator: " \(glyphs.sep) "), Style(.warn)))
        }
        if spans.isEmpty {
            spans.append(Span(" " + idleStatus, Style(.dim)))
        }
        grid.put(spans, x: 0, y: row, width: grid.width, ellipsis: glyphs.more)
    }

    func renderFooter(_ grid: inout Grid, row: Int) {
        // An inspector covers the status line: what `H` did shows before its keys.
        if case .inspect? = overlay, let said = handoutStatus {
            let words = Span(" " + said + " ", Style(.info, bold: true))
            let used = min(grid.width, TextWidth.of(words.text))
            grid.put([words], x: 0, y: row, width: grid.width, ellipsis: glyphs.more)
            guard grid.width - used > 10 else { return }
            grid.put(
                UIModel.footerSpans(footerEntries, width: grid.width - used), x: used, y: row, width: grid.width - used)
            return
        }
        grid.put(UIModel.footerSpans(footerEntries, width: grid.width), x: 0, y: row, width: grid.width)
    }

    /// The status line's words about a handout (being written, written, or not), while they
    /// are news.
    var handoutStatus: String? {
        guard let status,
            status.hasPrefix("writing the handout") || status.hasPrefix("wrote the handout")
                || status.hasPrefix("could not save")
        else {
            return nil
        }
        return status
    }

    /// A footer's entries in `width` columns after a one-column margin, keys bold and
    /// words dim. A key is never cut and never shown without its word. The entries are two
    /// columns apart when they all fit so, else one; when they do not fit whole, each names
    /// only its first key (`Esc close` for `Esc q close`); what still does not fit is left
    /// off, last entries first (`?` lists every key).
    static func footerSpans(_ entries: [FooterEntry], width: Int) -> [Span] {
        let fits = { (gap: Int) in entries.reduce(1 - gap) { $0 + $1.width(gap: gap) } <= width }
        let gap = fits(2) ? 2 : 1
        var spans: [Span] = []
        var used = 1 - gap
        for entry in fits(gap) ? entries : entries.map(\.shortened) {
            if used + entry.width(gap: gap) > width { break }
            let space = String(repeating: " ", count: spans.isEmpty ? 1 : gap)
            spans.append(Span(space + entry.keys.joined(separator: " "), Style(.key, bold: true)))
            spans.append(Span(" " + entry.word, Style(.dim)))
            used += entry.width(gap: gap)
        }
        return spans
    }

    /// The footer's order: these first (those that apply now), then the table's order.
    static let footerFirst: [UIAction] = [
        .nextStep, .toEnd, .stepBack, .help, .quit, .inspect, .buy, .crash, .policy, .restart, .split, .story,
        .nextFile, .browse, .serverSide, .drop, .fail,
    ]

    /// The keys that work now, most useful first: the open box's, or the main screen's.
    var footerEntries: [FooterEntry] {
        if let overlayFooter { return overlayFooter }
        var keys: [FooterEntry] = []
        // A key an earlier binding takes now is not offered twice; the most useful come
        // first, so that a narrow footer keeps them (`?` lists the rest).
        // After the end of play, Enter and G only say so: they give way to B, R and the files.
        let ended: Set<UIAction> = result != nil ? [.nextStep, .toEnd] : []
        let shown = KeyBinding.all.filter {
            $0.footer != nil && !ended.contains($0.action) && KeyBinding.binding(for: $0.keys[0], in: self) == $0
        }
        let rank = { (b: KeyBinding) in UIModel.footerFirst.firstIndex(of: b.action) ?? UIModel.footerFirst.count }
        for b in shown.enumerated().sorted(by: { (rank($0.1), $0.0) < (rank($1.1), $1.0) }).map(\.1) {
            let first = b.written.split(separator: ",").first.map(String.init) ?? b.written
            let key = first == "Space" ? "space" : first.replacingOccurrences(of: "`", with: "")
            // In `learn` the files are its lessons (`]` next lesson, as its status line says).
            let word =
                b.action == .pause && paused
                ? "resume" : b.action == .nextFile && tour != nil ? "next lesson" : b.footer!
            keys.append(FooterEntry(keys: [key], word: word))
        }
        return keys
    }

    // MARK: the rows the Auditor and the queue select

    /// The anomalies as the Auditor lists them: newest first.
    var inspectableAnomalies: [Anomaly] {
        Array(simulation.auditor.anomalies.suffix(PanelContent.historyLimit).reversed())
    }

    /// The transactions as the Payment queue lists them: unfinished, then finished newest first.
    var inspectableTransactions: [StoreTransaction] {
        let all = simulation.store.transactions
        return all.filter { !$0.finished } + all.filter(\.finished).suffix(PanelContent.historyLimit).reversed()
    }

    /// The selected row of `panel`, kept inside the list as it grows or shrinks.
    func selectedIndex(_ panel: Panel) -> Int {
        let count = panel == .auditor ? inspectableAnomalies.count : inspectableTransactions.count
        return panels.selected(panel, of: count)
    }

    /// The transaction selected in the Payment queue (or Transactions), if any.
    var selectedTransactionId: String? {
        let list = inspectableTransactions
        return list.isEmpty ? nil : list[selectedIndex(.queue)].id
    }

    /// `iapsim serve`'s terminal UI: the user's backend plays the merchant server of this
    /// world and of every world a restart makes. The split screen and the replays stay off:
    /// a real backend cannot be copied.
    package mutating func connectBackend(_ connect: @escaping @Sendable () -> ExternalLink) {
        backend = connect
        player.attach(connect())
    }
}
