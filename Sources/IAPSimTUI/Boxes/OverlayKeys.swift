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

/// One row of an overlay's key table: the keys, how help writes them, what they do, the
/// footer's word for them, and the overlay's own action (an exhaustive enum per overlay, so
/// its handler names every row).
package struct OverlayBinding<Action: Sendable & Hashable>: Sendable, Hashable {
    package var match: KeyMatch
    package var written: String
    package var help: String
    /// The footer's short word for the row (`close`, `move`); nil keeps the row out of the
    /// footer (help still lists it). Rows with the same word share one footer entry.
    package var footer: String?
    package var action: Action
    /// How many of the row's keys, from the first, help and the footer name (the rest work
    /// too, and help's text says so).
    var named: Int

    init(_ match: KeyMatch, _ written: String, _ help: String, footer: String? = nil, _ action: Action) {
        self.match = match
        self.written = written
        self.help = help
        self.footer = footer
        self.action = action
        named = 0
    }

    /// A row of keys, written from the first `named` of them (all by default): `Esc, `q``.
    init(_ keys: [Key], named: Int? = nil, _ help: String, footer: String? = nil, _ action: Action) {
        let count = min(keys.count, named ?? keys.count)
        self.init(
            .keys(keys), keys.prefix(count).map(\.written).joined(separator: ", "), help, footer: footer, action)
        self.named = count
    }

    /// The row as help and README list it.
    var row: OverlayKeyRow { OverlayKeyRow(written: written, help: help) }

    /// The keys the footer names for the row: the named ones; a row with an arrow key is
    /// named by its arrows alone (the letters that do the same stay in help).
    var footerKeys: [Key] {
        guard case .keys(let keys) = match else { return [] }
        let named = Array(keys.prefix(self.named))
        let arrows = named.filter(\.isArrow)
        return arrows.isEmpty ? named : arrows
    }
}

extension Key {
    /// The key as help and README write it: a character in backticks, others by name.
    var written: String {
        if case .char(let c) = self, c != " " { return "`\(c)`" }
        return name
    }

    /// The arrows, in the order a footer writes them together (`↑↓`, `←→`).
    static let arrows: [Key] = [.up, .down, .left, .right]

    var isArrow: Bool { Key.arrows.contains(self) }

    /// The key as a footer writes it: an arrow as its glyph (its name in ASCII).
    func footerName(ascii: Bool) -> String {
        let g = Glyphs.unicode
        switch self {
        case .up where !ascii: return g.up
        case .down where !ascii: return g.down
        case .left where !ascii: return g.left
        case .right where !ascii: return g.right
        default: return name
        }
    }
}

/// One entry of a footer: the keys it names (each one word: `Esc`, `q`, `↑↓`, `1-9`) and
/// the word for what they do.
package struct FooterEntry: Sendable, Hashable {
    package var keys: [String]
    package var word: String

    /// Columns the entry takes in a footer: ` keys word`, after a gap of `gap` columns.
    func width(gap: Int = 1) -> Int { gap + 1 + TextWidth.of(keys.joined(separator: " ")) + TextWidth.of(word) }

    /// The entry naming only its first key: how a footer too narrow for the whole entry
    /// shortens it.
    var shortened: FooterEntry { FooterEntry(keys: Array(keys.prefix(1)), word: word) }
}

extension Array {
    /// The footer of a box whose table this is: one entry per footer word, in table order,
    /// naming the keys of every row with that word. `choices`: how the footer names a
    /// picker's items (`1-9`, `0`, `e`); `showing`: whether a row's action does anything in
    /// the box as it is open (an anomaly's handout, a lesson's Enter); `word`: the box's
    /// own word for a row's action where it says more than the row's (a question's `y`).
    func footer<A>(
        ascii: Bool, choices: [String] = [], showing: (A) -> Bool = { _ in true }, word: (A) -> String? = { _ in nil }
    ) -> [FooterEntry] where Element == OverlayBinding<A> {
        var groups: [(word: String, keys: [Key], choices: [String])] = []
        for row in self {
            guard let rowWord = row.footer, showing(row.action) else { continue }
            let word = word(row.action) ?? rowWord
            let extra: [String]
            switch row.match {
            case .choice: extra = choices
            case .keys, .text: extra = []
            }
            if let i = groups.firstIndex(where: { $0.word == word }) {
                groups[i].keys += row.footerKeys
                groups[i].choices += extra
            } else {
                groups.append((word, row.footerKeys, extra))
            }
        }
        return groups.map { group in
            // The arrows of an entry are one word, in their usual order: `↑↓ move`.
            let arrows = Key.arrows.filter(group.keys.contains).map { $0.footerName(ascii: ascii) }
            var keys: [String] = []
            for key in group.keys {
                if !key.isArrow {
                    keys.append(key.footerName(ascii: ascii))
                } else if key == group.keys.first(where: \.isArrow) {
                    keys.append(arrows.joined(separator: ascii ? "/" : ""))
                }
            }
            return FooterEntry(keys: keys + group.choices, word: group.word)
        }
    }
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

/// Every box's key table together. Each table is its box's own (`HelpBox.keys`,
/// `PickerBox.keys`, ...: in the box's file, beside the handler that finds a key's action in
/// it and nowhere else); help and README list these rows, so they cannot disagree.
package enum OverlayKeys {
    /// The scrolling rows help, inspectors and pages share.
    static func scrolling<A>(_ scroll: (Int) -> A) -> [OverlayBinding<A>] {
        [
            OverlayBinding([.char("j"), .down], "one line down", footer: "scroll", scroll(1)),
            OverlayBinding([.char("k"), .up], "one line up", footer: "scroll", scroll(-1)),
            OverlayBinding([.pageDown], "a page down", footer: "page", scroll(10)),
            OverlayBinding([.pageUp], "a page up", footer: "page", scroll(-10)),
            OverlayBinding([.home], "the top", scroll(-1_000_000)),
            OverlayBinding([.end], "the end", scroll(1_000_000)),
        ]
    }

    /// Every overlay's rows under its name, in the order help and README list them. Help,
    /// inspectors and pages scroll alike: their scrolling rows are listed once, first.
    package static var sections: [(title: String, rows: [OverlayKeyRow])] {
        func unlessScrolling<A>(_ table: [OverlayBinding<A>], _ scrolls: (A) -> Bool) -> [OverlayKeyRow] {
            table.filter { !scrolls($0.action) }.map(\.row)
        }
        return [
            ("In a picker", PickerBox.keys.map(\.row)),
            ("In the policy panel", PolicyBox.keys.map(\.row)),
            ("In a y/n question", ConfirmBox.keys.map(\.row)),
            ("In the search box", SearchBox.keys.map(\.row)),
            ("In help, an inspector, a page", scrolling { $0 }.map(\.row)),
            ("In an inspector", unlessScrolling(InspectorBox.keys) { if case .scroll = $0 { true } else { false } }),
            ("In help", unlessScrolling(HelpBox.keys) { if case .scroll = $0 { true } else { false } }),
            (
                "In a page (story, glossary)",
                unlessScrolling(PageBox.keys) { if case .scroll = $0 { true } else { false } }
            ),
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
