import IAPSimCore

/// The policy panel's keys.
package enum PolicyKeyAction: Sendable, Hashable {
    case close
    case move(Int)
    /// The selected row's previous (-1) or next (1) value, applied at once.
    case cycle(Int)
}

/// The policy panel (`p`): the preset, then every key of the run's world, each changed at
/// once. Its state is `Overlay.policy(selected:)` (the row); its keys, what they do and how
/// it is drawn are here.
enum PolicyBox {
    package static let keys: [OverlayBinding<PolicyKeyAction>] = [
        OverlayBinding([.escape, .char("q"), .char("p")], "close the panel", footer: "close", .close),
        OverlayBinding([.char("k"), .up], "the row above", footer: "row", .move(-1)),
        OverlayBinding([.char("j"), .down], "the row below", footer: "row", .move(1)),
        OverlayBinding(
            [.char("h"), .left], "the row's previous value, applied now", footer: "change value (applies now)",
            .cycle(-1)),
        OverlayBinding(
            [.char("l"), .right, .enter, .char(" ")], named: 2,
            "the row's next value, applied now (Enter, Space too)", footer: "change value (applies now)",
            .cycle(1)),
    ]

    /// Rows: the preset, then every key of the run's world.
    static func rowCount(_ model: UIModel) -> Int { 1 + model.policyKeys.count }

    static func handle(_ key: Key, selected: Int, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        switch action {
        case .close: model.overlay = nil
        case .move(let delta):
            model.overlay = .policy(selected: max(0, min(rowCount(model) - 1, selected + delta)))
        case .cycle(let delta): cycle(row: selected, by: delta, &model)
        }
        return []
    }

    static func footer(ascii: Bool) -> [FooterEntry] { keys.footer(ascii: ascii) }

    /// Moves the selected row to its previous or next value and applies it at once.
    static func cycle(row: Int, by delta: Int, _ model: inout UIModel) {
        let policy = model.simulation.policy
        if row == 0 {
            let presets = PolicyPreset.allCases
            let from = model.pendingPreset ?? policy.matchingPreset
            let current = from.flatMap { presets.firstIndex(of: $0) } ?? -1
            let next = presets[((current + delta) % presets.count + presets.count) % presets.count]
            choosePreset(next, &model)
            return
        }
        let key = model.policyKeys[row - 1]
        let choices = key.choices
        let value = policy.value(of: key)
        let index = choices.firstIndex(of: value) ?? (delta > 0 ? -1 : 0)
        let next = choices[((index + delta) % choices.count + choices.count) % choices.count]
        model.act(.setPolicy(key, next))
    }

    /// A preset of this run's world applies now; one of the other StoreKit world waits for
    /// the restart (`R`): the two worlds never mix within a run.
    static func choosePreset(_ preset: PolicyPreset, _ model: inout UIModel) {
        guard preset.policy.storekit != model.simulation.policy.storekit else {
            model.pendingPreset = nil
            model.act(.setPreset(preset))
            return
        }
        guard case .sandbox = model.mode else {
            model.status = "\(preset.rawValue): play runs the file's StoreKit world; change the file's policy"
            return
        }
        model.pendingPreset = preset
        model.status =
            "\(preset.rawValue) is StoreKit \(preset.policy.storekit.rawValue): it starts on restart, "
            + "press R (worlds switch only between runs)"
    }

