import IAPSimCore
import IAPSimScenario
import Testing

/// The expect keys `money` and `entitlements`: read, refused with a position, checked
/// against a run, written back.
@Suite struct ExpectMoneyTests {
    static let file = head + "  - do: buy no_ads\n  - after: 1m\n    do: buy no_ads\nexpect:\n"

    @Test func moneyAndEntitlementsAreReadInCents() throws {
        let s = try ScenarioParser.parse(
            text: Self.file + "  money: {paid-not-delivered: 0.99, granted-not-paid: 3}\n"
                + "  entitlements: {alice: [no_ads], bob: []}\n", file: "s.yaml")
        #expect(s.expect.money == MoneyExpectation(paidNotDeliveredCents: 99, grantedNotPaidCents: 300))
        #expect(s.expect.entitlements == ["alice": ["no_ads"], "bob": []])
    }

    @Test func badValuesAreRefusedWithTheirPosition() {
        #expect(
            refusal(Self.file + "  money: {paid: 0}\n")
                == "s.yaml:9:11: unknown money key 'paid'; money has: paid-not-delivered, granted-not-paid")
        #expect(
            refusal(Self.file + "  money: {granted-not-paid: 0.999}\n")?.hasPrefix(
                "s.yaml:9:29: 'granted-not-paid' must be an amount of money such as 0.99 or 3, but it is") == true)
        #expect(
            refusal(Self.file + "  entitlements: {carol: [no_ads]}\n")?.hasPrefix("s.yaml:9:18: unknown user 'carol'")
                == true)
        #expect(
            refusal(Self.file + "  entitlements: {alice: [gold]}\n")?.hasPrefix("s.yaml:9:26: unknown product 'gold'")
                == true)
    }

    @Test func theyAreCheckedAgainstTheVerdictAndTheServer() throws {
        let s = try ScenarioParser.parse(
            text: Self.file + "  money: {paid-not-delivered: 0, granted-not-paid: 0}\n"
                + "  entitlements: {alice: [no_ads], bob: [no_ads]}\n", file: "s.yaml")
        let result = ScenarioPlayer.run(s).result
        let lines = result.expectations.map { "\($0.holds ? "holds" : "FAILS") \($0.name) \($0.expected) \($0.actual)" }
        #expect(
            lines == [
                "holds money paid-not-delivered 0.00 0.00",
                "holds money granted-not-paid 0.00 0.00",
                "holds entitlements alice [no_ads] [no_ads]",
                "FAILS entitlements bob [no_ads] []",
            ])
    }

    @Test func theWriterWritesThemBackSoTheyReadTheSame() throws {
        let s = try ScenarioParser.parse(
            text: Self.file + "  money: {paid-not-delivered: 0.5}\n"
                + "  entitlements: {alice: [no_ads]}\n", file: "s.yaml")
        let text = ScenarioWriter.yaml(s)
        #expect(text.contains("  money: {paid-not-delivered: 0.50}\n"))
        #expect(text.contains("  entitlements: {alice: [no_ads]}\n"))
        #expect(try ScenarioParser.parse(text: text, file: "w.yaml") == s)
    }

    @Test func storeStatusTakesOnlyVerificationStatuses() {
        #expect(
            refusal(head + "  - do: store-status 21001\n")
                == "s.yaml:5:22: unknown status '21001' for 'store-status'; statuses are: "
                + "0, 21000, 21002, 21003, 21004, 21005, 21006, 21007, 21008, 21009, 21010, 21100..21199")
        #expect(refusal(head + "  - do: store-status 21150\n  - do: background\n  - do: foreground\n") == nil)
    }
}
