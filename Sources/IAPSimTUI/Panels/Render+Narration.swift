import IAPSimCore
import IAPSimScenario

/// Play mode's narration over the panels (the step, its words, the verdict), and the
/// wrapping every box and panel of styled lines uses.
extension UIModel {
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
