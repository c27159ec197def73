import IAPSimCore

extension UIModel {
    /// The legend: every symbol and abbreviation the panels use.
    var legend: [(String, String)] {
        let g = glyphs, words = WorldWords(simulation.policy.storekit)
        return words.legend(g) + [
            ("\(g.right) \(g.left)", "request / response"),
            ("\(g.up) \(g.down)", "more lines above / below"), (String(g.more), "text cut: h/L scroll, z zooms"),
            ("A3", "anomaly 3 (Enter in Auditor opens it)"), ("o2", "order 2 on the merchant server"),
            ("\(g.more)0004", "transaction id, last digits"), words.transactionLegend,
            ("req resp", "request / response"), ("t/o", "timed out (client gave up)"),
            ("B K M", "bytes, thousands, millions"), ("0:01:02.160", "virtual clock h:mm:ss.ms"),
            ("grace 12s", "a charge the auditor still waits for"), words.dataLegend,
            ("REC", "the screen is being recorded"), ("AUTOPILOT", "random actions are on"),
            ("again", "recharges sent again: retries, redeliveries, replays"),
            ("open", "an anomaly something can still make right"), ("resolved", "made right"),
            ("blocked", "an attack refused, no money lost"), ("permanent", "nothing will make it right"),
            ("STUCK", "a pending receipt nothing will send"), ("(attacker)", "an order the attacker made"),
            ("\(g.right)bob", "an order credited to someone else"), ("REFUNDED", "Apple gave the money back"),
            ("w", "the glossary: anomaly types, statuses, keys"),
        ]
    }

    /// Help: the key table by group, the legend, then each box's keys (`OverlayKeys`), flowed
    /// into two columns; it scrolls
    /// (j/k) when the screen is too small for all of it.
    func helpLines() -> [Line] {
        var out: [Line] = []
        let world = simulation.policy.storekit
        // A team's catalog: what it is and what of it the world does not model.
        if let lines = UIModel.catalogLines(player.scenario.catalog) {
            out.append([Span("Catalog", Style(.title, bold: true))])
            out += lines.map { [Span($0)] }
        }
        for group in KeyBinding.Group.allCases {
            let bindings = KeyBinding.all.filter { $0.group == group && $0.exists(in: world) }
            out.append([Span(group.rawValue, Style(.title, bold: true))])
            out += bindings.map { UIModel.keyLine($0.written, $0.help(in: world)) }
        }
        out.append([Span("Legend", Style(.title, bold: true))])
        out += legend.map { [Span(TextWidth.pad($0.0, to: 12), Style(.key, bold: true)), Span($0.1)] }
        // Each box's keys, from its own table.
        for section in OverlayKeys.sections {
            out.append([Span(section.title, Style(.title, bold: true))])
            out += section.rows.map { UIModel.keyLine($0.written, $0.help) }
        }
        return out
    }

    /// A key's line of help: the keys as written (without backticks), then what they do.
    static func keyLine(_ written: String, _ help: String) -> Line {
        [
            Span(TextWidth.pad(written.replacingOccurrences(of: "`", with: ""), to: 12), Style(.key, bold: true)),
            Span(help),
        ]
    }

    /// The box help and the inspectors use: every row between the header and the footer.
    func fullBox(_ grid: inout Grid, title: String) -> Rect {
        let r = Rect(x: 0, y: 1, width: grid.width, height: grid.height - 2)
        grid.fill(x: r.x, y: r.y, width: r.width, height: r.height)
        grid.frame(r, title: title, focused: true, glyphs: glyphs)
        return r
    }

    /// Inside the box help and the inspectors use, on a screen of `width` x `height`.
    static func overlayInner(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        (max(0, width - 2), max(1, height - 4))
    }

    /// Help, wrapped for `innerWidth`: its lines, the columns they flow into and their width.
    func helpLayout(innerWidth: Int) -> (lines: [Line], columns: Int, column: Int) {
        let columns = innerWidth >= 110 ? 2 : 1
        let column = (innerWidth - 1) / columns
        return (helpLines().flatMap { UIModel.wrap($0, width: column - 2, indent: 12) }, columns, column)
    }

    /// The inspector's lines, wrapped for `innerWidth`.
    func inspectorLines(_ target: InspectTarget, innerWidth: Int) -> [Line] {
        Inspector(sim: simulation, glyphs: glyphs, whatIf: whatIf, sandbox: !isPlay).lines(target).flatMap {
            UIModel.wrap($0, width: innerWidth - 2)
        }
    }

