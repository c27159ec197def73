import IAPSimCore
import Testing

@testable import IAPSimScenario
@testable import IAPSimTUI

/// Every box's footer, read off the screen as a person sees it (keys bold, words dim): each
/// key it names is bound by a row of the box's own table (`OverlayKeys`), the keys of one
/// entry are rows with one footer word, and every row marked for the footer is named, whole,
/// at 80x24 (the smallest screen the UI draws), at 100x32 and in ASCII. A confirmation and
/// the search box carry the same footer inside the box, fitted to its width.
@Suite struct OverlayFooterTests {
    /// One entry of a footer as drawn: the key words and the word after them.
    struct Entry: CustomStringConvertible {
        var keys: [String]
        var word: String
        var description: String { keys.joined(separator: " ") + " " + word }
    }

    /// The entries drawn in row `y`, columns `columns`: runs of bold key cells, each
    /// followed by a run of dim cells.
    static func entries(_ grid: Grid, y: Int, columns: Range<Int>) -> [Entry] {
        var out: [Entry] = []
        var run = "", runIsKey = false
        func flush() {
            let text = run.trimmingCharacters(in: .whitespaces)
            run = ""
            guard !text.isEmpty else { return }
            if runIsKey {
                out.append(Entry(keys: text.split(separator: " ").map(String.init), word: ""))
            } else if !out.isEmpty, out[out.count - 1].word.isEmpty {
                out[out.count - 1].word = text
            } else {
                out.append(Entry(keys: [], word: text))  // words without keys: recorded, and failed below
            }
        }
        for x in columns where !grid[x, y].isContinuation {
            let cell = grid[x, y]
            let isKey = cell.style.role == .key && cell.style.bold
            if cell.character != " ", isKey != runIsKey {
                flush()
                runIsKey = isKey
            }
            run.append(cell.character)
        }
        flush()
        return out
    }

    /// The keys a footer's key word stands for, as a person would press them; nil: the word
    /// names no key.
    static func keys(_ word: String) -> [Key]? {
        let named: [String: Key] = [
            "Esc": .escape, "Enter": .enter, "Backspace": .backspace, "Space": .char(" "), "Tab": .tab,
            "PgUp": .pageUp, "PgDn": .pageDown, "Home": .home, "End": .end, "F1": .other("F1"),
            "Up": .up, "Down": .down, "Left": .left, "Right": .right,
            "↑": .up, "↓": .down, "←": .left, "→": .right,
        ]
        if let key = named[word] { return [key] }
        // Arrows written together: `↑↓`, `Up/Down`.
        if word.count > 1, word.allSatisfy({ "↑↓←→".contains($0) }) { return word.map { named[String($0)]! } }
        if word.contains("/") {
            let parts = word.split(separator: "/").map { named[String($0)] }
            return parts.contains { $0 == nil } ? nil : parts.map { $0! }
        }
        // A range of digits: `1-9`, `1-3`.
        let range = word.split(separator: "-")
        if range.count == 2, let a = Int(range[0]), let b = Int(range[1]), a <= b, b <= 9 {
            return (a...b).map { .char(Character(String($0))) }
        }
        return word.count == 1 ? [.char(word.first!)] : nil
    }

