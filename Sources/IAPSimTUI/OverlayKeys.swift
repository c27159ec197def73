/// Which keys a row of an overlay's table answers.
package enum KeyMatch: Sendable, Hashable {
    case keys([Key])
    /// A picker's items by number (1-9, 0 for the tenth) and the letters items past the
    /// tenth carry.
    case choice
    /// Any character typed: the text of the search box.
    case text

    /// Whether `key` is one of the row's; `letters`: the open picker's item letters.
    func matches(_ key: Key, letters: [Character] = []) -> Bool {
        switch self {
        case .keys(let keys): return keys.contains(key)
        case .choice:
            guard case .char(let c) = key else { return false }
            return c.wholeNumberValue != nil || letters.contains(c)
        case .text:
            if case .char = key { return true } else { return false }
        }
    }
}

/// One row of an overlay's key table: the keys, how help writes them, what they do, and the
/// overlay's own action (an exhaustive enum per overlay, so its handler names every row).
package struct OverlayBinding<Action: Sendable & Hashable>: Sendable, Hashable {
    package var match: KeyMatch
    package var written: String
    package var help: String
    package var action: Action

    init(_ match: KeyMatch, _ written: String, _ help: String, _ action: Action) {
        self.match = match
        self.written = written
        self.help = help
        self.action = action
    }

    init(_ keys: [Key], _ written: String, _ help: String, _ action: Action) {
        self.init(.keys(keys), written, help, action)
    }

    /// The row as help and README list it.
    var row: OverlayKeyRow { OverlayKeyRow(written: written, help: help) }
}

/// A row of an overlay's table without its action: what help and README list.
package struct OverlayKeyRow: Sendable, Hashable {
    package var written: String
    package var help: String
}

extension Array {
    /// The action of the first row `key` matches (table order), or nil: the overlay ignores it.
    func action<A>(for key: Key, letters: [Character] = []) -> A? where Element == OverlayBinding<A> {
        first { $0.match.matches(key, letters: letters) }?.action
    }
}

/// Help's keys.
package enum HelpKeyAction: Sendable, Hashable {
    case close
    case scroll(Int)
}

/// An inspector's keys.
package enum InspectorKeyAction: Sendable, Hashable {
    case close
    case scroll(Int)
    /// `H`: the inspected anomaly's handout.
    case handout
}

/// A page's keys (the story, the glossary, a lesson's question).
package enum PageKeyAction: Sendable, Hashable {
    case close
    /// Enter: closes; after a lesson's question, runs the step it was asked before.
    case goOn
    case scroll(Int)
}

/// A picker's keys.
package enum PickerKeyAction: Sendable, Hashable {
    case close
    case move(Int)
    /// Enter: the selected item.
    case choose
    /// A digit or an item's letter: that item.
    case pick
}

/// The policy panel's keys.
package enum PolicyKeyAction: Sendable, Hashable {
    case close
    case move(Int)
    /// The selected row's previous (-1) or next (1) value, applied at once.
    case cycle(Int)
}

/// A y/n question's keys.
package enum ConfirmKeyAction: Sendable, Hashable {
    case yes, no
}

/// The search box's keys.
package enum SearchKeyAction: Sendable, Hashable {
    case cancel, submit, erase
    /// A character: added to the text.
    case type
}

