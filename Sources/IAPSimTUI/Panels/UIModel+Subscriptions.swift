import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// `T`: shows or closes the Subscriptions view.
    mutating func toggleSubscriptions() {
        status = subscriptionsView.toggle()
    }

    /// One row per subscription of the Apple ID, in the order bought.
    var subscriberRows: [SubscriberRow] {
        let auditor = simulation.auditor
        return simulation.subscribers.map { view in
            let s = view.subscription
            let line = auditor.timeline(of: view.user, productId: s.productId)
            let ids = s.originalTransactionId
            let anomalies = simulation.auditor.anomalies.filter {
                $0.involved.contains(ids)
            }
            return SubscriberRow(
                user: view.user, product: s.productId, status: s.status, autoRenew: s.autoRenew,
                renewsTo: s.autoRenewProductId == s.productId ? nil : s.autoRenewProductId,
                periodEnd: s.status == .expired || s.status == .revoked ? nil : s.expiresAt,
                retrySince: s.status == .billingRetry || s.status == .grace ? s.retryStartedAt : nil,
                graceUntil: s.status == .grace ? s.gracePeriodExpiresAt : nil,
                granted: view.access,
                strip: SubscriptionStrip(
                    periods: UIModel.paidPeriods(s, now: simulation.now),
                    entitled: line?.entitled(until: simulation.now) ?? [],
                    granted: line?.granted(until: simulation.now) ?? [], changes: UIModel.planChanges(s)),
                anomalies: anomalies.map { "A\($0.id) \($0.type.rawValue) \($0.status.rawValue)" })
        }
    }

    /// The paid strip: each period as charged or refunded, then every billing retry (or
    /// grace) that followed a failed renewal, kept after it ended, up to now.
    static func paidPeriods(_ s: Subscription, now: VirtualTime) -> [SubscriptionStrip.Period] {
        var out = s.periods.map {
            SubscriptionStrip.Period(
                start: $0.start, end: $0.end, mark: $0.refunded ? .refunded : $0.priceCents == 0 ? .free : .paid)
        }
        for retry in s.billingRetries where now > retry.start {
            let end = min(retry.end ?? now, now)
            let grace = retry.graceUntil.map { min($0, end) } ?? retry.start
            if grace > retry.start {
                out.append(SubscriptionStrip.Period(start: retry.start, end: grace, mark: .grace))
            }
            if end > grace { out.append(SubscriptionStrip.Period(start: grace, end: end, mark: .retry)) }
        }
        return out
    }

    /// The plan changes of a subscription: a period of another product than the one before
    /// it; an upgrade when the one before was cut short with a prorated refund.
    static func planChanges(_ s: Subscription) -> [SubscriptionStrip.PlanChange] {
        zip(s.periods, s.periods.dropFirst()).compactMap { before, after in
            guard before.productId != after.productId else { return nil }
            return SubscriptionStrip.PlanChange(at: after.start, upgrade: before.refundCents > 0 && !before.refunded)
        }
    }
}

/// What the Subscriptions view shows of one subscriber, read from the world.
struct SubscriberRow: Sendable, Hashable {
    var user: String
    var product: String
    /// Apple's status (1-5); the view writes its word (`active`, `billing-retry`, ...).
    var status: SubscriptionStatus
    var autoRenew: Bool
    /// The product the next renewal changes to, when a downgrade or crossgrade waits.
    var renewsTo: String?
    /// The end of the current period, where the App Store renews or expires it.
    var periodEnd: VirtualTime?
    /// While a renewal's payment is retried: since when, and the grace period's end.
    var retrySince: VirtualTime? = nil
    var graceUntil: VirtualTime? = nil
    /// Whether the merchant server grants access now.
    var granted: Bool
    var strip: SubscriptionStrip
    /// The auditor's subscription anomalies of this subscriber: "A3 access-after-end open".
    var anomalies: [String]
    /// Whether Apple's rules entitle the subscriber now (active or grace).
    var entitled: Bool { status == .active || status == .grace }
}

