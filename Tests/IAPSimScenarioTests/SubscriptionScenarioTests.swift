import IAPSimCore
import IAPSimScenario
import Testing

/// The scenario surface of auto-renewable subscriptions: the words files write, what they
/// refuse, and what a run checks.
@Suite struct SubscriptionScenarioTests {
    static let sk2 = "format: 1\ntitle: t\npolicy: sk2-hardened\n"

    func run(_ text: String) throws -> ScenarioResult {
        try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: "s.yaml")).result
    }

    func failures(_ result: ScenarioResult) -> [String] {
        result.expectations.filter { !$0.holds }.map { "\($0.name): expected \($0.expected), got \($0.actual)" }
    }

    @Test func aStoreKit1FileThatNamesASubscriptionIsRefusedNamingTheKey() {
        let message = refusal("format: 1\ntitle: t\nsteps:\n  - do: buy pro_monthly\n") ?? ""
        #expect(message.hasPrefix("s.yaml:4:9: 'pro_monthly' is an auto-renewable subscription"), "\(message)")
        #expect(message.contains("'storekit: 2'"), "\(message)")
        let plan = refusal("format: 1\ntitle: t\npolicy: naive\nsteps:\n  - do: change-plan pro_yearly\n") ?? ""
        #expect(plan.hasPrefix("s.yaml:5:9:") && plan.contains("storekit: 2"), "\(plan)")
        // A file that switches to StoreKit 2 first may buy one.
        #expect(refusal("format: 1\ntitle: t\nsteps:\n  - do: policy storekit 2\n  - do: buy pro_monthly\n") == nil)
        #expect(refusal(Self.sk2 + "steps:\n  - do: buy pro_monthly\n") == nil)
    }

    @Test func badValuesGiveOneMessageWithTheAcceptedValues() {
        #expect(
            refusal(Self.sk2 + "grace-period: 7d\nsteps: []\n")
                == "s.yaml:4:15: 'grace-period' takes off, 3d, 16d, 28d, not '7d'")
        #expect(
            refusal(Self.sk2 + "steps:\n  - do: billing-fail maybe\n")
                == "s.yaml:5:22: 'billing-fail' takes on or off, not 'maybe'")
        #expect(
            refusal(Self.sk2 + "steps:\n  - do: change-plan coins_100\n")
                == "s.yaml:5:21: unknown product 'coins_100'; products are: pro_monthly, plus_monthly, pro_yearly")
        #expect(
            refusal(Self.sk2 + "steps: []\nexpect: {subscriptions: {alice: {status: paused}}}\n")
                == "s.yaml:5:42: 'status' takes active, expired, billing-retry, grace, revoked, not 'paused'")
        #expect(
            refusal(Self.sk2 + "steps: []\nexpect: {subscriptions: {alice: {access: maybe}}}\n")
                == "s.yaml:5:42: 'access' takes true, false, not 'maybe'")
    }

    @Test func aYearOfMonthlyRenewalsRunsAndIsChecked() throws {
        let result = try run(
            Self.sk2 + "steps:\n  - do: buy pro_monthly\n  - do: wait 366d\nexpect:\n  renewals: 12\n  charged: 13\n"
                + "  subscriptions: {alice: {status: active, access: true, product: pro_monthly}}\n  unresolved: 0\n")
        #expect(failures(result).isEmpty, "\(failures(result))")
        #expect(result.simulation.now >= 365 * 86_400_000)
    }

    @Test func settleStopsWhenOnlyTheSubscriptionClockIsLeft() throws {
        let result = try run(Self.sk2 + "steps:\n  - do: buy pro_monthly\n  - do: settle\nexpect: {renewals: 0}\n")
        #expect(failures(result).isEmpty, "\(failures(result))")
        #expect(result.simulation.now < 86_400_000)
    }

    @Test func triggersWaitForRenewalsFailuresAndExpiries() throws {
        let text =
            Self.sk2
            + "steps:\n  - do: buy pro_monthly\n  - when: renewed\n    within: 40d\n    do: billing-fail on\n"
            + "  - when: renewal-failed\n    within: 40d\n    do: auto-renew off\n"
            + "  - when: expired\n    within: 40d\n    do: settle\n"
            + "expect:\n  renewals: 1\n  subscriptions: {alice: {status: expired, access: false}}\n"
        let result = try run(text)
        #expect(result.timeout == nil)
        #expect(failures(result).isEmpty, "\(failures(result))")
    }
}
