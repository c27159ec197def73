import Testing

@testable import IAPSimCore

/// `SubscriptionCalendar.iso`, written digit by digit for a four-digit year: the text the
/// interpolation wrote, for every year.
@Suite struct SubscriptionCalendarTests {
    static func interpolated(_ t: VirtualTime) -> String {
        let d = SubscriptionCalendar.date(t)
        let s = Int(d.ms / 1_000)
        let pad = SubscriptionCalendar.pad
        return "\(d.year)-\(pad(d.month))-\(pad(d.day))T\(pad(s / 3_600)):\(pad(s / 60 % 60)):\(pad(s % 60))Z"
    }

    @Test func isoIsTheInterpolationsText() {
        let day: VirtualTime = 86_400_000
        let times: [VirtualTime] = [
            0, 999, 1_000, 59 * day + 5_000, 59 * day + 86_399_999, 365 * day * 3 + 12_345_678, -1, -day * 400,
            -day * 365 * 1_100, day * 365 * 7_980, day * 365 * 8_100, day * 365 * 100_000, -day * 365 * 100_000,
        ]
        #expect(SubscriptionCalendar.iso(0) == "2026-01-01T00:00:00Z")
        for t in times { #expect(SubscriptionCalendar.iso(t) == Self.interpolated(t), "\(t)") }
    }
}
