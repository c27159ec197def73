import IAPSimCore

/// One subscriber's timeline on the virtual calendar, drawn as strips of one character per
/// cell of time: the paid periods, E (entitled by Apple's rules: active or grace), G (the
/// access the merchant server grants), and a mark under every cell where E and G differ for
/// longer than the auditor's grace period. Pure: intervals in, text out.
struct SubscriptionStrip: Sendable, Hashable {
    /// What one period of the subscription is, as the paid strip draws it.
    enum PeriodMark: Sendable, Hashable {
        /// Charged (a purchase, a renewal, a recovery).
        case paid
        /// Nothing paid: a free trial or a free offer period (walkthrough 6: a trial was `$`).
        case free
        /// Charged, then refunded.
        case refunded
        /// Billing failed: the App Store is retrying, no access (no grace period).
        case retry
        /// Billing failed: in the grace period, access kept, not paid (yet).
        case grace

        /// The character of the paid strip.
        var symbol: Character {
            switch self {
            case .paid: "$"
            case .free: "f"
            case .refunded: "R"
            case .retry: "x"
            case .grace: "g"
            }
        }
    }

    struct Period: Sendable, Hashable {
        var start: VirtualTime
        var end: VirtualTime
        var mark: PeriodMark
    }

    var periods: [Period]
    var entitled: [Range<VirtualTime>]
    var granted: [Range<VirtualTime>]
    /// The plan changes: an upgrade (at once: the rest of the old period refunded) or a
    /// change at a renewal (a downgrade or crossgrade), marked in the paid strip's cell.
    var changes: [PlanChange] = []

    struct PlanChange: Sendable, Hashable {
        var at: VirtualTime
        var upgrade: Bool
        var symbol: Character { upgrade ? "U" : "D" }
    }

    static let day = SubscriptionCalendar.dayMs
    /// The mark of what has not happened yet (after now), distinct from "none".
    static let notYet: Character = "-"

    /// The earliest time any strip holds (0 when they are empty).
    var start: VirtualTime {
        (periods.map(\.start) + entitled.map(\.lowerBound) + granted.map(\.lowerBound)).min() ?? 0
    }

    /// The latest time any strip holds (0 when they are empty).
    var end: VirtualTime {
        (periods.map(\.end) + entitled.map(\.upperBound) + granted.map(\.upperBound)).max() ?? 0
    }

    /// The strips' characters, one per cell from `from`, `step` milliseconds a cell, `cells`
    /// cells; `tolerance`: how long E and G may differ in a cell before it is marked. E and G
    /// are known up to `now`: a cell after it is "not yet", and the cell of now is read over
    /// its past part only.
    func rows(
        from: VirtualTime, step: VirtualTime, cells: Int, tolerance: VirtualTime, now: VirtualTime = .max
    ) -> Rows {
        var rows = Rows()
        for i in 0..<max(0, cells) {
            let cell = from + i * step..<from + (i + 1) * step
            let seen = min(cell.upperBound, now) - cell.lowerBound
            let paid = changeSymbol(cell) ?? paidSymbol(seen > 0 ? cell.lowerBound..<cell.lowerBound + seen : cell)
            rows.paid.append(paid == "." && seen <= 0 ? Self.notYet : paid)
            guard seen > 0 else {
                rows.entitled.append(Self.notYet)
                rows.granted.append(Self.notYet)
                rows.differ.append(" ")
                continue
            }
            let e = Self.covered(entitled, cell), g = Self.covered(granted, cell)
            rows.entitled.append(e * 2 > seen ? "E" : ".")
            rows.granted.append(g * 2 > seen ? "G" : ".")
            rows.differ.append(Self.apart(entitled, granted, cell) > tolerance ? "^" : " ")
        }
        return rows
    }

    struct Rows: Sendable, Hashable {
        var paid = "", entitled = "", granted = "", differ = ""
        var differs: Bool { differ.contains("^") }
    }

    /// The mark of the plan change in `cell`, if one happened there.
    func changeSymbol(_ cell: Range<VirtualTime>) -> Character? {
        changes.last { cell.contains($0.at) }?.symbol
    }

    /// The mark of the period that covers most of `cell`, or "." when none does.
    func paidSymbol(_ cell: Range<VirtualTime>) -> Character {
        var best: (length: VirtualTime, symbol: Character) = (0, ".")
        for p in periods {
            let length = Self.overlap(p.start..<max(p.start, p.end), cell)
            if length * 2 > cell.count, length > best.length { best = (length, p.mark.symbol) }
        }
        return best.symbol
    }

    static func overlap(_ a: Range<VirtualTime>, _ b: Range<VirtualTime>) -> VirtualTime {
        max(0, min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound))
    }

    /// How much of `cell` the intervals cover (they may overlap; each is counted once).
    static func covered(_ intervals: [Range<VirtualTime>], _ cell: Range<VirtualTime>) -> VirtualTime {
        merged(intervals).reduce(0) { $0 + overlap($1, cell) }
    }

    /// How long in `cell` exactly one of the two timelines holds.
    static func apart(_ a: [Range<VirtualTime>], _ b: [Range<VirtualTime>], _ cell: Range<VirtualTime>)
        -> VirtualTime
    {
        let both = merged(a).reduce(0) { sum, x in
            sum + merged(b).reduce(0) { $0 + overlap(x.clamped(to: cell), $1) }
        }
        return covered(a, cell) + covered(b, cell) - 2 * both
    }

    /// The intervals sorted and joined where they touch or overlap.
    static func merged(_ intervals: [Range<VirtualTime>]) -> [Range<VirtualTime>] {
        var out: [Range<VirtualTime>] = []
        for r in intervals.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// The time each cell spans so that `span` fits in `cells`: whole hours, at least one.
    static func step(span: VirtualTime, cells: Int) -> VirtualTime {
        let hour: VirtualTime = 3_600_000
        let raw = max(1, span) / max(1, cells) + 1
        return max(hour, (raw + hour - 1) / hour * hour)
    }
}

/// The TUI's words for the core's calendar (one calendar: `SubscriptionCalendar`, virtual
/// time 0 is 2026-01-01T00:00:00Z): short dates and the axis above the strips.
extension SubscriptionCalendar {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Mar 1`.
    static func short(_ t: VirtualTime) -> String {
        let d = date(t)
        return "\(monthNames[d.month - 1]) \(d.day)"
    }

    /// The axis above the strips: each month's name starts at the cell its first day falls in
    /// (the year instead of January when the strip spans more than one year); a name that
    /// would overwrite the one before is left out. `now`, a cell, holds `mark`; a name that
    /// would cover it starts after it.
    static func axis(
        from: VirtualTime, step: VirtualTime, cells: Int, now: Int? = nil, mark: Character = "v"
    ) -> String {
        var row = [Character](repeating: " ", count: max(0, cells))
        let years = date(from).year != date(from + step * cells - 1).year
        var previous = -1, free = 0
        if let now, now >= 0, now < cells { row[now] = mark }
        for i in 0..<max(0, cells) {
            let d = date(from + (i + 1) * step - 1)
            let key = d.year * 12 + d.month
            guard key != previous else { continue }
            previous = key
            let name = d.month == 1 && years ? "\(d.year)" : monthNames[d.month - 1]
            let at = now.map { i <= $0 && $0 < i + name.count ? $0 + 1 : i } ?? i
            guard at >= free else { continue }
            for (k, ch) in name.enumerated() where at + k < cells { row[at + k] = ch }
            free = at + name.count
        }
        return String(row)
    }
}
