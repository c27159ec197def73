import IAPSimCore
import IAPSimScenario
import Testing

/// Introductory offers (docs/world.md, "Introductory offers"): the App Store applies a
/// subscription's free trial, pay-as-you-go or pay-up-front offer at an eligible customer's
/// first purchase in the group, signs what was paid, and renews at the regular price after.
@Suite struct IntroOfferTests {
    static let day: VirtualTime = 86_400_000

    /// A scenario of `steps` against `storekit` (a path from Tests/Fixtures/storekit).
    static func run(
        _ storekit: String = "../../../scenarios/dungeon.storekit", policy: String = "sk2-hardened",
        keys: String = "", steps: String
    ) throws -> ScenarioResult {
        let text = "format: 1\ntitle: t\npolicy: \(policy)\nstorekit: \(storekit)\n\(keys)steps:\n\(steps)"
        return ScenarioPlayer.run(try ScenarioParser.parse(text: text, file: StoreKitFixtures.fixture("offers.yaml")))
            .result
    }

    /// Every transaction as the App Store signed it, the latest signature of each.
    static func signed(_ r: ScenarioResult) -> [String: SignedTransaction] {
        var byId: [String: SignedTransaction] = [:]
        for entry in r.simulation.log {
            if case .transactionSigned(let s) = entry.fact { byId[s.transactionId] = s }
        }
        return byId
    }

    @Test func theDungeonPassTrialIsFreeForThreeDaysThenRenewsAtItsPrice() throws {
        let r = try Self.run(steps: "  - do: buy pass_weekly\n  - do: wait 8d\n")
        let s = try #require(r.simulation.store.subscriptions.first)
        #expect(s.periods.map(\.priceCents) == [0, 199])
        #expect(s.periods[0].end - s.periods[0].start == 3 * Self.day)
        #expect(s.periods[1].start == s.periods[0].end && s.periods[1].end - s.periods[1].start == 7 * Self.day)
        let signed = Self.signed(r)
        let trial = try #require(signed[s.periods[0].transactionId])
        #expect(trial.price == 0)
        let free = IntroductoryOffer(paymentMode: .freeTrial, period: .init(3, .day))
        #expect(trial.subscription?.offer == OfferUse(free))
        #expect(trial.subscription?.offer?.period == "P3D" && trial.subscription?.offer?.type == 1)
        let paid = try #require(signed[s.periods[1].transactionId])
        #expect(paid.price == 1_990 && paid.subscription?.offer == nil && paid.transactionReason == .renewal)
        // Nothing was paid for the trial: one payment, no money lost either way.
        #expect(r.simulation.subscriptionCharges == 1)
        #expect(r.simulation.auditor.anomalies.isEmpty)
        #expect(r.simulation.auditor.grantedNotPaidCents == 0 && r.simulation.auditor.paidNotDeliveredCents == 0)
        #expect(!r.simulation.store.isEligibleForIntroOffer(group: "21480001"))
        #expect(r.simulation.store.isEligibleForIntroOffer(group: "21480002"))
        let lines = r.simulation.log.map(\.fact.text)
        #expect(lines.contains { $0.hasPrefix("introductory offer of pass_weekly applied to 1000000000001: free") })
    }

    @Test func anAccountGetsOneIntroductoryOfferPerGroup() throws {
        // Alice's trial of the monthly plan ends unconverted; back a month later she buys the
        // yearly plan of the same group, whose own trial she is no longer eligible for.
        let r = try Self.run(
            "offers.storekit",
            steps: "  - do: buy trial_monthly\n  - do: wait 1m\n  - do: auto-renew off\n  - do: wait 30d\n"
                + "  - do: buy trial_yearly\n  - do: wait 1h\n")
        let s = try #require(r.simulation.store.subscriptions.first)
        #expect(s.periods.map(\.priceCents) == [0, 3_999])
        #expect(s.periods[1].end == RenewalPeriod(1, .year).end(after: s.periods[1].start))
        #expect(Self.signed(r)[s.periods[1].transactionId]?.subscription?.offer == nil)
        #expect(!r.simulation.store.isEligibleForIntroOffer(group: "trial"))
        #expect(r.simulation.store.isEligibleForIntroOffer(group: "paygo"))
    }

