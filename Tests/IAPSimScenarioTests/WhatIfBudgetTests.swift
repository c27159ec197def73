import IAPSimCore
import Testing

@testable import IAPSimScenario

/// The replays' work is bounded in the world's own work, events (`WhatIf.replayEventBudget`),
/// not in steps: a file whose every step costs thousands of events (round 1's store outage
/// retried for 720 hours, case 9's `wait 400d` of a subscription) stops at the budget and
/// says its answers are partial, and the shipped scenarios' answers stay whole, well within it.
@Suite struct WhatIfBudgetTests {
    static func explain(_ text: String) throws -> WhatIfReport {
        WhatIfTests.explain(try ScenarioParser.parse(text: "format: 1\ntitle: t\n" + text, file: "s.yaml")).1
    }

    @Test func anOutageRetriedForMonthsStopsTheReplaysAtTheirEventBudget() throws {
        let report = try Self.explain(
            "policy: hardened\nsteps:\n"
                + String(repeating: "  - do: store-outage on\n  - do: buy coins_100\n  - do: wait 720h\n", count: 100))
        #expect(report.events <= WhatIf.replayEventBudget)
        #expect(report.notWorkedOut?.hasPrefix("partly worked out: the replays stopped at their budget") == true)
        // The step budget alone lets a file of 300 steps replay 200 times; each of these
        // replays costs tens of thousands of events.
        #expect(report.replays < 50, "\(report.replays) replays")
    }

    @Test func aSubscriptionWaitedForCenturiesCostsTheReplaysNoMoreThanTheirBudget() throws {
        let report = try Self.explain(
            "policy: sk2-hardened\nsteps:\n  - do: buy pro_monthly\n"
                + String(repeating: "  - do: wait 400d\n", count: 20))
        #expect(report.events <= WhatIf.replayEventBudget)
        // Nothing ended well or badly: the other policy's run alone is replayed, not one run
        // per setting (case 9's 300 waits cost 300 whole runs of renewals in the debug build).
        #expect(report.replays <= 2, "\(report.replays) replays")
    }

    @Test(arguments: [
        "sub-upgrade-hardened", "sub-billing-retry-hardened", "sub-late-renewal-after-refund-hardened",
        "auditor-pairing-in-flight-naive",
    ])
    func theCostliestShippedScenariosAreWorkedOutWellWithinTheBudget(name: String) throws {
        let (_, report) = WhatIfTests.explain(try WhatIfTests.load(name))
        #expect(report.notWorkedOut == nil)
        #expect(report.events * 4 < WhatIf.replayEventBudget, "\(report.events) events")
    }
}
