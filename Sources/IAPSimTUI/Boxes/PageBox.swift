import IAPSimCore

/// A page of text the UI shows whole, scrolled with j/k.
package enum Page: Sendable, Hashable {
    case story
    case glossary
    /// A lesson's question, before the step that decides it.
    case question(String)
}

/// A page's keys (the story, the glossary, a lesson's question).
package enum PageKeyAction: Sendable, Hashable {
    case close
    /// Enter: closes; after a lesson's question, runs the step it was asked before.
    case goOn
    case scroll(Int)
}

/// A page (`S` the story, `w` the glossary, a lesson's question). Its state is
/// `Overlay.page(page, scroll:)`; its keys, what they do, its text and how it is drawn are
/// here.
enum PageBox {
    package static let keys: [OverlayBinding<PageKeyAction>] =
        [
            OverlayBinding([.escape, .char("q")], "close the page", footer: "close", .close),
            OverlayBinding(
                [.enter], "close; after a lesson's question, run the step it asked about", footer: "run the step",
                .goOn),
        ] + OverlayKeys.scrolling { .scroll($0) }

    static func handle(_ key: Key, _ page: Page, scroll: Int, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        switch action {
        case .close, .goOn:
            model.overlay = nil
            // The lesson's question: Enter goes on with the step it was asked before.
            if case .question = page {
                model.paused = false
                // Esc: the status line's own words say that the clock waits for the step.
                model.status = nil
                if action == .goOn { model.playNextStep() }
            }
        case .scroll(let delta): model.overlay = .page(page, scroll: model.scrolled(scroll, by: delta))
        }
        return []
    }

    /// Enter goes on with a lesson's step; on another page it only closes, as Esc does.
    static func footer(_ page: Page, ascii: Bool) -> [FooterEntry] {
        let question = if case .question = page { true } else { false }
        return keys.footer(ascii: ascii) { $0 != .goOn || question }
    }

    /// `S`: the story, then every step with its `say`; the steps run so far marked.
    static func storyLines(_ model: UIModel) -> [Line] {
        let s = model.player.scenario, glyphs = model.glyphs
        var out: [Line] = [[Span(s.title, Style(.title, bold: true))], []]
        // One line per paragraph (the file's line breaks are the author's, not the screen's):
        // the box wraps them to its width.
        let story = UIModel.plain(s.story ?? "(no story)").components(separatedBy: "\n\n")
        for paragraph in story {
            let words = paragraph.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !words.isEmpty { out += [[Span(words)], []] }
        }
        for (i, step) in s.steps.enumerated() {
            let done = i < model.player.nextStep
            out.append([
                Span(done ? "\(glyphs.check) " : "  ", Style(.good)),
                Span("step \(i + 1) (line \(step.line)) ", Style(.title, bold: !done)),
                Span(UIModel.triggerText(step.trigger) + step.command.scenarioText, Style(bold: true)),
            ])
            if let say = step.say { out.append([Span("    " + UIModel.plain(say), Style(done ? .dim : .normal))]) }
        }
        return out
    }

    /// The lines of `page`, before wrapping.
    static func lines(_ page: Page, _ model: UIModel) -> [Line] {
        switch page {
        case .story: return storyLines(model)
        case .glossary: return Glossary.lines(world: model.simulation.policy.storekit, glyphs: model.glyphs)
        case .question(let text):
            return [[Span("Before the next step, a question", Style(.title, bold: true))], []]
                + Wrap.words(text, width: 66).map { [Span($0, Style(bold: true))] }
                + [[]]
                + Wrap.words("Think it over (tell the class), then press Enter to run the step and see.", width: 66)
                .map { [Span($0, Style(.dim))] }
        }
    }

    static func title(_ page: Page, _ model: UIModel) -> String {
        switch page {
        case .story: return "The story and its steps"
        case .glossary: return "Glossary"
        case .question: return "Lesson \((model.tour?.index ?? 0) + 1): what happens next?"
        }
    }

    /// A page (story, glossary): wrapped to the box, scrolled like an inspector.
    /// A line that starts indented (a step's words in the story) goes on at its indent.
    static func wrapped(_ page: Page, _ model: UIModel, innerWidth: Int) -> [Line] {
        lines(page, model).flatMap { line in
            let indent = line.map(\.text).joined().prefix { $0 == " " }.count
            return UIModel.wrap(line, width: innerWidth - 2, indent: page == .glossary ? 30 : indent)
        }
    }

    /// How far `page` scrolls on a screen of `width` x `height`, inside a box of `inner`.
    static func scrollLimit(
        _ page: Page, _ model: UIModel, inner: (width: Int, height: Int), width: Int, height: Int
    ) -> Int {
        // A lesson's question sits in a box as tall as its text, within the screen.
        guard case .question = page else {
            return max(0, wrapped(page, model, innerWidth: inner.width).count - inner.height)
        }
        let lines = wrapped(page, model, innerWidth: min(76, width - 2) - 2).count
        return max(0, lines - (min(lines + 2, height - 2) - 2))
    }

    static func render(_ page: Page, scroll: Int, _ model: UIModel, _ grid: inout Grid) {
        // The question leaves the world in sight around it.
        let r: Rect
        if case .question = page {
            r = model.centeredBox(
                &grid, width: 76, height: wrapped(page, model, innerWidth: 74).count + 2, title: title(page, model))
        } else {
            r = model.fullBox(&grid, title: title(page, model))
        }
        let inner = r.inner
        let text = wrapped(page, model, innerWidth: inner.width)
        let start = min(scroll, max(0, text.count - inner.height))
        grid.lines(
            Array(text.dropFirst(start)),
            in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height), offset: 0)
        model.scrollMarks(&grid, r, start: start, total: text.count)
    }
}
