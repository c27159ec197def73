import IAPSimCore
import IAPSimScenario

extension UIModel {
    func centeredBox(_ grid: inout Grid, width w: Int, height h: Int, title: String) -> Rect {
        let width = min(w, grid.width - 2), height = min(h, grid.height - 2)
        let r = Rect(x: (grid.width - width) / 2, y: max(1, (grid.height - height) / 2), width: width, height: height)
        grid.fill(x: r.x, y: r.y, width: r.width, height: r.height)
        grid.frame(r, title: title, focused: true, glyphs: glyphs)
        return r
    }

    func renderPicker(_ p: Picker, _ grid: inout Grid) {
        let labelWidth = max(12, p.items.map { TextWidth.of($0.label) }.max() ?? 0)
        let detailWidth = p.items.map { TextWidth.of($0.refused.map { "(not now: \($0))" } ?? $0.detail) }.max() ?? 0
        let rows = Self.pickerRows(p)
        let r = centeredBox(
            &grid, width: max(labelWidth + detailWidth + 10, TextWidth.of(p.title) + 6), height: rows.count + 2,
            title: p.title)
        // A list taller than the box scrolls with the selection.
        let visible = max(1, r.inner.height)
        let at = rows.firstIndex { $0.item == p.selected } ?? 0
        let top = max(0, min(at - visible / 2, rows.count - visible))
        for (row, entry) in rows[top..<min(rows.count, top + visible)].enumerated() {
            let y = r.inner.y + row
            guard let i = entry.item else {
                grid.put(entry.heading, x: r.inner.x, y: y, Style(.title, bold: true), maxWidth: r.inner.width)
                continue
            }
            let item = p.items[i]
            let selected = i == p.selected
            // What cannot happen now is grey, its reason in place of the detail.
            let refused = item.refused != nil
            let style = Style(
                selected ? .focus : refused ? .dim : .normal, bold: selected, reverse: selected)
            let digit = item.key.map(String.init) ?? (i < 9 ? "\(i + 1)" : i == 9 ? "0" : " ")
            let text = " \(digit) " + TextWidth.pad(item.label, to: labelWidth) + "  "
            let used = grid.put(text, x: r.inner.x, y: y, style, maxWidth: r.inner.width)
            let detail = item.refused.map { "(not now: \($0))" } ?? item.detail
            grid.put(
                TextWidth.pad(detail, to: r.inner.width - used), x: r.inner.x + used, y: y,
                selected ? style : Style(refused ? .warn : .dim), maxWidth: r.inner.width - used)
        }
        scrollMarks(&grid, r, start: top, total: rows.count)
    }

    /// The picker's rows: each item, after its group's heading where the group changes.
    static func pickerRows(_ p: Picker) -> [(heading: String, item: Int?)] {
        var rows: [(heading: String, item: Int?)] = []
        var previous: String?
        for (i, item) in p.items.enumerated() {
            if let group = item.group, group != previous { rows.append((group, nil)) }
            previous = item.group
            rows.append(("", i))
        }
        return rows
    }

    func renderPolicy(selected: Int, _ grid: inout Grid) {
        let policy = simulation.policy
        let differs = listedDifferences(from: player.scenario.preset.policy)
        let note =
            differs.isEmpty
            ? "as started: \(player.scenario.preset.rawValue)"
            : "changed from \(player.scenario.preset.rawValue): " + differs.map(\.rawValue).joined(separator: ", ")
        // Every changed key shows: the note wraps instead of being cut; on a short screen the
        // blank line goes first, then the help joins its key's line, then the help is cut to
        // that one line, and only then is the note cut; each cut with a visible mark.
        let textWidth = min(62, grid.width - 2) - 4
        let noteLines = Wrap.words(note, width: textWidth)
        let r = centeredBox(
            // Room for three lines of the note from the start: the box does not jump as it grows.
            &grid, width: 62, height: policyRows + 5 + max(3, noteLines.count),
            title: "Policy (changes apply now)")
        let inner = r.inner
        let preset = pendingPreset.map { "\(policyName), then \($0.rawValue) on R" } ?? policyName
        let presetHelp =
            pendingPreset.map {
                "StoreKit \($0.policy.storekit.rawValue) starts on restart (R): worlds switch between runs"
            } ?? "sets every key to a preset's values"
        var rows: [(String, String, String)] = [("preset", preset, presetHelp)]
        for key in policyKeys {
            rows.append(
                (
                    key.rawValue, policy.value(of: key),
                    key.help + "; " + key.hardeningWords(in: policy.storekit) + (key.liveEffect.map { "; " + $0 } ?? "")
                ))
        }
        let rowRoom = renderPolicyRows(rows, selected: selected, box: r, noteLines: noteLines.count, &grid)
        let row = rows[min(selected, rows.count - 1)]
        var below: [(String, Style)] =
            [(" \(row.0):", Style(.info, bold: true))]
            + Wrap.words(row.2, width: textWidth - 2).map { ("   " + $0, Style(.info)) }
        let room = inner.height - rowRoom
        if room < below.count + 1 + noteLines.count {
            below = Wrap.words("\(row.0): \(row.2)", width: textWidth).map { (" " + $0, Style(.info)) }
            if below.count > 1 && below.count + noteLines.count > room {
                let first = Wrap.words("\(row.0): \(row.2)", width: textWidth - 2)[0]
                below = [(" \(first) \(glyphs.more)", Style(.info))]
            }
        } else {
            below.insert(("", Style()), at: 0)
        }
        var notes = noteLines.map { (" " + $0, Style(.dim)) }
        if below.count + notes.count > room {
            notes = Array(notes.prefix(max(0, room - below.count)))
            if let last = notes.indices.last { notes[last].0 += " " + String(glyphs.more) }
        }
        for (i, line) in (below + notes).prefix(max(0, room)).enumerated() {
            grid.put(line.0, x: inner.x, y: inner.y + rowRoom + i, line.1, maxWidth: inner.width)
        }
    }

