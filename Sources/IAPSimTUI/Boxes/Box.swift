import IAPSimCore

/// A box drawn over the panels that takes the keys while it is open. Each box is one file
/// of `Boxes/` (`HelpBox`, `PickerBox`, `PolicyBox`, `InspectorBox`, `ConfirmBox`,
/// `SearchBox`, `PageBox`): its state (the case's payload), its key table, what its keys do
/// and how it is drawn. This file only routes a key, a frame and a footer to the open box.
package enum Overlay: Sendable, Hashable {
    case help
    case picker(Picker)
    /// The policy panel; `selected` is the row (0: preset, then every policy key).
    case policy(selected: Int)
    /// An inspector: one anomaly or one transaction explained, scrolled `scroll` lines.
    case inspect(InspectTarget, scroll: Int)
    /// A question answered with y or n (`R`: restart?).
    case confirm(Confirmation)
    /// `/`: the text typed so far, searched for in Events on Enter.
    case search(String)
    /// A page of text: the whole story (`S`), the glossary (`w`), a lesson's question.
    case page(Page, scroll: Int)
}

extension UIModel {
    /// A key while a box is open: the action its table gives the key, or nothing (a key the
    /// box has no row for changes nothing).
    mutating func handleOverlay(_ current: Overlay, _ key: Key) -> [UIEffect] {
        switch current {
        case .help: return HelpBox.handle(key, &self)
        case .inspect(let target, let offset): return InspectorBox.handle(key, target, scroll: offset, &self)
        case .page(let page, let offset): return PageBox.handle(key, page, scroll: offset, &self)
        case .picker(let picker): return PickerBox.handle(key, picker, &self)
        case .policy(let selected): return PolicyBox.handle(key, selected: selected, &self)
        case .confirm(let question): return ConfirmBox.handle(key, question, &self)
        case .search(let text): return SearchBox.handle(key, text, &self)
        }
    }

    /// The open box, drawn over the screen.
    func renderOverlay(_ grid: inout Grid) {
        switch overlay {
        case .help?: HelpBox.render(self, &grid)
        case .picker(let p)?: PickerBox.render(p, self, &grid)
        case .policy(let selected)?: PolicyBox.render(selected: selected, self, &grid)
        case .inspect(let target, let offset)?: InspectorBox.render(target, scroll: offset, self, &grid)
        case .page(let page, let offset)?: PageBox.render(page, scroll: offset, self, &grid)
        case .confirm(let question)?: ConfirmBox.render(question, self, &grid)
        case .search(let text)?: SearchBox.render(text, self, &grid)
        case nil: break
        }
    }

    /// The open box's footer, from its own key table.
    var overlayFooter: [FooterEntry]? {
        let ascii = options.ascii
        switch overlay {
        case .help?: return HelpBox.footer(ascii: ascii)
        case .inspect(let target, _)?: return InspectorBox.footer(target, ascii: ascii)
        case .page(let page, _)?: return PageBox.footer(page, ascii: ascii)
        case .picker(let p)?: return PickerBox.footer(p, ascii: ascii)
        case .policy?: return PolicyBox.footer(ascii: ascii)
        case .confirm(let question)?: return ConfirmBox.footer(question, ascii: ascii)
        case .search?: return SearchBox.footer(ascii: ascii)
        case nil: return nil
        }
    }

    /// How far the open overlay can scroll on a screen of `width` x `height` (the model's
    /// own size by default): its last line at the bottom of the box.
    func overlayScrollLimit(width w: Int? = nil, height h: Int? = nil) -> Int {
        let inner = UIModel.overlayInner(w ?? width, h ?? height)
        switch overlay {
        case .help?: return HelpBox.scrollLimit(self, inner: inner)
        case .inspect(let target, _)?:
            return max(0, InspectorBox.lines(target, self, innerWidth: inner.width).count - inner.height)
        case .page(let page, _)?:
            return PageBox.scrollLimit(page, self, inner: inner, width: w ?? width, height: h ?? height)
        case .picker?, .policy?, .confirm?, .search?, nil: return 0
        }
    }

    /// An overlay's scroll position moved `delta` lines, kept within its text.
    func scrolled(_ offset: Int, by delta: Int) -> Int {
        max(0, min(overlayScrollLimit(), offset + delta))
    }

    // MARK: what every box draws with

    func centeredBox(_ grid: inout Grid, width w: Int, height h: Int, title: String) -> Rect {
        let width = min(w, grid.width - 2), height = min(h, grid.height - 2)
        let r = Rect(x: (grid.width - width) / 2, y: max(1, (grid.height - height) / 2), width: width, height: height)
        grid.fill(x: r.x, y: r.y, width: r.width, height: r.height)
        grid.frame(r, title: title, focused: true, glyphs: glyphs)
        return r
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

    /// The "more below" and "above" marks on a box's bottom border.
    func scrollMarks(_ grid: inout Grid, _ r: Rect, start: Int, total: Int) {
        let inner = r.inner
        if start + inner.height < total {
            let more = " \(glyphs.down) \(total - start - inner.height) more: j "
            grid.put(more, x: r.x + r.width - 2 - TextWidth.of(more), y: r.y + r.height - 1, Style(.dim))
        }
        if start > 0 { grid.put(" \(glyphs.up) \(start) above ", x: r.x + 2, y: r.y + r.height - 1, Style(.dim)) }
    }

    /// A box's own footer on its last inner row, from its key table, fitted as the screen's.
    func boxFooter(_ entries: [FooterEntry], _ grid: inout Grid, _ r: Rect) {
        grid.put(
            UIModel.footerSpans(entries, width: r.inner.width - 1), x: r.inner.x, y: r.inner.y + r.inner.height - 1,
            width: r.inner.width)
    }
}
