import IAPSimCore
import IAPSimScenario

/// What an inspector shows.
package enum InspectTarget: Sendable, Hashable {
    case anomaly(id: Int)
    case transaction(id: String)
    /// A subscription (by its `originalTransactionId`): its renewal info and periods.
    case subscription(original: String)
}

/// An inspector's keys.
package enum InspectorKeyAction: Sendable, Hashable {
    case close
    case scroll(Int)
    /// `H`: the inspected anomaly's handout.
    case handout
}

/// The inspector (`i`, Enter in the Auditor or the queue): one anomaly, transaction or
/// subscription explained, scrolled with j/k. Its state is `Overlay.inspect(target,
/// scroll:)`; its keys, what they do, how it opens and how it is drawn are here; its text is
/// `Inspector`'s (`Inspector*.swift`).
enum InspectorBox {
    package static let keys: [OverlayBinding<InspectorKeyAction>] =
        [
            OverlayBinding(
                [.escape, .char("q"), .enter], named: 2, "close the inspector (Enter too)", footer: "close", .close),
            OverlayBinding(
                [.char("H")], "an anomaly's inspector: write its handout (Markdown + Mermaid)", footer: "handout",
                .handout),
        ] + OverlayKeys.scrolling { .scroll($0) }

    static func handle(_ key: Key, _ target: InspectTarget, scroll: Int, _ model: inout UIModel) -> [UIEffect] {
        guard let action = keys.action(for: key) else { return [] }
        switch action {
        case .close:
            model.overlay = nil
            model.lessonInspectorClosed()
        case .scroll(let delta): model.overlay = .inspect(target, scroll: model.scrolled(scroll, by: delta))
        case .handout:
            guard case .anomaly(let id) = target else {
                model.status = "H writes an anomaly's handout: this inspector shows no anomaly"
                return []
            }
            return model.writeHandout(id)
        }
        return []
    }

    /// `H` writes an anomaly's handout: another inspector does not offer it.
    static func footer(_ target: InspectTarget, ascii: Bool) -> [FooterEntry] {
        let anomaly = if case .anomaly = target { true } else { false }
        return keys.footer(ascii: ascii) { $0 != .handout || anomaly }
    }

    /// `i`: the selected row's inspector: the Auditor's or the queue's when one of them has
    /// focus; from any other panel, the Auditor's selected anomaly, else the queue's row.
    static func open(_ model: inout UIModel) -> [UIEffect] {
        if model.subscriptionsView.shown {
            let rows = model.simulation.subscribers
            guard !rows.isEmpty else {
                model.status = "no subscription yet: nothing to inspect"
                return []
            }
            let k = model.subscriptionsView.selected(of: rows.count)
            model.overlay = .inspect(.subscription(original: rows[k].subscription.originalTransactionId), scroll: 0)
            return []
        }
        let anomalies = model.inspectableAnomalies, transactions = model.inspectableTransactions
        let anomaly = anomalies.isEmpty ? nil : anomalies[model.selectedIndex(.auditor)].id
        let transaction = transactions.isEmpty ? nil : transactions[model.selectedIndex(.queue)].id
        switch model.focus {
        case .auditor:
            guard let anomaly else {
                model.status = "no anomaly yet: nothing to inspect"
                return []
            }
            model.overlay = .inspect(.anomaly(id: anomaly), scroll: 0)
            return model.workOutWhatIfAfterAFrame()
        case .queue:
            guard let transaction else {
                model.status = "no transaction yet: nothing to inspect"
                return []
            }
            model.overlay = .inspect(.transaction(id: transaction), scroll: 0)
        case .app, .server, .network, .events:
            if let anomaly {
                model.overlay = .inspect(.anomaly(id: anomaly), scroll: 0)
                return model.workOutWhatIfAfterAFrame()
            } else if let transaction {
                model.overlay = .inspect(.transaction(id: transaction), scroll: 0)
            } else {
                model.status = "nothing to inspect yet: no anomaly, no transaction"
            }
        }
        return []
    }

    static func inspector(_ model: UIModel) -> Inspector {
        Inspector(
            sim: model.simulation, glyphs: model.glyphs, whatIf: model.whatIf, sandbox: !model.isPlay,
            working: model.whatIfWorking)
    }

    /// The inspector's lines, wrapped for `innerWidth`.
    static func lines(_ target: InspectTarget, _ model: UIModel, innerWidth: Int) -> [Line] {
        inspector(model).lines(target).flatMap { UIModel.wrap($0, width: innerWidth - 2) }
    }

    static func render(_ target: InspectTarget, scroll: Int, _ model: UIModel, _ grid: inout Grid) {
        let glyphs = model.glyphs
        let r = model.fullBox(&grid, title: inspector(model).title(target))
        let inner = r.inner
        let wrapped = lines(target, model, innerWidth: inner.width)
        let start = min(scroll, max(0, wrapped.count - inner.height))
        grid.lines(
            Array(wrapped.dropFirst(start)),
            in: Rect(
                x: inner.x + 1, y: inner.y, width: inner.width - 2,
                height: inner.height), offset: 0)
        if start + inner.height < wrapped.count {
            let more = " \(glyphs.down) \(wrapped.count - start - inner.height) more: j "
            grid.put(more, x: r.x + r.width - 2 - TextWidth.of(more), y: r.y + r.height - 1, Style(.dim))
        }
        if start > 0 { grid.put(" \(glyphs.up) \(start) above ", x: r.x + 2, y: r.y + r.height - 1, Style(.dim)) }
    }
}
