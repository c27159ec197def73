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
        if let zoomed {
            let top = layout.narration.map { $0.y + $0.height } ?? 1
            renderPanel(zoomed, &grid, Rect(x: 0, y: top, width: width, height: layout.statusRow - top))
        } else {
            for panel in Panel.allCases { renderPanel(panel, &grid, layout.panels[panel]!) }
        }
        renderStatus(&grid, row: layout.statusRow)
        renderFooter(&grid, row: layout.footerRow)
        switch overlay {
        case .help?: renderHelp(&grid)
        case .picker(let p)?: renderPicker(p, &grid)
        case .policy(let selected)?: renderPolicy(selected: selected, &grid)
        case .inspect(let target, let offset)?: renderInspector(target, scroll: offset, &grid)
        case nil: break
        }
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
        spans.append(Span((grid.width < 100 ? "  " : "  policy ") + simulation.policy.displayName, bar))
        spans.append(Span("  seed \(player.scenario.seed)", bar))
        switch mode {
        case .sandbox: spans.append(Span("  sandbox", bar))
        case .play(let file):
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let used = spans.reduce(0) { $0 + TextWidth.of($1.text) }
            let room = grid.width - 8 - used - 7
            spans.append(
                Span("  play " + (room >= 6 ? TextWidth.truncate(name, to: room, ascii: options.ascii) : ""), bar))
        }
        if recording != nil { spans.append(Span("  REC", Style(.bad, bold: true, reverse: true))) }
        if autopilot != nil { spans.append(Span("  AUTOPILOT", Style(.header, bold: true, reverse: true))) }
        grid.put(spans, x: 0, y: 0, width: grid.width - 8)
        grid.put("? help ", x: grid.width - 7, y: 0, bar)
    }

    var speedText: String {
        let s = speed
        return s == s.rounded() ? "\(Int(s))x" : (s == 0.5 ? "0.5x" : "0.25x")
    }

    /// PAUSED, RUNNING, NEXT: Enter or ENDED: a word, bold and reversed as well as coloured.
    var badge: (text: String, style: Style) {
        if result != nil { return ("ENDED", Style(.accent, bold: true)) }
        if waitingForStep { return ("NEXT: Enter", Style(.warn, bold: true)) }
        if paused { return ("PAUSED", Style(.warn, bold: true)) }
        return ("RUNNING", Style(.good, bold: true))
    }

    func renderPanel(_ panel: Panel, _ grid: inout Grid, _ r: Rect) {
        let inner = r.inner
        var content = PanelContent(sim: simulation, glyphs: glyphs, ascii: options.ascii, width: inner.width)
        let shift = hscroll[panel] ?? 0
        let shiftBadge = shift > 0 ? "\(glyphs.right)+\(shift) " : ""
        let title =
            (panel == .events ? panel.title + (eventFilter.map { ": \($0.rawValue) only" } ?? "") : panel.title)
            + (zoomed == panel ? " (zoomed: z returns, Tab pages)" : "")
        if panel == .events {
            let rows = content.eventRows(notes: notes, filter: eventFilter)
            let total = rows.count
            let offset = min(scrollOffset(panel), max(0, total - inner.height))
            let lines = content.events(rows, notes: notes, count: inner.height, offsetFromBottom: offset)
            let above = max(0, total - offset - inner.height)
            let badge =
                offset > 0
                ? "\(glyphs.up) \(above) older \(glyphs.sep) End follows"
                : eventFilter == nil ? "\(simulation.logCount) events" : "\(total) of \(simulation.logCount) events"
            grid.frame(r, title: title, focused: focus == panel, glyphs: glyphs, badge: shiftBadge + badge)
            grid.lines(lines.map { UIModel.shifted($0, by: shift) }, in: inner, offset: 0, ellipsis: glyphs.more)
            return
        }
        let total = content.total(panel)
        let highlight = selectedLines(panel, content: content)
        var offset = min(scrollOffset(panel), max(0, total - inner.height))
        if let h = highlight, focus == panel { offset = max(0, h.upperBound - inner.height) }
        content.limit = offset + inner.height + 2
        var badge: String?
        var lines: [Line]
        switch panel {
        case .app: lines = content.app
        case .queue: lines = content.queue; badge = content.queueBadge
        case .server: lines = content.server
        case .network: lines = content.network
        case .auditor: lines = content.auditor
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
        default: return nil
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
        // Whole entries only: a key without its label is worse than no key (`?` lists all).
        var spans: [Span] = []
        var used = 0
        for pair in footerKeys {
            let w = 2 + TextWidth.of(pair.0) + TextWidth.of(pair.1)
            if used + w > grid.width { break }
            spans.append(Span(" " + pair.0, Style(.key, bold: true)))
            spans.append(Span(" " + pair.1, Style(.dim)))
            used += w
        }
        grid.put(spans, x: 0, y: row, width: grid.width)
    }

    /// The keys that work now, most useful first.
    var footerKeys: [(String, String)] {
        let updown = glyphs.up + glyphs.down, leftright = glyphs.left + glyphs.right
        switch overlay {
        case .help?: return [("Esc", "close help"), ("j k", "scroll"), ("q", "quit")]
        case .inspect?: return [("Esc", "close"), ("j k", "scroll"), ("q", "quit")]
        case .picker?: return [(updown, "choose"), ("Enter", "select"), ("1-9", "pick"), ("Esc", "cancel")]
        case .policy?:
            return [(updown, "key"), (leftright, "change value (applies now)"), ("Esc", "close"), ("q", "quit")]
        case nil: break
        }
        var keys: [(String, String)] = []
        // A key an earlier binding takes now (Enter inspects in the Auditor) is not offered twice.
        for b in KeyBinding.all where b.footer != nil && KeyBinding.binding(for: b.keys[0], in: self) == b {
            let first = b.written.split(separator: ",").first.map(String.init) ?? b.written
            let key = first == "Space" ? "space" : first.replacingOccurrences(of: "`", with: "")
            keys.append((key, b.action == .pause && paused ? "resume" : b.footer!))
        }
        return keys
    }
}
