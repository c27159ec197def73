/// How fast subscription time runs: StoreKit Test's `SKTestSession.TimeRate`, which a
/// `.storekit` file stores as its raw value in `_timeRate` (and `_compatibilityTimeRate`).
/// Real time keeps calendar periods; every other rate makes a period a fixed span of virtual
/// time, as Xcode's test environment does (Apple's tables for each rate, docs/storekit.md):
/// the renewal, the billing grace period and the billing retry period shrink with it.
package enum TimeRate: Int, Sendable, Hashable, CaseIterable {
    case realTime = 0
    // Deprecated in iOS 15.2, still written by older files: a span is one day.
    case oneHourIsOneDay = 1
    case thirtyMinutesIsOneDay = 2
    case fiveMinutesIsOneDay = 3
    case oneMinuteIsOneDay = 4
    case thirtySecondsIsOneDay = 5
    case oneSecondIsOneDay = 6
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEveryThirtyMinutes = 11
    case monthlyRenewalEveryFifteenMinutes = 12
    case monthlyRenewalEveryFiveMinutes = 13
    case monthlyRenewalEveryThirtySeconds = 15
    case oneRenewalEveryFifteenMinutes = 1000
    case oneRenewalEveryFiveMinutes = 1001
    case oneRenewalEveryMinute = 1002
    case oneRenewalEveryThirtySeconds = 1003
    case oneRenewalEveryTenSeconds = 1004
    case oneRenewalEveryTwoSeconds = 1005

    private static let second: VirtualTime = 1_000
    private static let minute: VirtualTime = 60_000
    private static let day = SubscriptionCalendar.dayMs

    /// How the rate compresses time: not at all, a day as a span (a month is 30 such days,
    /// a year 365: the simulator's choice, Apple's deprecated rates say only "one day"),
    /// Apple's table of a week and a month, or one span for every period.
    private enum Scale {
        case real
        case dayIs(VirtualTime)
        case table(week: VirtualTime, month: VirtualTime)
        case every(VirtualTime)
    }

    private var scale: Scale {
        switch self {
        case .realTime: return .real
        case .oneHourIsOneDay: return .dayIs(60 * Self.minute)
        case .thirtyMinutesIsOneDay: return .dayIs(30 * Self.minute)
        case .fiveMinutesIsOneDay: return .dayIs(5 * Self.minute)
        case .oneMinuteIsOneDay: return .dayIs(Self.minute)
        case .thirtySecondsIsOneDay: return .dayIs(30 * Self.second)
        case .oneSecondIsOneDay: return .dayIs(Self.second)
        case .monthlyRenewalEveryHour: return .table(week: 15 * Self.minute, month: 60 * Self.minute)
        case .monthlyRenewalEveryThirtyMinutes: return .table(week: 10 * Self.minute, month: 30 * Self.minute)
        case .monthlyRenewalEveryFifteenMinutes: return .table(week: 5 * Self.minute, month: 15 * Self.minute)
        case .monthlyRenewalEveryFiveMinutes: return .table(week: 3 * Self.minute, month: 5 * Self.minute)
        case .monthlyRenewalEveryThirtySeconds: return .table(week: 10 * Self.second, month: 30 * Self.second)
        case .oneRenewalEveryFifteenMinutes: return .every(15 * Self.minute)
        case .oneRenewalEveryFiveMinutes: return .every(5 * Self.minute)
        case .oneRenewalEveryMinute: return .every(Self.minute)
        case .oneRenewalEveryThirtySeconds: return .every(30 * Self.second)
        case .oneRenewalEveryTenSeconds: return .every(10 * Self.second)
        case .oneRenewalEveryTwoSeconds: return .every(2 * Self.second)
        }
    }

    /// StoreKit Test's name of the rate, `monthlyRenewalEveryFifteenMinutes`.
    package var name: String { String(describing: self) }

    /// Every accepted raw value with its name: `0 realTime, 1 oneHourIsOneDay, ...`.
    package static var acceptedWords: String {
        allCases.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", ")
    }

    package var isRealTime: Bool { self == .realTime }

    /// The rate with what it does: `realTime`, or
    /// `monthlyRenewalEveryFifteenMinutes (a week lasts 5m, a month 15m, a year 3h;
    /// grace 7m30s, billing retry 30m)`.
    package var summary: String {
        guard !isRealTime else { return name }
        func lasts(_ p: RenewalPeriod) -> String { Self.words(end(of: p, after: 0)) }
        return "\(name) (a week lasts \(lasts(RenewalPeriod(1, .week))), a month \(lasts(RenewalPeriod(1, .month))), "
            + "a year \(lasts(RenewalPeriod(1, .year))); 16-day grace \(Self.words(grace(16 * Self.day, weekly: false))), "
            + "billing retry \(Self.words(retryWindowMs)))"
    }

    /// A span of real time at this rate: a month's share of the month's length here (30
    /// days of real time are one month), at least a millisecond.
    package func compressed(_ ms: VirtualTime) -> VirtualTime {
        guard !isRealTime else { return ms }
        return max(1, ms * end(of: RenewalPeriod(1, .month), after: 0) / (30 * Self.day))
    }

    /// `7m30s`: minutes and seconds together where a span has both.
    private static func words(_ ms: VirtualTime) -> String {
        guard ms % minute != 0, ms > minute, ms % second == 0 else { return DurationText.format(ms) }
        return "\(ms / minute)m\(ms % minute / second)s"
    }

    /// The end of a period of `period` that starts at `t` (`day`: the anchor of calendar
    /// months, used in real time only).
    package func end(of period: RenewalPeriod, after t: VirtualTime, day: Int? = nil) -> VirtualTime {
        switch scale {
        case .real: return period.end(after: t, day: day)
        case .dayIs(let span): return t + Self.days(period) * span
        case .table(let week, let month):
            switch period.unit {
            // An introductory offer's days: a seventh of the table's week each.
            case .day: return t + VirtualTime(period.count) * week / 7
            case .week: return t + VirtualTime(period.count) * week
            case .month: return t + VirtualTime(period.count) * month
            case .year: return t + VirtualTime(12 * period.count) * month
            }
        case .every(let span): return t + span
        }
    }

    /// A period's days at a deprecated rate: a month 30, a year 365.
    private static func days(_ period: RenewalPeriod) -> VirtualTime {
        let n = VirtualTime(period.count)
        switch period.unit {
        case .day: return n
        case .week: return 7 * n
        case .month: return 30 * n
        case .year: return 365 * n
        }
    }

    /// The billing grace period of the app's `setting` (3, 16 or 28 days; a weekly
    /// subscription gets 6 days at most: `AppStore.billingGrace`) at this rate. Apple's
    /// tables give the 16-day one: half the table's month (a weekly subscription: six
    /// sevenths of its week, to the second), the span of a one-renewal rate; other settings
    /// in proportion.
    package func grace(_ setting: VirtualTime, weekly: Bool) -> VirtualTime {
        let sixteen = 16 * Self.day
        switch scale {
        case .real: return weekly ? min(setting, 6 * Self.day) : setting
        case .dayIs(let span): return (weekly ? min(setting, 6 * Self.day) : setting) * span / Self.day
        case .table(let week, let month):
            guard weekly else { return setting * (month / 2) / sixteen }
            let six = (week * 6 / 7 + Self.second / 2) / Self.second * Self.second
            return min(setting, 6 * Self.day) * six / (6 * Self.day)
        case .every(let span): return setting * span / sixteen
        }
    }

    /// How long Apple retries a failed renewal: 60 days in real time; twice the table's
    /// month, or twice the one renewal's span.
    package var retryWindowMs: VirtualTime {
        switch scale {
        case .real: return 60 * Self.day
        case .dayIs(let span): return 60 * span
        case .table(_, let month): return 2 * month
        case .every(let span): return 2 * span
        }
    }

    /// How often the simulator retries (its own choice: once a day in real time, so 60
    /// times in the window at any rate).
    package var retryEveryMs: VirtualTime { max(1, retryWindowMs / 60) }

    /// How long before the expiry the App Store charges a renewal: a day in real time
    /// (`AppStore.armRenewal`); at a compressed rate the renewal comes at the expiry, as
    /// in Xcode's test environment.
    package var renewalLeadMs: VirtualTime { isRealTime ? Self.day : 0 }

    /// The lapse after which `recentSubscriptionStartDate` starts again: 60 days in real
    /// time, the retry window at a compressed rate (Apple's sandbox compresses it too).
    package var lapseResetMs: VirtualTime { retryWindowMs }
}