extension UIModel {
    /// The label column of the strips.
    static let stripLabel = 7
    /// How long E and G may differ before the auditor (and the strip's mark) takes note:
    /// the auditor's grace period (docs/world.md).
    static let auditorGrace: VirtualTime = 30_000

    /// The Subscriptions view (`T`): for each subscriber a header line, the paid periods, E, G
    /// and the marks where they differ, on one calendar axis; a legend at the end.
    func renderSubscriptions(_ rows: [SubscriberRow], _ grid: inout Grid, _ area: Rect) {
        let inner = area.inner
        let cells = max(1, inner.width - UIModel.stripLabel)
        let from = rows.map { $0.strip.start }.min().map { $0 - $0 % SubscriptionStrip.day } ?? 0
        let end = rows.map { $0.strip.end }.max() ?? simulation.now
        let to = max(simulation.now, end)
        let step = SubscriptionStrip.step(span: to - from, cells: cells)
        let tolerance = UIModel.auditorGrace
        var lines: [Line] = []
        var scroll = 0
        if rows.isEmpty {
            lines.append([Span(emptySubscriptionsWords, Style(.dim))])
        } else {
            let nowCell = (simulation.now - from) / step
            let axis = SubscriptionCalendar.axis(from: from, step: step, cells: cells, now: nowCell, mark: nowMark)
            lines.append([Span(TextWidth.pad("", to: UIModel.stripLabel)), Span(axis, Style(.title, bold: true))])
            for (index, row) in rows.enumerated() {
                let selected = index == selectedSubscriber(in: rows)
                let block = subscriberLines(
                    row, from: from, step: step, cells: cells, tolerance: tolerance, now: nowCell, selected: selected)
                // The selected subscriber's lines stay on screen.
                if selected { scroll = max(0, lines.count + block.count - inner.height) }
                lines += block
            }
            lines += legend(width: inner.width)
        }
        let first = min(scroll, max(0, lines.count - inner.height))
        let badge =
            rows.isEmpty
            ? nil
            : "1 cell = \(UIModel.cellWords(step)) \(glyphs.sep) now \(SubscriptionCalendar.short(simulation.now))"
        grid.frame(
            area, title: "Subscriptions (T closes, j k select, i inspects)", focused: true, glyphs: glyphs, badge: badge
        )
        grid.lines(lines, in: inner, offset: first, ellipsis: glyphs.more)
    }

    var emptySubscriptionsWords: String {
        simulation.policy.storekit == .one
            ? "no subscriptions: auto-renewable subscriptions exist in the storekit: 2 world only"
            : "no subscriptions yet: buy pro_monthly, plus_monthly or pro_yearly (b) to start one"
    }

    /// Five lines per subscriber: what it is now (two when it does not fit the width: what
    /// the server grants and the anomalies are the words that matter), the paid strip, E, G,
    /// the differences.
    func subscriberLines(
        _ row: SubscriberRow, from: VirtualTime, step: VirtualTime, cells: Int, tolerance: VirtualTime, now: Int,
        selected: Bool
    ) -> [Line] {
        let strips = row.strip.rows(from: from, step: step, cells: cells, tolerance: tolerance, now: simulation.now)
        let sep = " \(glyphs.sep) "
        var head: Line = [
            Span((selected ? glyphs.right + " " : "  ") + row.user, Style(bold: true, reverse: selected)),
            Span("  " + row.product, Style(.accent)),
            Span(sep + row.status.word, UIModel.subscriptionStatusStyle(row.status)),
            Span(sep + "auto-renew " + (row.autoRenew ? "on" : "off"), row.autoRenew ? .plain : Style(.warn)),
        ]
        if let to = row.renewsTo { head.append(Span(" (renews to \(to))", Style(.warn))) }
        // A renewal being retried has no renewal date ahead: its period ended (a past date).
        if row.status == .grace, let until = row.graceUntil {
            head.append(Span(sep + "in grace until " + SubscriptionCalendar.short(until), Style(.warn)))
        } else if row.status == .billingRetry, let since = row.retrySince {
            head.append(Span(sep + "retrying since " + SubscriptionCalendar.short(since), Style(.warn)))
        } else if let end = row.periodEnd {
            let verb = row.autoRenew && row.status != .expired && row.status != .revoked ? "renews" : "ends"
            head.append(Span(sep + verb + " " + SubscriptionCalendar.short(end), Style(.dim)))
        }
        head.append(
            Span(
                sep + (row.granted ? "server grants access" : "server grants no access"),
                row.granted == row.entitled ? Style(.good) : Style(.bad, bold: true)))
        let differ = strips.differ
        // The anomalies end the head line: the marks' strip fills the width and would hide them.
        if !row.anomalies.isEmpty { head.append(Span("  " + row.anomalies.joined(separator: ", "), Style(.bad))) }
        return UIModel.wrapAtSpans(head, width: UIModel.stripLabel + cells, indent: 4, sep: sep) + [

            stripLine("paid", strips.paid, now: now, style: Style(.info)),
            stripLine("E", strips.entitled, now: now, style: Style(.good)),
            stripLine("G", strips.granted, now: now, style: Style(.accent)),
            [Span(TextWidth.pad("", to: UIModel.stripLabel)), Span(differ, Style(.bad, bold: true))],
        ]
    }

