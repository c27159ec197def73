import IAPSimCore
import IAPSimScenario

/// One choice of a picker: a label, a detail in grey, and what choosing it does.
package struct PickerItem: Sendable, Hashable {
    package var label: String
    package var detail: String
    package var action: PickerAction
    /// Why it cannot happen now: the item is greyed and choosing it only says this.
    package var refused: String?
    /// The heading the item is listed under (the browser's failure modes); nil: none.
    package var group: String?
    /// The key that picks it, for an item past the tenth (the digits' reach); nil: its digit.
    package var key: Character?

    package init(_ label: String, _ detail: String = "", _ action: PickerAction) {
        self.label = label
        self.detail = detail
        self.action = action
    }
}

/// What a picker's choice does.
package enum PickerAction: Sendable, Hashable {
    case run(Command)
    /// Arm a command that runs right after the next event of this kind.
    case arm(TriggerEvent, Command)
    /// Open another scenario file (the browser).
    case open(String)
    /// The App Store environment of the next run (`environment:`): it starts on restart.
    case environment(StoreEnvironment)
}

/// A short list to choose from with arrows (or `j`/`k`) and Enter, or a digit. Its entries
/// are data: the menus of `Picker+Menus.swift`, `ServerSideMenu` and `SubscriptionMenu`.
package struct Picker: Sendable, Hashable {
    package var title: String
    package var items: [PickerItem]
    package var selected = 0

    package init(title: String, items: [PickerItem], selected: Int = 0) {
        self.title = title
        self.items = items
        self.selected = selected
    }
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

/// A picker (`b`, `c`, `a`, `d`, `f`, `v`, `m`, `C`, `O`). Its state is
/// `Overlay.picker(Picker)`; its keys, what they and a choice do, and how it is drawn are
/// here.
enum PickerBox {
    package static let keys: [OverlayBinding<PickerKeyAction>] = [
        OverlayBinding([.escape, .char("q")], "cancel: nothing is chosen", footer: "cancel", .close),
        OverlayBinding([.char("k"), .up], "select the item above", footer: "move", .move(-1)),
        OverlayBinding([.char("j"), .down], "select the item below", footer: "move", .move(1)),
        OverlayBinding([.pageUp], "ten items up", .move(-10)),
        OverlayBinding([.pageDown], "ten items down", .move(10)),
        OverlayBinding([.enter], "choose the selected item", footer: "choose", .choose),
        OverlayBinding(
            .choice, "1-9, 0", "choose that item (0: the tenth; a letter past it)", footer: "pick", .pick),
    ]

    static func handle(_ key: Key, _ current: Picker, _ model: inout UIModel) -> [UIEffect] {
        let letters = current.items.compactMap(\.key)
        guard let action = keys.action(for: key, letters: letters) else { return [] }
        var picker = current
        switch action {
        case .close: model.overlay = nil
        case .move(let delta):
            picker.selected = max(0, min(picker.items.count - 1, picker.selected + delta))
            model.overlay = .picker(picker)
        case .choose: return choose(picker.items[picker.selected], &model)
        case .pick:
            guard case .char(let c) = key else { return [] }
            if let item = picker.items.first(where: { $0.key == c }) { return choose(item, &model) }
            // 1-9, then 0 for the tenth.
            let n = c.wholeNumberValue.map { $0 == 0 ? 10 : $0 } ?? 0
            if n >= 1, n <= picker.items.count { return choose(picker.items[n - 1], &model) }
        }
        return []
    }

    static func choose(_ item: PickerItem, _ model: inout UIModel) -> [UIEffect] {
        if let why = item.refused {
            // The picker stays open: the person picks something that can happen.
            model.status = "\(item.label): \(why)"
            return []
        }
        model.overlay = nil
        switch item.action {
        case .open(let path):
            // In the tour, the browser lists the lessons: their files are read already.
            if let t = model.tour, let index = t.lessons.firstIndex(where: { $0.naive.path == path }) {
                model.openLesson(by: index - t.index)
                return []
            }
            return [.openScenario(path: path)]
        case .run(let command): model.act(command)
        case .environment(let environment):
            model.pendingEnvironment = environment
            model.status =
                "environment \(environment.rawValue): it starts on restart, press R "
                + "(a world's environment is chosen before its run)"
        case .arm(let event, let command):
            model.armed = ArmedCommand(event: event, command: command, armedAt: model.simulation.now)
            // The status line's `armed:` span says it already; saying it twice reads as two faults.
            model.note(.armed, "fault armed: \(command.scenarioText) right after the next '\(event.rawValue)'")
        }
        return []
    }

    /// The footer names the items by their digits and letters.
    static func footer(_ p: Picker, ascii: Bool) -> [FooterEntry] {
        let count = Swift.min(p.items.count, 10)
        let digits = count >= 10 ? ["1-9", "0"] : count > 1 ? ["1-\(count)"] : count == 1 ? ["1"] : []
        return keys.footer(ascii: ascii, choices: digits + p.items.compactMap(\.key).map(String.init))
    }

    static func render(_ p: Picker, _ model: UIModel, _ grid: inout Grid) {
        let labelWidth = max(12, p.items.map { TextWidth.of($0.label) }.max() ?? 0)
        let detailWidth = p.items.map { TextWidth.of($0.refused.map { "(not now: \($0))" } ?? $0.detail) }.max() ?? 0
        let rows = PickerBox.rows(p)
        let r = model.centeredBox(
            &grid, width: max(labelWidth + detailWidth + 10, TextWidth.of(p.title) + 6), height: rows.count + 2,
            title: p.title)
        // A list taller than the box scrolls with the selection.
        let visible = max(1, r.inner.height)
        let at = rows.firstIndex { $0.item == p.selected } ?? 0
        let top = max(0, min(at - visible / 2, rows.count - visible))
        for (row, entry) in rows[top..<min(rows.count, top + visible)].enumerated() {
            let y = r.inner.y + row
            guard let i = entry.item else {
                grid.put(entry.heading, x: r.inner.x, y: y, Style(.title, bold: true), maxWidth: r.inner.width)
                continue
            }
            let item = p.items[i]
            let selected = i == p.selected
            // What cannot happen now is grey, its reason in place of the detail.
            let refused = item.refused != nil
            let style = Style(
                selected ? .focus : refused ? .dim : .normal, bold: selected, reverse: selected)
            let digit = item.key.map(String.init) ?? (i < 9 ? "\(i + 1)" : i == 9 ? "0" : " ")
            let text = " \(digit) " + TextWidth.pad(item.label, to: labelWidth) + "  "
            let used = grid.put(text, x: r.inner.x, y: y, style, maxWidth: r.inner.width)
            let detail = item.refused.map { "(not now: \($0))" } ?? item.detail
            grid.put(
                TextWidth.pad(detail, to: r.inner.width - used), x: r.inner.x + used, y: y,
                selected ? style : Style(refused ? .warn : .dim), maxWidth: r.inner.width - used)
        }
        model.scrollMarks(&grid, r, start: top, total: rows.count)
    }

    /// The picker's rows: each item, after its group's heading where the group changes.
    static func rows(_ p: Picker) -> [(heading: String, item: Int?)] {
        var rows: [(heading: String, item: Int?)] = []
        var previous: String?
        for (i, item) in p.items.enumerated() {
            if let group = item.group, group != previous { rows.append((group, nil)) }
            previous = item.group
            rows.append(("", i))
        }
        return rows
    }
}
