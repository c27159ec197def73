import IAPSimCore

extension UIModel {
    /// A page (story, glossary): wrapped to the box, scrolled like an inspector.
    func pageWrapped(_ page: Page, innerWidth: Int) -> [Line] {
        pageLines(page).flatMap { UIModel.wrap($0, width: innerWidth - 2, indent: page == .glossary ? 30 : 0) }
    }

    func renderPage(_ page: Page, scroll: Int, _ grid: inout Grid) {
        // The question leaves the world in sight around it.
        let r: Rect
        if case .question = page {
            r = centeredBox(
                &grid, width: 76, height: pageWrapped(page, innerWidth: 74).count + 2, title: pageTitle(page))
        } else {
            r = fullBox(&grid, title: pageTitle(page))
        }
        let inner = r.inner
        let wrapped = pageWrapped(page, innerWidth: inner.width)
        let start = min(scroll, max(0, wrapped.count - inner.height))
        grid.lines(
            Array(wrapped.dropFirst(start)),
            in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height), offset: 0)
        scrollMarks(&grid, r, start: start, total: wrapped.count)
    }

    /// The "more below" and "above" marks on a box's bottom border.
    func scrollMarks(_ grid: inout Grid, _ r: Rect, start: Int, total: Int) {
        let inner = r.inner
        if start + inner.height < total {
            let more = " \(glyphs.down) \(total - start - inner.height) more: j "
            grid.put(more, x: r.x + r.width - 2 - TextWidth.of(more), y: r.y + r.height - 1, Style(.dim))
        }
        if start > 0 { grid.put(" \(glyphs.up) \(start) above ", x: r.x + 2, y: r.y + r.height - 1, Style(.dim)) }
    }

    func renderConfirm(_ question: Confirmation, _ grid: inout Grid) {
        let text: String, title: String, yes: String
        switch question {
        case .restart:
            text =
                isPlay
                ? "Restart from step 0 with the file's policy?" : "Restart: a fresh world, the same seed and policy?"
            (title, yes) = ("Restart", "y restarts")
        case .uninstall:
            text = "Uninstall the app? Memory and files go; the keychain survives."
            (title, yes) = ("Uninstall", "y uninstalls")
        case .leave(let delta):
            text = "Open the \(delta > 0 ? "next" : "previous") file? This sandbox world and its actions go."
            (title, yes) = ("Leave the sandbox", "y opens it (s saves the session first)")
        case .browse:
            text = "Choose another file? This sandbox world and its actions go."
            (title, yes) = ("Leave the sandbox", "y lists the files (s saves the session first)")
        }
        let r = centeredBox(
            &grid, width: max(TextWidth.of(text), TextWidth.of(yes) + 26) + 6, height: 5, title: title)
        grid.put(" " + text, x: r.inner.x, y: r.inner.y, Style(bold: true), maxWidth: r.inner.width)
        grid.put(
            " \(yes), n or Esc keeps the world", x: r.inner.x, y: r.inner.y + 2, Style(.dim), maxWidth: r.inner.width)
    }

    func renderSearch(_ text: String, _ grid: inout Grid) {
        let r = centeredBox(&grid, width: 64, height: 5, title: "Search Events")
        grid.put(" /" + text + "_", x: r.inner.x, y: r.inner.y, Style(.focus, bold: true), maxWidth: r.inner.width)
        grid.put(
            " Enter keeps lines with this text; empty shows all; Esc cancels", x: r.inner.x, y: r.inner.y + 2,
            Style(.dim), maxWidth: r.inner.width)
    }
}