    /// The policy panel's rows: all of them, or on a short screen a window around the
    /// selected one (marked above and below), so that the note naming every change still
    /// shows. Returns how many rows it took.
    func renderPolicyRows(
        _ rows: [(String, String, String)], selected: Int, box r: Rect, noteLines: Int, _ grid: inout Grid
    ) -> Int {
        let inner = r.inner
        let minimumBelow = 1 + noteLines
        let rowRoom = max(5, min(rows.count, inner.height - minimumBelow))
        let first = max(0, min(selected - rowRoom / 2, rows.count - rowRoom))
        // The name column fits the longest key: `server-consumption-answer` is never cut.
        let nameWidth = max(21, (rows.map { TextWidth.of($0.0) }.max() ?? 0) + 1)
        for (line, i) in (first..<min(rows.count, first + rowRoom)).enumerated() {
            let row = rows[i]
            let on = i == selected
            let value = on ? "\(glyphs.left) \(row.1) \(glyphs.right)" : "  \(row.1)"
            grid.put(
                " " + TextWidth.pad(row.0, to: nameWidth) + value, x: inner.x, y: inner.y + line,
                Style(on ? .focus : .normal, bold: on, reverse: on), maxWidth: inner.width)
        }
        if first > 0 { grid.put(" \(glyphs.up) \(first) more ", x: r.x + r.width - 14, y: r.y, Style(.dim)) }
        if first + rowRoom < rows.count {
            grid.put(
                " \(glyphs.down) \(rows.count - first - rowRoom) more ", x: r.x + r.width - 14,
                y: inner.y + rowRoom - 1,
                Style(.dim))
        }
        return rowRoom
    }

    // MARK: play mode

    /// Step `i` and what it says: on lines of their own, or, when that does not fit in
    /// `room` lines (80x24), the words run on after the step on its line.
    func narration(of i: Int, width: Int, room: Int) -> [Line] {
        let step = player.scenario.steps[i]
        let label = "Step \(i + 1) (line \(step.line)) "
        let command = UIModel.triggerText(step.trigger) + step.command.scenarioText
        let say = UIModel.plain(step.say ?? "")
        let apart =
            UIModel.wrap(
                [Span(label, Style(.title, bold: true)), Span(command, Style(bold: true))], width: width, indent: 2)
            + Wrap.words(say, width: width).map { [Span($0)] }
        let head = label + command + " \(glyphs.sep) "
        let runOn = Wrap.words(head + say, width: width)
        guard apart.count > room, !say.isEmpty, runOn.count < apart.count, let first = runOn.first,
            first.hasPrefix(head)
        else { return apart }
        return [
            [
                Span(label, Style(.title, bold: true)), Span(command, Style(bold: true)),
                Span(" \(glyphs.sep) ", Style(.dim)), Span(String(first.dropFirst(head.count))),
            ]
        ] + runOn.dropFirst().map { [Span($0)] }
    }

