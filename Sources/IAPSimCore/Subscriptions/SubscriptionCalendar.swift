/// The calendar of subscription periods: virtual time 0 is 2026-01-01T00:00:00Z, and a
/// month is the calendar month of the virtual date (Gregorian, UTC). Adding months keeps
/// the time of day and clamps the day to the last day of the target month, as Foundation's
/// `Calendar.date(byAdding:)` does: January 31 + 1 month = February 28. A subscription
/// keeps the day of its first purchase when the month has it (February 28 + 1 month =
/// March 31 for one bought on January 31). Pure arithmetic.
package enum SubscriptionCalendar {
    package static let dayMs: VirtualTime = 86_400_000
    /// Days from 1970-01-01 to 2026-01-01.
    static let epochDay = 20_454

    /// A virtual time as a calendar date (year, month 1-12, day 1-31) and the
    /// milliseconds since that day's midnight.
    package static func date(_ t: VirtualTime) -> (year: Int, month: Int, day: Int, ms: VirtualTime) {
        let days = floorDiv(t, dayMs)
        let ms = t - days * dayMs
        let (y, m, d) = civil(fromDays: Int(days) + epochDay)
        return (y, m, d, ms)
    }

    /// The virtual time of a calendar date plus `ms` into its day.
    package static func time(year: Int, month: Int, day: Int, ms: VirtualTime = 0) -> VirtualTime {
        VirtualTime(days(year: year, month: month, day: day) - epochDay) * dayMs + ms
    }

    /// `t` plus `months` calendar months, the day clamped to the target month's length.
    /// `day`: the day of the month to land on instead of `t`'s (a subscription's anchor,
    /// the day of its first purchase), clamped the same way: January 31 → February 28 →
    /// March 31.
    package static func adding(months: Int, to t: VirtualTime, day: Int? = nil) -> VirtualTime {
        let d = date(t)
        let total = d.year * 12 + (d.month - 1) + months
        let year = floorDiv(total, 12)
        let month = total - year * 12 + 1
        return time(year: year, month: month, day: min(day ?? d.day, daysIn(year: year, month: month)), ms: d.ms)
    }

    /// The number of days of a month.
    package static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ISO 8601 text of a virtual time, to the second: `2026-02-28T00:00:00Z`.
    /// A four-digit year (every time a run reaches) is written digit by digit: the auditor
    /// words a subscriber's timeline with it at every check (interpolation cost ~5,000
    /// instructions a date).
    package static func iso(_ t: VirtualTime) -> String {
        let d = date(t)
        let s = Int(d.ms / 1_000)
        guard (1_000...9_999).contains(d.year) else {
            return "\(d.year)-\(pad(d.month))-\(pad(d.day))T\(pad(s / 3_600)):\(pad(s / 60 % 60)):\(pad(s % 60))Z"
        }
        return String(unsafeUninitializedCapacity: 20) { out in
            var n = 0
            func put(_ value: Int, _ digits: Int, then mark: UInt8) {
                writeDigits(value, count: digits, into: out, at: n)
                out[n + digits] = mark
                n += digits + 1
            }
            put(d.year, 4, then: UInt8(ascii: "-"))
            put(d.month, 2, then: UInt8(ascii: "-"))
            put(d.day, 2, then: UInt8(ascii: "T"))
            put(s / 3_600, 2, then: UInt8(ascii: ":"))
            put(s / 60 % 60, 2, then: UInt8(ascii: ":"))
            put(s % 60, 2, then: UInt8(ascii: "Z"))
            return n
        }
    }

    /// The date of a virtual time, `2026-02-28`.
    package static func day(_ t: VirtualTime) -> String {
        let d = date(t)
        return "\(d.year)-\(pad(d.month))-\(pad(d.day))"
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func floorDiv<T: BinaryInteger>(_ a: T, _ b: T) -> T {
        let q = a / b
        return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a count of days since 1970-01-01.
    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