    static func render(selected: Int, _ model: UIModel, _ grid: inout Grid) {
        let policy = model.simulation.policy, glyphs = model.glyphs, scenario = model.player.scenario
        let differs = model.listedDifferences(from: scenario.preset.policy)
        let note =
            differs.isEmpty
            ? "as started: \(scenario.preset.rawValue)"
            : "changed from \(scenario.preset.rawValue): " + differs.map(\.rawValue).joined(separator: ", ")
        // Every changed key shows: the note wraps instead of being cut; on a short screen the
        // blank line goes first, then the help joins its key's line, then the help is cut to
        // that one line, and only then is the note cut; each cut with a visible mark.
        let textWidth = min(62, grid.width - 2) - 4
        let noteLines = Wrap.words(note, width: textWidth)
        let r = model.centeredBox(
            // Room for three lines of the note from the start: the box does not jump as it grows.
            &grid, width: 62, height: rowCount(model) + 5 + max(3, noteLines.count),
            title: "Policy (changes apply now)")
        let inner = r.inner
        let preset = model.pendingPreset.map { "\(model.policyName), then \($0.rawValue) on R" } ?? model.policyName
        let presetHelp =
            model.pendingPreset.map {
                "StoreKit \($0.policy.storekit.rawValue) starts on restart (R): worlds switch between runs"
            } ?? "sets every key to a preset's values"
        var rows: [(String, String, String)] = [("preset", preset, presetHelp)]
        for key in model.policyKeys {
            rows.append(
                (
                    key.rawValue, policy.value(of: key),
                    key.help(in: policy.storekit) + "; " + key.hardeningWords(in: policy.storekit)
                        + (key.liveEffect.map { "; " + $0 } ?? "")
                ))
        }
        let rowRoom = renderRows(rows, selected: selected, box: r, noteLines: noteLines.count, glyphs, &grid)
        let row = rows[min(selected, rows.count - 1)]
        var below: [(String, Style)] =
            [(" \(row.0):", Style(.info, bold: true))]
            + Wrap.words(row.2, width: textWidth - 2).map { ("   " + $0, Style(.info)) }
        let room = inner.height - rowRoom
        if room < below.count + 1 + noteLines.count {
            below = Wrap.words("\(row.0): \(row.2)", width: textWidth).map { (" " + $0, Style(.info)) }
            if below.count > 1 && below.count + noteLines.count > room {
                let first = Wrap.words("\(row.0): \(row.2)", width: textWidth - 2)[0]
                below = [(" \(first) \(glyphs.more)", Style(.info))]
            }
        } else {
            below.insert(("", Style()), at: 0)
        }
        var notes = noteLines.map { (" " + $0, Style(.dim)) }
        if below.count + notes.count > room {
            notes = Array(notes.prefix(max(0, room - below.count)))
            if let last = notes.indices.last { notes[last].0 += " " + String(glyphs.more) }
        }
        for (i, line) in (below + notes).prefix(max(0, room)).enumerated() {
            grid.put(line.0, x: inner.x, y: inner.y + rowRoom + i, line.1, maxWidth: inner.width)
        }
    }

    /// The policy panel's rows: all of them, or on a short screen a window around the
    /// selected one (marked above and below), so that the note naming every change still
    /// shows. Returns how many rows it took.
    static func renderRows(
        _ rows: [(String, String, String)], selected: Int, box r: Rect, noteLines: Int, _ glyphs: Glyphs,
        _ grid: inout Grid
    ) -> Int {
        let inner = r.inner
        let minimumBelow = 1 + noteLines
        let rowRoom = max(5, min(rows.count, inner.height - minimumBelow))
        let first = max(0, min(selected - rowRoom / 2, rows.count - rowRoom))
        // The name column fits the longest key: `server-consumption-answer` is never cut.
        let nameWidth = max(21, (rows.map { TextWidth.of($0.0) }.max() ?? 0) + 1)
        for (line, i) in (first..<min(rows.count, first + rowRoom)).enumerated() {
            let row = rows[i]
            let on = i == selected
            let value = on ? "\(glyphs.left) \(row.1) \(glyphs.right)" : "  \(row.1)"
            grid.put(
                " " + TextWidth.pad(row.0, to: nameWidth) + value, x: inner.x, y: inner.y + line,
                Style(on ? .focus : .normal, bold: on, reverse: on), maxWidth: inner.width)
        }
        if first > 0 { grid.put(" \(glyphs.up) \(first) more ", x: r.x + r.width - 14, y: r.y, Style(.dim)) }
        if first + rowRoom < rows.count {
            grid.put(
                " \(glyphs.down) \(rows.count - first - rowRoom) more ", x: r.x + r.width - 14,
                y: inner.y + rowRoom - 1,
                Style(.dim))
        }
        return rowRoom
    }
}

extension PolicyKey {
    /// When a change made in the policy panel while the world runs takes effect, for the keys
    /// whose new value a running app does not read at once (`Simulation.policyChangedLive`);
    /// nil: from the next moment the key is read.
    var liveEffect: String? { spec.liveEffect }

    /// `hardens: launch`, `hardens: 1 … 10`: the values "prevented by" may recommend.
    func hardeningWords(in world: StoreKitWorld) -> String {
        let values = hardening(in: world)
        guard let first = values.first, let last = values.last else { return "no value hardens" }
        return "hardens: " + (values.count > 3 ? "\(first) … \(last)" : values.joined(separator: ", "))
    }
}
