import IAPSimCore

/// The search box's keys.
package enum SearchKeyAction: Sendable, Hashable {
    case cancel, submit, erase
    /// A character: added to the text.
    case type
}

/// The search box (`/`): the text typed so far, searched for in Events on Enter. Its state
/// is `Overlay.search(text)`; its keys, what they do and how it is drawn are here.
enum SearchBox {
    package static let keys: [OverlayBinding<SearchKeyAction>] = [
        OverlayBinding([.escape], "cancel: the search stays as it was", footer: "cancel", .cancel),
        OverlayBinding(
            [.enter], "keep only Events lines with the text; empty shows all", footer: "search", .submit),
        OverlayBinding([.backspace], "erase the last character", footer: "erase", .erase),
        OverlayBinding(.text, "a character", "add it to the text (q too: here it is a letter)", .type),
    ]

    /// Letters build the text, Enter searches, Esc leaves the search as it was.
    static func handle(_ key: Key, _ text: String, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        switch action {
        case .cancel: model.overlay = nil
        case .submit:
            model.overlay = nil
            model.status = model.eventsView.searchFor(text)
            model.panels.scroll[.events] = 0
        case .erase: model.overlay = .search(String(text.dropLast()))
        case .type:
            if case .char(let c) = key, text.count < 60 { model.overlay = .search(text + String(c)) }
        }
        return []
    }

    static func footer(ascii: Bool) -> [FooterEntry] { keys.footer(ascii: ascii) }

    static func render(_ text: String, _ model: UIModel, _ grid: inout Grid) {
        let r = model.centeredBox(&grid, width: 64, height: 5, title: "Search Events (nothing typed shows all)")
        grid.put(" /" + text + "_", x: r.inner.x, y: r.inner.y, Style(.focus, bold: true), maxWidth: r.inner.width)
        model.boxFooter(footer(ascii: model.options.ascii), &grid, r)
    }
}
