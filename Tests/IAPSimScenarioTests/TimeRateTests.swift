import IAPSimCore
import Testing

@testable import IAPSimScenario

/// A `.storekit` file's `_timeRate` (issue 54 item 6): StoreKit Test's `SKTestSession.TimeRate`
/// by its raw value, each period, grace and retry span as Apple's page of the rate gives it.
@Suite struct TimeRateTests {
    static let s: VirtualTime = 1_000
    static let m: VirtualTime = 60_000

    func span(_ rate: TimeRate, _ count: Int, _ unit: RenewalPeriod.Unit) -> VirtualTime {
        rate.end(of: RenewalPeriod(count, unit), after: 1_000_000) - 1_000_000
    }

    /// Apple's tables (developer.apple.com/documentation/storekittest/sktestsession/timerate-swift.enum):
    /// weekly, monthly, bimonthly, quarterly, semiannual, annual; weekly grace, other grace, retry.
    @Test func monthlyRatesFollowApplesTables() {
        let m = Self.m, s = Self.s
        let tables: [(TimeRate, [VirtualTime], [VirtualTime])] = [
            (
                .monthlyRenewalEveryHour, [15 * m, 60 * m, 120 * m, 180 * m, 360 * m, 720 * m],
                [12 * m + 51 * s, 30 * m, 120 * m]
            ),
            (
                .monthlyRenewalEveryThirtyMinutes, [10 * m, 30 * m, 60 * m, 90 * m, 180 * m, 360 * m],
                [8 * m + 34 * s, 15 * m, 60 * m]
            ),
            (
                .monthlyRenewalEveryFifteenMinutes, [5 * m, 15 * m, 30 * m, 45 * m, 90 * m, 180 * m],
                [4 * m + 17 * s, 7 * m + 30 * s, 30 * m]
            ),
            (
                .monthlyRenewalEveryFiveMinutes, [3 * m, 5 * m, 10 * m, 15 * m, 30 * m, 60 * m],
                [2 * m + 34 * s, 2 * m + 30 * s, 10 * m]
            ),
            (
                .monthlyRenewalEveryThirtySeconds, [10 * s, 30 * s, 60 * s, 90 * s, 3 * m, 6 * m],
                [9 * s, 15 * s, 60 * s]
            ),
        ]
        let sixteen = 16 * SubscriptionCalendar.dayMs
        for (rate, periods, times) in tables {
            let spans = [
                span(rate, 1, .week), span(rate, 1, .month), span(rate, 2, .month), span(rate, 3, .month),
                span(rate, 6, .month), span(rate, 1, .year),
            ]
            #expect(spans == periods, "\(rate.name)")
            #expect(
                [rate.grace(sixteen, weekly: true), rate.grace(sixteen, weekly: false), rate.retryWindowMs] == times,
                "\(rate.name)")
        }
    }

    @Test func oneRenewalRatesRenewEveryPeriodAtTheirSpanWithGraceOfItAndRetryOfTwice() {
        let spans: [(TimeRate, VirtualTime)] = [
            (.oneRenewalEveryFifteenMinutes, 15 * Self.m), (.oneRenewalEveryFiveMinutes, 5 * Self.m),
            (.oneRenewalEveryMinute, Self.m), (.oneRenewalEveryThirtySeconds, 30 * Self.s),
            (.oneRenewalEveryTenSeconds, 10 * Self.s), (.oneRenewalEveryTwoSeconds, 2 * Self.s),
        ]
        for (rate, x) in spans {
            for (count, unit) in [(1, RenewalPeriod.Unit.week), (1, .month), (3, .month), (1, .year), (3, .day)] {
                #expect(span(rate, count, unit) == x, "\(rate.name) P\(count)\(unit.rawValue)")
            }
            #expect(rate.grace(16 * SubscriptionCalendar.dayMs, weekly: true) == x)
            #expect(rate.retryWindowMs == 2 * x)
        }
    }

    @Test func deprecatedRatesMakeADayTheirSpan() {
        #expect(span(.oneHourIsOneDay, 1, .week) == 7 * 60 * Self.m)
        #expect(span(.oneSecondIsOneDay, 1, .month) == 30 * Self.s)
        #expect(span(.thirtySecondsIsOneDay, 1, .year) == 365 * 30 * Self.s)
        #expect(TimeRate.oneMinuteIsOneDay.retryWindowMs == 60 * Self.m)
        // Real time keeps calendar months: January 31 + 1 month is February 28.
        let jan31 = SubscriptionCalendar.time(year: 2026, month: 1, day: 31)
        #expect(
            TimeRate.realTime.end(of: RenewalPeriod(1, .month), after: jan31)
                == SubscriptionCalendar.time(year: 2026, month: 2, day: 28))
    }

    @Test func theRawValuesAreStoreKitTests() {
        #expect(
            TimeRate.allCases.map(\.rawValue) == [
                0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005,
            ])
        #expect(TimeRate(rawValue: 12)?.name == "monthlyRenewalEveryFifteenMinutes")
        #expect(TimeRate(rawValue: 14) == nil)
    }

    func file(_ setting: String) -> String {
        BuiltInStoreKit.text.replacingOccurrences(of: "\"settings\" : {", with: "\"settings\" : {\n" + setting + ",")
    }

    @Test func aValueStoreKitTestHasNotIsRefusedWhereItIsWrittenWithTheAcceptedOnes() throws {
        let refusal = try #require(storekitRefusal(file(#""_timeRate" : 14"#)))
        let line =
            file("").split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("\"settings\" : {") }! + 2
        #expect(
            refusal.hasPrefix(
                "P.storekit:\(line):15: \"_timeRate\" is 14; the time rates (SKTestSession.TimeRate) are "),
            "\(refusal)")
        #expect(
            refusal.hasSuffix(
                "13 monthlyRenewalEveryFiveMinutes, 15 monthlyRenewalEveryThirtySeconds, 1000 oneRenewalEveryFifteenMinutes, 1001 oneRenewalEveryFiveMinutes, 1002 oneRenewalEveryMinute, 1003 oneRenewalEveryThirtySeconds, 1004 oneRenewalEveryTenSeconds, 1005 oneRenewalEveryTwoSeconds"
            ), "\(refusal)")
        #expect(storekitRefusal(file(#""_timeRate" : 1.5"#))?.contains("\"_timeRate\" is 1.5; the time rates") == true)
        #expect(
            storekitRefusal(file(#""_timeRate" : "12""#))?.contains("\"_timeRate\" is a string; the time rates") == true
        )
        #expect(
            storekitRefusal(file(#""_compatibilityTimeRate" : {"3" : 7}"#))?.contains(
                "\"_compatibilityTimeRate\" is 7; the time rates (SKTestSession.TimeRate) are 0 realTime, 1 oneHourIsOneDay"
            ) == true)
    }

    @Test func timeRateWinsOverTheCompatibilityRateAndTheHighestVersionIsTaken() throws {
        let both = try StoreKitFile.parse(
            bytes: Array(file(#""_timeRate" : 1003, "_compatibilityTimeRate" : {"3" : 6}"#).utf8), file: "b.storekit")
        #expect(both.catalog.settings.timeRate == .oneRenewalEveryThirtySeconds)
        #expect(both.listed.contains("_timeRate 1003 (oneRenewalEveryThirtySeconds)"), "\(both.listed)")
        let versions = try StoreKitFile.parse(
            bytes: Array(file(#""_compatibilityTimeRate" : {"2" : 6, "4" : 10, "3" : 0}"#).utf8), file: "v.storekit")
        #expect(versions.catalog.settings.timeRate == .monthlyRenewalEveryHour)
        #expect(
            versions.listed.contains(
                "_compatibilityTimeRate 6 (oneSecondIsOneDay), 10 (monthlyRenewalEveryHour), 0 (realTime)"),
            "\(versions.listed)")
    }

    /// The scenario run in process: periods 5 minutes long, the free trial 3/7 of one, the
    /// grace of a weekly subscription 4m17s; `expiresDate` of each transaction what it says.
    @Test func aCatalogAtMonthlyRenewalEveryFifteenMinutesRenewsTheWeeklyPassEveryFiveMinutes() throws {
        let sim = ScenarioPlayer.run(try ScenarioParser.load(path: StoreKitFixtures.fixture("time-rate-sk2.yaml")))
            .result.simulation
        let renewals = sim.world.store.transactions.filter { $0.subscription?.reason == .renewal }
        #expect(renewals.count >= 10)
        let periods = sim.world.store.subscriptions[0].periods
        #expect(periods[0].end - periods[0].start == 3 * 5 * Self.m / 7)
        for p in periods.dropFirst() { #expect(p.end - p.start == 5 * Self.m, "\(p)") }
        let grace = sim.world.store.subscriptions[0].billingRetries
        #expect(grace.count == 1)
        #expect(grace.first.flatMap { g in g.graceUntil.map { $0 - g.start } } == 4 * Self.m + 17 * Self.s)
    }
}
