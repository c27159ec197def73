import IAPSimCore
import Testing

@testable import IAPSimTUI

@Suite struct SubscriptionStripTests {
    static let day = SubscriptionStrip.day

    @Test func theCalendarStartsOnNewYear2026AndKnowsItsMonths() {
        #expect(SubscriptionCalendar.day(0) == "2026-01-01")
        #expect(SubscriptionCalendar.day(31 * Self.day) == "2026-02-01")
        #expect(SubscriptionCalendar.day(59 * Self.day) == "2026-03-01")
        #expect(SubscriptionCalendar.day(365 * Self.day) == "2027-01-01")
        // 2028 is a leap year: Feb 29 exists.
        #expect(SubscriptionCalendar.day((365 + 365 + 31 + 28) * Self.day) == "2028-02-29")
        #expect(SubscriptionCalendar.short(59 * Self.day + 5_000) == "Mar 1")
    }

    @Test func eachCellShowsWhatCoversMostOfIt() {
        // Paid for January, billing retry for 10 days, then granted past entitlement.
        let strip = SubscriptionStrip(
            periods: [
                .init(start: 0, end: 31 * Self.day, mark: .paid),
                .init(start: 31 * Self.day, end: 41 * Self.day, mark: .retry),
            ],
            entitled: [0..<31 * Self.day], granted: [0..<41 * Self.day])
        let rows = strip.rows(from: 0, step: 5 * Self.day, cells: 9, tolerance: 30_000)
        #expect(rows.paid == "$$$$$$xx.")
        #expect(rows.entitled == "EEEEEE...")
        #expect(rows.granted == "GGGGGGGG.")
        // Cell 6 (days 30-35) holds four days of G without E, cell 8 one: marked, though
        // neither strip shows it there by its majority.
        #expect(rows.differ == "      ^^^")
        #expect(rows.differs)
    }

    @Test func aDifferenceShorterThanTheToleranceIsNotMarked() {
        let strip = SubscriptionStrip(
            periods: [], entitled: [0..<10 * Self.day], granted: [20_000..<10 * Self.day + 20_000])
        let rows = strip.rows(from: 0, step: Self.day, cells: 12, tolerance: 30_000)
        #expect(!rows.differs)
        let late = SubscriptionStrip(
            periods: [], entitled: [0..<10 * Self.day], granted: [60_000..<10 * Self.day])
        #expect(late.rows(from: 0, step: Self.day, cells: 12, tolerance: 30_000).differ == "^           ")
    }

    @Test func overlappingGrantsCountOnce() {
        let strip = SubscriptionStrip(periods: [], entitled: [0..<Self.day], granted: [0..<Self.day, 0..<Self.day])
        #expect(!strip.rows(from: 0, step: Self.day, cells: 1, tolerance: 0).differs)
    }

    @Test func aYearFitsTheWidthInWholeHours() {
        let step = SubscriptionStrip.step(span: 365 * Self.day, cells: 100)
        #expect(step % 3_600_000 == 0 && step * 100 >= 365 * Self.day && step * 99 < 365 * Self.day)
        #expect(SubscriptionStrip.step(span: 1_000, cells: 100) == 3_600_000)
    }

    @Test func theAxisNamesEachMonthWhereItStarts() {
        let axis = SubscriptionCalendar.axis(from: 0, step: 5 * Self.day, cells: 14)
        #expect(axis == "Jan   Feb  Mar")
        // February's name would overwrite the year's: left out.
        let years = SubscriptionCalendar.axis(from: 334 * Self.day, step: 10 * Self.day, cells: 12)
        #expect(years == "Dec2027  Mar")
    }

    /// Defect 8 of walkthrough 3: after now the strips say "not yet", not "none".
    @Test func theFutureIsNotYetNotNone() {
        let strip = SubscriptionStrip(
            periods: [.init(start: 0, end: 10 * Self.day, mark: .paid)], entitled: [0..<5 * Self.day],
            granted: [0..<5 * Self.day])
        let rows = strip.rows(from: 0, step: Self.day, cells: 12, tolerance: 30_000, now: 5 * Self.day)
        #expect(rows.paid == "$$$$$$$$$$--")
        #expect(rows.entitled == "EEEEE-------")
        #expect(rows.granted == "GGGGG-------")
        #expect(!rows.differs)
    }

    @Test func anUpgradeIsMarkedInItsCell() {
        let strip = SubscriptionStrip(
            periods: [
                .init(start: 0, end: 10 * Self.day, mark: .paid),
                .init(start: 10 * Self.day, end: 20 * Self.day, mark: .paid),
            ],
            entitled: [], granted: [], changes: [.init(at: 10 * Self.day + 5, upgrade: true)])
        #expect(strip.rows(from: 0, step: 5 * Self.day, cells: 4, tolerance: 0).paid == "$$U$")
    }

    @Test func theAxisMarksNowAndMovesANameOffIt() {
        #expect(
            SubscriptionCalendar.axis(from: 0, step: 5 * Self.day, cells: 14, now: 1, mark: "v") == " vJan Feb  Mar")
        #expect(
            SubscriptionCalendar.axis(from: 0, step: 5 * Self.day, cells: 14, now: 0, mark: "v") == "vJan  Feb  Mar")
    }
}
