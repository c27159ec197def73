import IAPSimCore

/// Help's keys.
package enum HelpKeyAction: Sendable, Hashable {
    case close
    case scroll(Int)
}

/// Help (`?`): every key and the legend, flowed into columns, scrolled with j/k. Its state
/// is the model's `helpScroll`; its keys, what they do and how it is drawn are here.
enum HelpBox {
    package static let keys: [OverlayBinding<HelpKeyAction>] =
        [
            OverlayBinding(
                [.escape, .char("q"), .char("?"), .other("F1"), .enter], named: 3, "close help (F1, Enter too)",
                footer: "close", .close)
        ] + OverlayKeys.scrolling { .scroll($0) }

    static func handle(_ key: Key, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        switch action {
        case .close: model.overlay = nil
        case .scroll(let delta): model.helpScroll = model.scrolled(model.helpScroll, by: delta)
        }
        return []
    }

    static func footer(ascii: Bool) -> [FooterEntry] { keys.footer(ascii: ascii) }

    /// The legend: every symbol and abbreviation the panels use.
    static func legend(_ model: UIModel) -> [(String, String)] {
        let g = model.glyphs, words = WorldWords(model.simulation.policy.storekit)
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
    static func lines(_ model: UIModel) -> [Line] {
        var out: [Line] = []
        let world = model.simulation.policy.storekit
        // A team's catalog: what it is and what of it the world does not model.
        if let lines = UIModel.catalogLines(model.player.scenario.catalog) {
            out.append([Span("Catalog", Style(.title, bold: true))])
            out += lines.map { [Span($0)] }
        }
        for group in KeyBinding.Group.allCases {
            let bindings = KeyBinding.all.filter { $0.group == group && $0.exists(in: world) }
            out.append([Span(group.rawValue, Style(.title, bold: true))])
            out += bindings.map { keyLine($0.written, $0.help(in: world)) }
        }
        out.append([Span("Legend", Style(.title, bold: true))])
        out += legend(model).map { [Span(TextWidth.pad($0.0, to: 12), Style(.key, bold: true)), Span($0.1)] }
        // Each box's keys, from its own table.
        for section in OverlayKeys.sections {
            out.append([Span(section.title, Style(.title, bold: true))])
            out += section.rows.map { keyLine($0.written, $0.help) }
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

    /// Help, wrapped for `innerWidth`: its lines, the columns they flow into and their width.
    static func layout(_ model: UIModel, innerWidth: Int) -> (lines: [Line], columns: Int, column: Int) {
        let columns = innerWidth >= 110 ? 2 : 1
        let column = (innerWidth - 1) / columns
        return (lines(model).flatMap { UIModel.wrap($0, width: column - 2, indent: 12) }, columns, column)
    }

    /// How far help scrolls inside a box of `inner` columns and rows.
    static func scrollLimit(_ model: UIModel, inner: (width: Int, height: Int)) -> Int {
        let flowed = layout(model, innerWidth: inner.width)
        return max(0, flowed.lines.count - flowed.columns * inner.height)
    }

    static func render(_ model: UIModel, _ grid: inout Grid) {
        let glyphs = model.glyphs
        let r = model.fullBox(&grid, title: "Keys and legend")
        let inner = r.inner
        let (lines, columns, column) = layout(model, innerWidth: inner.width)
        let perColumn = max(1, inner.height)
        let start = min(model.helpScroll, model.overlayScrollLimit(width: grid.width, height: grid.height))
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
}