    /// `line` over the lines it needs, broken between spans only (their words stay whole);
    /// a span that opens a line drops its separator `sep` and is indented by `indent`.
    static func wrapAtSpans(_ line: Line, width: Int, indent: Int, sep: String) -> [Line] {
        var out: [Line] = [[]]
        var used = 0
        for span in line {
            let w = TextWidth.of(span.text)
            if used + w > width, used > indent {
                var text = Substring(span.text)
                if text.hasPrefix(sep) { text = text.dropFirst(sep.count) }
                text = text.drop { $0 == " " }
                out.append([Span(String(repeating: " ", count: indent)), Span(String(text), span.style)])
                used = indent + TextWidth.of(String(text))
            } else {
                out[out.count - 1].append(span)
                used += w
            }
        }
        return out
    }

    /// A strip with its label; the cells after now are dim (they are what is scheduled).
    func stripLine(_ label: String, _ text: String, now: Int, style: Style) -> Line {
        let chars = Array(text)
        let past = max(0, min(chars.count, now + 1))
        return [
            Span(TextWidth.pad("  " + label, to: UIModel.stripLabel), Style(.dim)),
            Span(String(chars[..<past]), style),
            Span(String(chars[past...]), Style(.dim)),
        ]
    }

    /// The axis's mark of now: a down arrow onto the strips.
    var nowMark: Character { glyphs.down.count == 1 ? Character(glyphs.down) : "v" }

    /// What each mark means, wrapped at whole entries to `width` (80 columns hold it).
    func legend(width: Int) -> [Line] {
        let entries = [
            "\(nowMark) now", "$ paid", "f free", "R refunded", "x billing retry", "g grace", "U upgrade",
            "D plan change at renewal", ". none", "\(SubscriptionStrip.notYet) not yet", "E entitled (Apple's rules)",
            "G granted (merchant server)", "^ E and G differ > 30s",
        ]
        var lines: [String] = [], current = ""
        for entry in entries {
            let joined = current.isEmpty ? entry : current + "  " + entry
            if TextWidth.of(joined) > width && !current.isEmpty {
                lines.append(current)
                current = entry
            } else {
                current = joined
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { [Span($0, Style(.dim))] }
    }

    static func subscriptionStatusStyle(_ status: SubscriptionStatus) -> Style {
        switch status {
        case .active: Style(.good, bold: true)
        case .grace, .billingRetry: Style(.warn, bold: true)
        case .expired, .revoked: Style(.bad, bold: true)
        }
    }

    /// `3d 10h`, `12h`.
    static func cellWords(_ step: VirtualTime) -> String {
        let hours = step / 3_600_000
        let days = hours / 24, rest = hours % 24
        if days == 0 { return "\(hours)h" }
        return rest == 0 ? "\(days)d" : "\(days)d \(rest)h"
    }

    /// The selected subscriber, kept inside the list.
    func selectedSubscriber(in rows: [SubscriberRow]) -> Int {
        subscriptionsView.selected(of: rows.count)
    }

}