/// Every overlay's key table. The overlay's handler finds a key's action here and nowhere
/// else; help and README list these rows, so they cannot disagree.
package enum OverlayKeys {
    /// The scrolling rows help, inspectors and pages share.
    static func scrolling<A>(_ scroll: (Int) -> A) -> [OverlayBinding<A>] {
        [
            OverlayBinding([.down, .char("j")], "`j`, Down", "one line down", scroll(1)),
            OverlayBinding([.up, .char("k")], "`k`, Up", "one line up", scroll(-1)),
            OverlayBinding([.pageDown], "PgDn", "a page down", scroll(10)),
            OverlayBinding([.pageUp], "PgUp", "a page up", scroll(-10)),
            OverlayBinding([.home], "Home", "the top", scroll(-1_000_000)),
            OverlayBinding([.end], "End", "the end", scroll(1_000_000)),
        ]
    }

    package static let help: [OverlayBinding<HelpKeyAction>] =
        [
            OverlayBinding(
                [.escape, .char("q"), .char("?"), .other("F1"), .enter], "Esc, `q`, `?`", "close help (F1, Enter too)",
                .close)
        ] + scrolling { .scroll($0) }

    package static let inspector: [OverlayBinding<InspectorKeyAction>] =
        [
            OverlayBinding([.escape, .char("q"), .enter], "Esc, `q`", "close the inspector (Enter too)", .close),
            OverlayBinding(
                [.char("H")], "`H`", "an anomaly's inspector: write its handout (Markdown + Mermaid)", .handout),
        ] + scrolling { .scroll($0) }

    package static let page: [OverlayBinding<PageKeyAction>] =
        [
            OverlayBinding([.escape, .char("q")], "Esc, `q`", "close the page", .close),
            OverlayBinding([.enter], "Enter", "close; after a lesson's question, run the step it asked about", .goOn),
        ] + scrolling { .scroll($0) }

    package static let picker: [OverlayBinding<PickerKeyAction>] = [
        OverlayBinding([.escape, .char("q")], "Esc, `q`", "cancel: nothing is chosen", .close),
        OverlayBinding([.up, .char("k")], "`k`, Up", "select the item above", .move(-1)),
        OverlayBinding([.down, .char("j")], "`j`, Down", "select the item below", .move(1)),
        OverlayBinding([.pageUp], "PgUp", "ten items up", .move(-10)),
        OverlayBinding([.pageDown], "PgDn", "ten items down", .move(10)),
        OverlayBinding([.enter], "Enter", "choose the selected item", .choose),
        OverlayBinding(.choice, "1-9, 0", "choose that item (0: the tenth; a letter past it)", .pick),
    ]

    package static let policy: [OverlayBinding<PolicyKeyAction>] = [
        OverlayBinding([.escape, .char("q"), .char("p")], "Esc, `q`, `p`", "close the panel", .close),
        OverlayBinding([.up, .char("k")], "`k`, Up", "the row above", .move(-1)),
        OverlayBinding([.down, .char("j")], "`j`, Down", "the row below", .move(1)),
        OverlayBinding([.left, .char("h")], "`h`, Left", "the row's previous value, applied now", .cycle(-1)),
        OverlayBinding(
            [.right, .char("l"), .enter, .char(" ")], "`l`, Right",
            "the row's next value, applied now (Enter, Space too)",
            .cycle(1)),
    ]

    package static let confirm: [OverlayBinding<ConfirmKeyAction>] = [
        OverlayBinding([.char("y"), .char("Y")], "`y`", "yes: do it", .yes),
        OverlayBinding([.char("n"), .char("N"), .escape, .char("q")], "`n`, Esc, `q`", "no: the world is kept", .no),
    ]

    package static let search: [OverlayBinding<SearchKeyAction>] = [
        OverlayBinding([.escape], "Esc", "cancel: the search stays as it was", .cancel),
        OverlayBinding([.enter], "Enter", "keep only Events lines with the text; empty shows all", .submit),
        OverlayBinding([.backspace], "Backspace", "erase the last character", .erase),
        OverlayBinding(.text, "a character", "add it to the text (q too: here it is a letter)", .type),
    ]

    /// Every overlay's rows under its name, in the order help and README list them. Help,
    /// inspectors and pages scroll alike: their scrolling rows are listed once, first.
    package static var sections: [(title: String, rows: [OverlayKeyRow])] {
        func unlessScrolling<A>(_ table: [OverlayBinding<A>], _ scrolls: (A) -> Bool) -> [OverlayKeyRow] {
            table.filter { !scrolls($0.action) }.map(\.row)
        }
        return [
            ("In a picker", picker.map(\.row)),
            ("In the policy panel", policy.map(\.row)),
            ("In a y/n question", confirm.map(\.row)),
            ("In the search box", search.map(\.row)),
            ("In help, an inspector, a page", scrolling { $0 }.map(\.row)),
            ("In an inspector", unlessScrolling(inspector) { if case .scroll = $0 { true } else { false } }),
            ("In help", unlessScrolling(help) { if case .scroll = $0 { true } else { false } }),
            ("In a page (story, glossary)", unlessScrolling(page) { if case .scroll = $0 { true } else { false } }),
        ]
    }

    /// README's table of the overlays' keys.
    package static var markdownTable: String {
        var out = "| box | key | does |\n|---|---|---|\n"
        for section in sections {
            let box = section.title.replacingOccurrences(of: "In ", with: "")
            for row in section.rows { out += "| \(box) | \(row.written) | \(row.help) |\n" }
        }
        return out
    }
}
