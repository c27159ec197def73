import IAPSimCore
import Testing

@testable import IAPSimScenario
@testable import IAPSimTUI

/// Every row of every overlay's key table (`OverlayKeys`), pressed with the box open in a
/// state that fits the row: the key reaches its own row (no earlier row takes it), is never
/// answered "not bound", and changes what a person sees or asks the edge for something. A
/// row added to a table is pressed here too; a key in no table changes nothing, as before.
@Suite struct EveryOverlayBindingTests {
    /// The keys a row is pressed with: its own, or samples of a digit and of text.
    static func keys(_ match: KeyMatch) -> [Key] {
        switch match {
        case .keys(let keys): return keys
        case .choice: return [.char("1"), .char("2")]
        case .text: return [.char("q"), .char("x"), .char(" ")]
        }
    }

    /// Presses every key of every row of `table` in the state `open` leaves for its action,
    /// after `prepare` (moves away from where the key takes the box).
    static func pressEvery<A>(
        _ name: String, _ table: [OverlayBinding<A>], letters: [Character] = [],
        open: (A) throws -> Driver, prepare: (A, inout Driver) -> Void = { _, _ in }
    ) throws -> Int {
        var pressed = 0
        for row in table {
            for key in keys(row.match) {
                var d = try open(row.action)
                prepare(row.action, &d)
                let label = "\(name): \(row.written) (\(key.name), \(row.action))"
                #expect(d.model.overlay != nil, "\(label): no box is open")
                #expect(
                    table.action(for: key, letters: letters) == row.action, "\(label): an earlier row takes the key")
                let before = d.screen(d.model.width, d.model.height), overlay = d.model.overlay,
                    effects = d.effects.count
                d.key(key)
                let status = d.model.status ?? ""
                #expect(!status.contains("not bound"), "\(label): \(status)")
                #expect(
                    d.effects.count > effects || d.screen(d.model.width, d.model.height) != before
                        || d.model.overlay != overlay,
                    "\(label): nothing changed on screen and nothing was asked of the edge")
                pressed += 1
            }
        }
        return pressed
    }

    /// The sandbox after a purchase, a box opened with `keys`.
    static func sandbox(_ keys: String, preset: PolicyPreset = .hardened, width: Int = 120, height: Int = 40)
        -> Driver
    {
        var d = Driver.bought(UIModel(preset: preset), wallMs: 3_000)
        d.effects += d.model.update(.resize(width: width, height: height))
        d.keys(keys)
        return d
    }

    @Test func everyRowOfEveryBoxActsInAStateThatFitsIt() throws {
        var pressed = 0
        // Help on a small screen, so that it scrolls both ways.
        pressed += try Self.pressEvery(
            "help", HelpBox.keys, open: { _ in Self.sandbox("?", width: 80, height: 24) },
            prepare: { action, d in if case .scroll(let n) = action, n < 0 { d.key(.end) } })
        pressed += try Self.pressEvery(
            "inspector", InspectorBox.keys,
            open: { _ in
                try InspectorTests.inspect(
                    "lost-order-crash-at-charge-naive.yaml", .lostOrder, width: 80, height: 24)
            },
            prepare: { action, d in if case .scroll(let n) = action, n < 0 { d.key(.end) } })
        pressed += try Self.pressEvery(
            "page", PageBox.keys, open: { _ in Self.sandbox("w", width: 80, height: 24) },
            prepare: { action, d in if case .scroll(let n) = action, n < 0 { d.key(.end) } })
        // `v`: twelve statuses, so that a page of moves has room both ways.
        pressed += try Self.pressEvery(
            "picker", PickerBox.keys, open: { _ in Self.sandbox("v") },
            prepare: { action, d in if case .move(let n) = action, n < 0 { d.key(.pageDown) } })
        pressed += try Self.pressEvery(
            "policy", PolicyBox.keys, open: { _ in Self.sandbox("p") },
            prepare: { action, d in if action == .move(-1) { d.key(.down) } })
        pressed += try Self.pressEvery("confirm", ConfirmBox.keys, open: { _ in Self.sandbox("R") })
        pressed += try Self.pressEvery(
            "search", SearchBox.keys, open: { _ in Self.sandbox("/") },
            prepare: { action, d in if action == .erase || action == .submit { d.keys("bob") } })
        let rows = [
            HelpBox.keys.count, InspectorBox.keys.count, PageBox.keys.count, PickerBox.keys.count,
            PolicyBox.keys.count, ConfirmBox.keys.count, SearchBox.keys.count,
        ].reduce(0, +)
        #expect(pressed > rows)
    }

    /// Every row is listed by help (in the box's own section) and by README's table.
    @Test func helpAndReadmeListEveryBoxsRows() {
        var d = Self.sandbox("?", width: 200, height: 200)
        let help = HelpBox.lines(d.model).map { $0.map(\.text).joined() }
        for section in OverlayKeys.sections {
            guard let at = help.firstIndex(of: section.title) else {
                Issue.record("help has no section \(section.title)")
                continue
            }
            for (k, row) in section.rows.enumerated() {
                let line = help[at + 1 + k]
                #expect(line.contains(row.help), "help's \(section.title) row \(k): \(line)")
            }
            #expect(KeyBinding.markdownTable.contains(section.rows[0].help))
        }
        d.key(.escape)
        #expect(d.model.overlay == nil)
    }

    /// A key in no table: on the main screen it is named as before; in a box it changes
    /// nothing, and the box stays open.
    @Test func aKeyInNoTableIsAnsweredAsBefore() {
        var d = Self.sandbox("")
        d.keys("Z")
        #expect(d.model.status == "key 'Z' is not bound; ? lists every key")
        d.key(.other("Insert"))
        #expect(d.model.status == "Insert: key not bound; ? lists every key")
        for open in ["?", "w", "b", "p", "R"] {
            var box = Self.sandbox(open)
            let overlay = box.model.overlay, before = box.screen(), effects = box.effects.count
            box.key(.other("Insert"))
            box.keys("Z")
            #expect(overlay != nil, "\(open) opens no box")
            #expect(box.model.overlay == overlay, "\(open): the box changed")
            #expect(box.screen() == before, "\(open): the screen changed")
            #expect(box.effects.count == effects)
        }
    }
}
