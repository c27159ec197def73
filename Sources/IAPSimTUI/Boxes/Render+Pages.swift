import IAPSimCore

extension UIModel {
    /// A page (story, glossary): wrapped to the box, scrolled like an inspector.
    /// A line that starts indented (a step's words in the story) goes on at its indent.
    func pageWrapped(_ page: Page, innerWidth: Int) -> [Line] {
        pageLines(page).flatMap { line in
            let indent = line.map(\.text).joined().prefix { $0 == " " }.count
            return UIModel.wrap(line, width: innerWidth - 2, indent: page == .glossary ? 30 : indent)
        }
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
        let text: String, title: String
        // What the answer does is said in the question: its footer is the y/n table's own.
        let keep = "to keep them, answer n and save the session with s"
        switch question {
        case .restart:
            text =
                isPlay
                ? "Restart from step 0 with the file's policy?" : "Restart: a fresh world, the same seed and policy?"
            title = "Restart"
        case .uninstall:
            text = "Uninstall the app? Memory and files go; the keychain survives."
            title = "Uninstall"
        case .leave(let delta):
            text = "Open the \(delta > 0 ? "next" : "previous") file? This sandbox world and its actions go; \(keep)."
            title = "Leave the sandbox"
        case .browse:
            text = "Choose another file? This sandbox world and its actions go; \(keep)."
            title = "Leave the sandbox"
        }
        let footer = confirmFooter(question)
        // A long question wraps at 66 columns.
        let width = min(
            max(min(TextWidth.of(text), 66), footer.reduce(0) { $0 + $1.width(gap: 2) }, 52) + 4, grid.width - 2)
        let lines = Wrap.words(text, width: width - 4)
        let r = centeredBox(&grid, width: width, height: lines.count + 4, title: title)
        for (i, line) in lines.enumerated() {
            grid.put(" " + line, x: r.inner.x, y: r.inner.y + i, Style(bold: true), maxWidth: r.inner.width)
        }
        boxFooter(footer, &grid, r)
    }

    /// The y/n table's footer, its words the question's: `y restart  n Esc q keep the world`.
    func confirmFooter(_ question: Confirmation) -> [FooterEntry] {
        let yes: String, no: String
        switch question {
        case .restart: (yes, no) = ("restart", "keep the world")
        case .uninstall: (yes, no) = ("uninstall", "keep the app")
        case .leave: (yes, no) = ("open the file", "stay")
        case .browse: (yes, no) = ("list the files", "stay")
        }
        return OverlayKeys.confirm.footer(ascii: options.ascii, word: { $0 == .yes ? yes : no })
    }

    /// A box's own footer on its last inner row, from its key table, fitted as the screen's.
    func boxFooter(_ entries: [FooterEntry], _ grid: inout Grid, _ r: Rect) {
        grid.put(
            UIModel.footerSpans(entries, width: r.inner.width - 1), x: r.inner.x, y: r.inner.y + r.inner.height - 1,
            width: r.inner.width)
    }

    func renderSearch(_ text: String, _ grid: inout Grid) {
        let r = centeredBox(&grid, width: 64, height: 5, title: "Search Events (nothing typed shows all)")
        grid.put(" /" + text + "_", x: r.inner.x, y: r.inner.y, Style(.focus, bold: true), maxWidth: r.inner.width)
        boxFooter(OverlayKeys.search.footer(ascii: options.ascii), &grid, r)
    }
}
