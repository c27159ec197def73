/// How long one period of an auto-renewable subscription lasts: a whole number of weeks,
/// months or years (`recurringSubscriptionPeriod`: `P1W`, `P1M`, `P2M`, `P3M`, `P6M`,
/// `P1Y`), or of an introductory offer, which may also be days (`P3D`). Months and years are
/// calendar ones (`SubscriptionCalendar`); a week is 7 days, a day 24 hours.
package struct RenewalPeriod: Sendable, Hashable {
    package enum Unit: String, Sendable, Hashable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    package var count: Int
    package var unit: Unit

    package init(_ count: Int, _ unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// The periods App Store Connect (and Xcode's editor) offer.
    package static let accepted = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// An ISO 8601 duration among `accepted`.
    package init?(iso: String) {
        guard Self.accepted.contains(iso), let unit = iso.last.flatMap({ Unit(rawValue: String($0)) }),
            let count = Int(iso.dropFirst().dropLast())
        else { return nil }
        self.init(count, unit)
    }

    /// The durations App Store Connect offers for an introductory offer's period (a free
    /// trial's whole length, one period of pay as you go, or a pay-up-front span).
    package static let offerAccepted = ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    /// An introductory offer's period: one of `offerAccepted`.
    package init?(offerISO iso: String) {
        guard Self.offerAccepted.contains(iso), let unit = iso.last.flatMap({ Unit(rawValue: String($0)) }),
            let count = Int(iso.dropFirst().dropLast())
        else { return nil }
        self.init(count, unit)
    }

    /// This period `n` times over (`P1M` three times: `P3M`).
    package func times(_ n: Int) -> RenewalPeriod { RenewalPeriod(count * n, unit) }

    /// `P1M`.
    package var iso: String { "P\(count)\(unit.rawValue)" }

    /// `1 week`, `3 months`, `1 year`.
    package var words: String {
        let name: String
        switch unit {
        case .day: name = "day"
        case .week: name = "week"
        case .month: name = "month"
        case .year: name = "year"
        }
        return "\(count) \(name)\(count == 1 ? "" : "s")"
    }

    /// The end of a period that starts at `t`; a month or a year ends on `day` of its month
    /// when that month has it (the day of the first purchase: Jan 31, Feb 28, Mar 31).
    package func end(after t: VirtualTime, day: Int? = nil) -> VirtualTime {
        switch unit {
        case .day: return t + VirtualTime(count) * SubscriptionCalendar.dayMs
        case .week: return t + VirtualTime(count) * 7 * SubscriptionCalendar.dayMs
        case .month: return SubscriptionCalendar.adding(months: count, to: t, day: day)
        case .year: return SubscriptionCalendar.adding(months: 12 * count, to: t, day: day)
        }
    }
}