    func renderNarration(_ grid: inout Grid, _ r: Rect) {
        let steps = player.scenario.steps
        let badge = "step \(min(player.nextStep, steps.count))/\(steps.count)"
        // The step count always shows: a long title gives way, cut with a visible mark.
        let title = TextWidth.truncate(
            lessonHoldsBack.map { "Lesson \($0.index + 1) of \($0.lessons.count)" } ?? player.scenario.title,
            to: r.width - 8 - TextWidth.of(badge), ascii: options.ascii)
        grid.frame(r, title: title, focused: false, glyphs: glyphs, badge: badge)
        let inner = r.inner
        let textWidth = inner.width - 2
        var lines: [Line] = []
        if let result {
            lines += resultLines(result, width: textWidth)
        } else if let i = narratedStep {
            lines += narration(of: i, width: textWidth, room: inner.height - (result == nil ? 1 : 0))
        } else if lessonHoldsBack != nil {
            lines += Wrap.words(
                "Watch what happens; a question comes before the step that decides it. "
                    + "The story is told once you have answered.", width: textWidth
            ).map { [Span($0)] }
        } else {
            lines += Wrap.words(UIModel.plain(player.scenario.story ?? "(no story)"), width: textWidth).map {
                [Span($0)]
            }
        }
        var next: [Line] = []
        if result == nil, !player.stepsDone {
            let step = steps[player.nextStep]
            let hint = waitingForStep ? "Enter runs it" : "Enter runs it now"
            next = [
                [
                    Span(
                        "Next: step \(player.nextStep + 1): " + UIModel.triggerText(step.trigger)
                            + step.command.scenarioText, Style(.dim)), Span(" (\(hint))", Style(.warn)),
                ]
            ]
        } else if result == nil {
            next = [
                [Span("Every step has run. Enter or G settles the world and checks the expectations.", Style(.warn))]
            ]
        }
        // The "Next:" line always shows; what does not fit above it ends in a visible mark.
        let room = max(0, inner.height - next.count)
        var shown = Array(lines.prefix(room))
        if lines.count > room, !shown.isEmpty {
            let mark =
                " \(glyphs.more) (\(lines.count - room) more line\(lines.count - room == 1 ? "" : "s"): S shows all)"
            shown[shown.count - 1] =
                UIModel.cut(shown[shown.count - 1], to: textWidth - TextWidth.of(mark))
                + [Span(mark, Style(.warn))]
        }
        grid.lines(
            shown + next, in: Rect(x: inner.x + 1, y: inner.y, width: textWidth, height: inner.height),
            offset: 0, ellipsis: glyphs.more)
    }

    /// The first `columns` columns of `line`.
    static func cut(_ line: Line, to columns: Int) -> Line {
        var left = max(0, columns)
        var out: Line = []
        for span in line {
            var text = ""
            for ch in span.text {
                let w = TextWidth.of(ch)
                if w > left { left = 0; break }
                text.append(ch)
                left -= w
            }
            if !text.isEmpty { out.append(Span(text, span.style)) }
            if left == 0 { break }
        }
        return out
    }

    static func triggerText(_ t: Trigger) -> String {
        switch t {
        case .after(0): return ""
        case .after(let ms): return "after \(DurationText.format(ms)): "
        case .at(let ms): return "at \(DurationText.format(ms)): "
        case .when(let e, _): return "when \(e.rawValue): "
        }
    }

    /// The verdict: PASS or FAIL, then each expectation, flowed to `width` columns.
    func resultLines(_ result: ScenarioResult, width: Int) -> [Line] {
        if let stop = result.timeout {
            // Off the script, a step of the file that waits in vain waits for what the file's
            // own run did: the trainer's change made another run, not a failure.
            if !offScript.isEmpty {
                return UIModel.wrap(
                    [
                        Span("DIFFERS FROM THE FILE ", Style(.warn, bold: true, reverse: true)),
                        Span(" you added: \(offScriptWords); then \(stop)"),
                    ], width: width, indent: 2)
            }
            return UIModel.wrap([Span("FAIL ", Style(.bad, bold: true)), Span("\(stop)")], width: width, indent: 2)
        }
        let failing = result.expectations.filter { !$0.holds }.count
        // Off the script, the file's expectations describe another run: a difference is what
        // the trainer's change did, not a failure.
        let differs = failing > 0 && !offScript.isEmpty
        var lines: [Line] = [
            [
                Span(
                    differs ? "DIFFERS FROM THE FILE " : failing == 0 ? "PASS " : "FAIL ",
                    Style(differs ? .warn : failing == 0 ? .good : .bad, bold: true, reverse: true)),
                Span(
                    " \(result.expectations.count - failing) of \(result.expectations.count) "
                        + (differs ? "as the file expects; you added: " + offScriptWords : "expectations hold"),
                    Style(bold: true)),
            ]
        ]
        var row: Line = []
        var used = 0
        let sep = "  \(glyphs.sep)  "
        for e in result.expectations {
            let cell: Line = [
                Span(
                    e.holds ? "holds " : differs ? "now " : "FAILS ",
                    Style(e.holds ? .good : differs ? .warn : .bad, bold: true)),
                Span("\(e.name) = \(e.actual)" + (e.holds ? "" : " (expected \(e.expected))")),
            ]
            let w = cell.reduce(0) { $0 + TextWidth.of($1.text) }
            if !row.isEmpty, used + TextWidth.of(sep) + w > width {
                lines.append(row)
                row = []
                used = 0
            }
            if !row.isEmpty { row.append(Span(sep, Style(.dim))); used += TextWidth.of(sep) }
            row += cell
            used += w
        }
        if !row.isEmpty { lines.append(row) }
        return lines.flatMap { UIModel.wrap($0, width: width, indent: 2) }
    }
}