    /// Checks `entries` against `table`: every key bound, one word per entry, every marked
    /// row named (but those of `hidden`, which must not be), the row's own word unless
    /// `ownWords` is false (a question says what its y does).
    static func check<A>(
        _ name: String, _ entries: [Entry], _ table: [OverlayBinding<A>], letters: [Character] = [],
        hidden: [A] = [], ownWords: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var named: [A] = []
        for entry in entries {
            #expect(!entry.keys.isEmpty && !entry.word.isEmpty, "\(name): '\(entry)' is not keys and a word")
            var words: Set<String> = []
            for word in entry.keys {
                guard let keys = keys(word) else {
                    Issue.record("\(name): '\(word)' in '\(entry)' names no key", sourceLocation: sourceLocation)
                    continue
                }
                for key in keys {
                    guard let row = table.first(where: { $0.match.matches(key, letters: letters) }) else {
                        Issue.record(
                            "\(name): '\(entry)' names \(key.name), which no row of the table binds",
                            sourceLocation: sourceLocation)
                        continue
                    }
                    named.append(row.action)
                    words.insert(row.footer ?? "(not marked for the footer)")
                }
            }
            #expect(words.count <= 1, "\(name): '\(entry)' names rows of several words: \(words)")
            if ownWords, let word = words.first {
                #expect(word == entry.word, "\(name): '\(entry)' should say \(word)", sourceLocation: sourceLocation)
            }
        }
        for row in table where row.footer != nil {
            let shown = named.contains(row.action)
            if hidden.contains(row.action) {
                #expect(!shown, "\(name): the footer offers \(row.written), which does nothing here")
            } else {
                #expect(
                    shown, "\(name): the footer leaves out \(row.written) (\(row.footer!)): \(entries)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// The screen's footer row.
    static func footer(_ d: Driver, _ w: Int, _ h: Int) -> [Entry] {
        entries(d.screen(w, h), y: h - 1, columns: 0..<w)
    }

    /// The footer inside the box titled `title`: its last inner row.
    static func boxFooter(_ d: Driver, _ title: String, _ w: Int, _ h: Int) -> [Entry] {
        let grid = d.screen(w, h)
        func text(_ x: Int, _ y: Int, _ count: Int) -> String {
            String((x..<min(w, x + count)).map { grid[$0, y].character })
        }
        // The corners, drawn as ┌ ┐ └ or, in ASCII, +.
        for y in 0..<h {
            for x in 0..<w where "┌+".contains(grid[x, y].character) && text(x + 1, y, title.count + 1) == " " + title {
                guard let right = (x + 1..<w).first(where: { "┐+".contains(grid[$0, y].character) }),
                    let bottom = (y + 1..<h).first(where: { "└+".contains(grid[x, $0].character) })
                else { continue }
                return entries(grid, y: bottom - 1, columns: x + 1..<right)
            }
        }
        Issue.record("no box '\(title)' on the \(w)x\(h) screen:\n\(grid.text)")
        return []
    }

    static let sizes = [(80, 24), (100, 32)]

    /// `open` at every size, plain and ASCII: the screen's footer checked by `check`.
    static func atEverySize(_ open: (Int, Int, Bool) throws -> Driver, _ check: (String, Driver, Int, Int) -> Void)
        rethrows
    {
        for (w, h) in sizes {
            for ascii in [false, true] { try check("\(w)x\(h)\(ascii ? " ascii" : "")", open(w, h, ascii), w, h) }
        }
    }

    static func sandbox(_ keys: String, _ w: Int, _ h: Int, _ ascii: Bool, preset: PolicyPreset = .hardened)
        -> Driver
    {
        var model = UIModel(preset: preset)
        model.options.ascii = ascii
        var d = Driver.bought(model, wallMs: 3_000)
        d.effects += d.model.update(.resize(width: w, height: h))
        d.keys(keys)
        return d
    }

    @Test func helpFooterIsItsTable() {
        Self.atEverySize({ Self.sandbox("?", $0, $1, $2) }) { size, d, w, h in
            Self.check("help \(size)", Self.footer(d, w, h), HelpBox.keys)
        }
    }

    @Test func anInspectorOffersHOnlyOnAnAnomaly() throws {
        try Self.atEverySize({ w, h, ascii in
            var d = try InspectorTests.inspect("lost-order-crash-at-charge-naive.yaml", .lostOrder, width: w, height: h)
            d.model.options.ascii = ascii
            return d
        }) { size, d, w, h in
            guard case .inspect(.anomaly, _)? = d.model.overlay else { Issue.record("no anomaly inspector"); return }
            Self.check("anomaly inspector \(size)", Self.footer(d, w, h), InspectorBox.keys)
        }
        Self.atEverySize({ Self.sandbox("i", $0, $1, $2) }) { size, d, w, h in
            guard case .inspect(.transaction, _)? = d.model.overlay else {
                Issue.record("no transaction inspector"); return
            }
            Self.check(
                "transaction inspector \(size)", Self.footer(d, w, h), InspectorBox.keys,
                hidden: [InspectorKeyAction.handout])
        }
    }

    @Test func aPageOffersEnterOnlyBeforeALessonsStep() throws {
        Self.atEverySize({ Self.sandbox("w", $0, $1, $2) }) { size, d, w, h in
            Self.check("glossary \(size)", Self.footer(d, w, h), PageBox.keys, hidden: [PageKeyAction.goOn])
        }
        let tour = try TourTests.tour()
        try Self.atEverySize({ w, h, ascii in
            var model = UIModel(tour: tour)
            model.options.ascii = ascii
            var d = Driver(model, width: w, height: h)
            d.key(.enter)
            d.wait(wallMs: 3_000)
            d.key(.enter)
            return d
        }) { size, d, w, h in
            guard case .page(.question, _)? = d.model.overlay else { Issue.record("no question"); return }
            Self.check("question \(size)", Self.footer(d, w, h), PageBox.keys)
        }
    }

    /// Pickers of 3 items, of 11 with a letter past the tenth (`m`), of 12 (`v`).
    @Test(arguments: ["b", "m", "v", "d"])
    func aPickersFooterNamesItsItems(_ open: String) {
        Self.atEverySize({ Self.sandbox(open, $0, $1, $2) }) { size, d, w, h in
            guard case .picker(let p)? = d.model.overlay else { Issue.record("\(open) opens no picker"); return }
            let letters = p.items.compactMap(\.key)
            let entries = Self.footer(d, w, h)
            Self.check("picker \(open) \(size)", entries, PickerBox.keys, letters: letters)
            // The items the digits reach, and each letter, are named; no digit past them.
            let picks = entries.first { $0.word == "pick" }?.keys.flatMap { Self.keys($0) ?? [] } ?? []
            let digits = (1...min(10, p.items.count)).map { Key.char(Character(String($0 % 10))) }
            #expect(Set(picks) == Set(digits + letters.map { Key.char($0) }), "picker \(open) \(size): \(picks)")
        }
    }

    @Test func thePolicyPanelsFooterIsItsTable() {
        Self.atEverySize({ Self.sandbox("p", $0, $1, $2) }) { size, d, w, h in
            Self.check("policy \(size)", Self.footer(d, w, h), PolicyBox.keys)
        }
    }

    /// Each question, on the screen's footer and inside its box; its y says what it does.
    @Test(arguments: [("R", "Restart"), ("u", "Uninstall"), ("]", "Leave the sandbox"), ("O", "Leave the sandbox")])
    func aQuestionsFooterIsTheYNTable(_ open: String, _ title: String) {
        Self.atEverySize({ w, h, ascii in
            var d = EscapeSequenceTests.sandboxWithASession()
            d.model.options.ascii = ascii
            d.effects += d.model.update(.resize(width: w, height: h))
            d.keys(open)
            return d
        }) { size, d, w, h in
            guard case .confirm? = d.model.overlay else { Issue.record("\(open) asks nothing"); return }
            let screen = Self.footer(d, w, h), box = Self.boxFooter(d, title, w, h)
            Self.check("\(title) \(size)", screen, ConfirmBox.keys, ownWords: false)
            Self.check("\(title) box \(size)", box, ConfirmBox.keys, ownWords: false)
            #expect(box.map(\.description) == screen.map(\.description), "\(title) \(size): two footers differ")
            #expect(screen.first?.word != "yes", "\(title) \(size): y should say what it does")
        }
    }

    @Test func theSearchBoxsFooterIsItsTable() {
        Self.atEverySize({ Self.sandbox("/", $0, $1, $2) }) { size, d, w, h in
            Self.check("search \(size)", Self.footer(d, w, h), SearchBox.keys)
            Self.check("search box \(size)", Self.boxFooter(d, "Search Events", w, h), SearchBox.keys)
        }
    }

    /// The fitting rule: two columns between entries when they fit so, one when not, then
    /// the first key of each, then whole entries left off; never a key cut or without its
    /// word.
    @Test func aNarrowFooterShortensByRule() {
        let entries = [
            FooterEntry(keys: ["Esc", "q"], word: "close"), FooterEntry(keys: ["↑↓"], word: "scroll"),
            FooterEntry(keys: ["PgDn", "PgUp"], word: "page"),
        ]
        func text(_ width: Int) -> String { UIModel.footerSpans(entries, width: width).map(\.text).joined() }
        #expect(text(39) == " Esc q close  ↑↓ scroll  PgDn PgUp page")
        #expect(text(38) == " Esc q close ↑↓ scroll PgDn PgUp page")
        #expect(text(36) == " Esc close ↑↓ scroll PgDn page")
        #expect(text(29) == " Esc close ↑↓ scroll")
        #expect(text(19) == " Esc close")
    }

    /// A row added to a table shows in the footer without another edit.
    @Test func aNewRowShowsInTheFooter() {
        let table =
            SearchBox.keys + [OverlayBinding([.tab], "complete the word", footer: "complete", SearchKeyAction.type)]
        let footer = table.footer(ascii: false)
        #expect(footer.last == FooterEntry(keys: ["Tab"], word: "complete"))
        #expect(footer.dropLast() == SearchBox.keys.footer(ascii: false)[...])
    }
}