    @Test func payAsYouGoChargesTheOfferPriceEachPeriodThenTheRegularOne() throws {
        let during = try Self.run("offers.storekit", steps: "  - do: buy paygo_monthly\n  - do: wait 10d\n")
        let info = during.simulation.store.renewalInfo(0, at: during.simulation.now)
        #expect(info.offer?.paymentMode == .payAsYouGo && info.offer?.period == "P3M")
        #expect(info.renewalPrice == 990)
        let r = try Self.run("offers.storekit", steps: "  - do: buy paygo_monthly\n  - do: wait 100d\n")
        let s = try #require(r.simulation.store.subscriptions.first)
        #expect(s.periods.map(\.priceCents) == [99, 99, 99, 499])
        let signed = Self.signed(r)
        #expect(s.periods.map { signed[$0.transactionId]?.price } == [990, 990, 990, 4_990])
        #expect(
            s.periods.map { signed[$0.transactionId]?.subscription?.offer?.paymentMode }
                == [.payAsYouGo, .payAsYouGo, .payAsYouGo, nil])
        let after = r.simulation.store.renewalInfo(0, at: r.simulation.now)
        #expect(after.offer == nil && after.renewalPrice == 4_990)
    }

    @Test func payUpFrontChargesOnceForTheWholeSpan() throws {
        let r = try Self.run("offers.storekit", steps: "  - do: buy upfront_monthly\n  - do: wait 200d\n")
        let s = try #require(r.simulation.store.subscriptions.first)
        #expect(s.periods.first?.priceCents == 299)
        #expect(s.periods.first?.end == SubscriptionCalendar.time(year: 2026, month: 7, day: 1) + 2_160)
        #expect(s.periods.dropFirst().allSatisfy { $0.priceCents == 499 })
        let first = Self.signed(r)[s.periods[0].transactionId]
        #expect(first?.price == 2_990 && first?.subscription?.offer?.paymentMode == .payUpFront)
        #expect(first?.subscription?.offer?.period == "P6M")
    }

    @Test func paidToPaidOnlyGraceDoesNotCoverAFreeTrialsConversion() throws {
        let steps = "  - do: billing-fail on\n  - do: buy pass_weekly\n  - do: wait 4d\n"
        let all = try Self.run(keys: "grace-period: 16d\n", steps: steps)
        #expect(all.simulation.store.subscriptions.first?.status == .grace)
        let paid = try Self.run(keys: "grace-period: 16d\ngrace-renewals: paid-to-paid-only\n", steps: steps)
        let s = try #require(paid.simulation.store.subscriptions.first)
        #expect(s.status == .billingRetry && s.gracePeriodExpiresAt == nil)
        // A paid-to-paid renewal still gets its grace: the second week fails too.
        let later = try Self.run(
            keys: "grace-period: 16d\ngrace-renewals: paid-to-paid-only\n",
            steps: "  - do: buy pass_weekly\n  - do: wait 4d\n  - do: billing-fail on\n  - do: wait 7d\n")
        #expect(later.simulation.store.subscriptions.first?.status == .grace)
        // The hardened server ends access with Apple: nothing to report.
        #expect(paid.simulation.auditor.anomalies.isEmpty)
    }

    @Test func graceDaysAfterAFailedConversionAreWorthTheRenewalNotTheTrial() throws {
        // The shipped pair: the naive server cuts Alice off at the trial's end; she recovers
        // inside the grace period and Apple charges the week from the trial's end, so the
        // days she was shut out were paid (1.99 a week), not free.
        func run(_ name: String) throws -> ScenarioResult {
            ScenarioPlayer.run(try ScenarioParser.load(path: StoreKitFixtures.shipped(name))).result
        }
        let naive = try run("game-trial-card-declined-naive.yaml")
        let cut = try #require(naive.simulation.auditor.anomalies.first)
        #expect(cut.type == .graceCut && cut.status == .resolved)
        let paid = naive.simulation.auditor.paidNotDeliveredCents
        #expect(paid == 85, "three days of a 1.99 week: \(paid)")
        #expect(naive.simulation.auditor.grantedNotPaidCents == 0)
        let hardened = try run("game-trial-card-declined-hardened.yaml")
        #expect(hardened.simulation.auditor.anomalies.isEmpty)
        #expect(hardened.simulation.auditor.paidNotDeliveredCents == 0)
    }

    @Test func aScenarioWritesBackItsGraceRenewals() throws {
        let text = "format: 1\ntitle: t\npolicy: sk2-hardened\ngrace-renewals: paid-to-paid-only\nsteps: []\n"
        let scenario = try ScenarioParser.parse(text: text, file: "s.yaml")
        #expect(scenario.catalog.catalog.settings.graceRenewals == .paidToPaidOnly)
        #expect(ScenarioWriter.yaml(scenario).contains("grace-renewals: paid-to-paid-only\n"))
        do {
            let bad = text.replacingOccurrences(of: "paid-to-paid-only", with: "some")
            _ = try ScenarioParser.parse(text: bad, file: "s.yaml")
            Issue.record("a bad grace-renewals was read")
        } catch {
            #expect(error.description == "s.yaml:4:17: 'grace-renewals' takes all, paid-to-paid-only, not 'some'")
        }
    }

    @Test func aBadIntroductoryOfferIsRefusedAtItsLineWithWhatIsAccepted() throws {
        let text = try String(contentsOfFile: StoreKitFixtures.fixture("offers.storekit"), encoding: .utf8)
        let mode = storekitRefusal(text.replacingOccurrences(of: "\"payUpFront\"", with: "\"gratis\"")) ?? ""
        #expect(mode.hasPrefix("P.storekit:"), "\(mode)")
        #expect(
            mode.hasSuffix(
                "the introductory offer of \"upfront_monthly\" has paymentMode \"gratis\"; accepted: \"free\", "
                    + "\"payAsYouGo\", \"payUpFront\""), "\(mode)")
        let span = storekitRefusal(text.replacingOccurrences(of: "\"P2W\"", with: "\"P5D\"")) ?? ""
        let periods = "accepted: P3D, P1W, P2W, P1M, P2M, P3M, P6M, P1Y"
        #expect(span.hasSuffix("has subscriptionPeriod \"P5D\"; \(periods)"), "\(span)")
        let zero = text.replacingOccurrences(of: "\"numberOfPeriods\": 3", with: "\"numberOfPeriods\": 0")
        let count = storekitRefusal(zero)
        #expect(count?.hasSuffix("numberOfPeriods 0; a whole number from 1 to 52") == true, "\(count ?? "read")")
        let price = storekitRefusal(text.replacingOccurrences(of: "\"displayPrice\": \"2.99\"", with: "\"x\": 1"))
        #expect(price?.contains("upfront_monthly's introductory offer") == true, "\(price ?? "read")")
    }

    @Test func theCatalogShowsTheOfferAndNoLongerCallsItNotModelled() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon.storekit"))
        #expect(loaded.productLines.contains { $0.hasSuffix("introductory offer: free trial for P3D") })
        #expect(!loaded.notModelled.contains { $0.contains("introductory") || $0 == "subscription offers" })
        #expect(!loaded.listed.contains { $0.contains("introductory") })
        let offers = try StoreKitFile.load(path: StoreKitFixtures.fixture("offers.storekit"))
        #expect(offers.notModelled.isEmpty, "\(offers.notModelled)")
        #expect(offers.productLines.contains { $0.hasSuffix("pay as you go 0.99 for 3 x P1M") })
        #expect(offers.productLines.contains { $0.hasSuffix("pay up front 2.99 for P6M") })
    }
}