    /// How far the open overlay can scroll on a screen of `width` x `height` (the model's
    /// own size by default): its last line at the bottom of the box.
    func overlayScrollLimit(width w: Int? = nil, height h: Int? = nil) -> Int {
        let inner = UIModel.overlayInner(w ?? width, h ?? height)
        switch overlay {
        case .help?:
            let layout = helpLayout(innerWidth: inner.width)
            return max(0, layout.lines.count - layout.columns * inner.height)
        case .inspect(let target, _)?:
            return max(0, inspectorLines(target, innerWidth: inner.width).count - inner.height)
        case .page(let page, _)?:
            // A lesson's question sits in a box as tall as its text, within the screen.
            guard case .question = page else {
                return max(0, pageWrapped(page, innerWidth: inner.width).count - inner.height)
            }
            let lines = pageWrapped(page, innerWidth: min(76, (w ?? width) - 2) - 2).count
            return max(0, lines - (min(lines + 2, (h ?? height) - 2) - 2))
        case .picker?, .policy?, .confirm?, .search?, nil: return 0
        }
    }

    func renderHelp(_ grid: inout Grid) {
        let r = fullBox(&grid, title: "Keys and legend")
        let inner = r.inner
        let (lines, columns, column) = helpLayout(innerWidth: inner.width)
        let perColumn = max(1, inner.height)
        let start = min(helpScroll, overlayScrollLimit(width: grid.width, height: grid.height))
        let shown = Array(lines.dropFirst(start))
        for (i, line) in shown.prefix(columns * perColumn).enumerated() {
            let x = inner.x + 1 + (i / perColumn) * column
            grid.put(line, x: x, y: inner.y + i % perColumn, width: column - 1, ellipsis: glyphs.more)
        }
        if start + columns * perColumn < lines.count {
            let more = " \(glyphs.down) \(lines.count - start - columns * perColumn) more: j "
            grid.put(more, x: r.x + r.width - 2 - TextWidth.of(more), y: r.y + r.height - 1, Style(.dim))
        }
        if start > 0 { grid.put(" \(glyphs.up) \(start) above ", x: r.x + 2, y: r.y + r.height - 1, Style(.dim)) }
    }

    // MARK: inspector

    func renderInspector(_ target: InspectTarget, scroll: Int, _ grid: inout Grid) {
        let inspector = Inspector(sim: simulation, glyphs: glyphs, whatIf: whatIf, sandbox: !isPlay)
        let r = fullBox(&grid, title: inspector.title(target))
        let inner = r.inner
        let wrapped = inspectorLines(target, innerWidth: inner.width)
        let start = min(scroll, max(0, wrapped.count - inner.height))
        grid.lines(
            Array(wrapped.dropFirst(start)),
            in: Rect(
                x: inner.x + 1, y: inner.y, width: inner.width - 2,
                height: inner.height), offset: 0)
        if start + inner.height < wrapped.count {
            let more = " \(glyphs.down) \(wrapped.count - start - inner.height) more: j "
            grid.put(more, x: r.x + r.width - 2 - TextWidth.of(more), y: r.y + r.height - 1, Style(.dim))
        }
        if start > 0 { grid.put(" \(glyphs.up) \(start) above ", x: r.x + 2, y: r.y + r.height - 1, Style(.dim)) }
    }

    /// A styled line broken into lines of at most `width` columns (continuations indented).
    static func wrap(_ line: Line, width: Int, indent: Int = 4) -> [Line] {
        let pad = String(repeating: " ", count: indent)
        guard width > indent + 8 else { return [line] }
        var out: [Line] = []
        var current: Line = []
        var used = 0
        for span in line {
            var rest = Substring(span.text)
            while !rest.isEmpty {
                let room = width - used
                var taken = ""
                var w = 0
                for ch in rest {
                    let cw = TextWidth.of(ch)
                    if w + cw > room { break }
                    taken.append(ch)
                    w += cw
                }
                if taken.count < rest.count, let space = taken.lastIndex(of: " "),
                    taken.distance(from: taken.startIndex, to: space) > room / 2
                {
                    taken = String(taken[..<taken.index(after: space)])
                    w = TextWidth.of(taken)
                }
                if taken.isEmpty && used > 0 {
                    out.append(current); current = [Span(pad)]; used = indent
                    continue
                }
                current.append(Span(taken, span.style))
                used += w
                rest = rest.dropFirst(taken.count)
                if !rest.isEmpty { out.append(current); current = [Span(pad)]; used = indent }
            }
        }
        out.append(current)
        return out
    }
}
