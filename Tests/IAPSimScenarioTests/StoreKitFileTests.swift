import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

/// The StoreKit configuration files under test: `Tests/Fixtures/storekit` (written in the
/// shapes Xcode writes, format versions 3, 4 and 5) and the shipped `scenarios/*.storekit`.
enum StoreKitFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func fixture(_ name: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/storekit/\(name)").path
    }
    static func shipped(_ name: String) -> String { root.appendingPathComponent("scenarios/\(name)").path }
}

/// The message a StoreKit file's text gets, or nil when it is read.
func storekitRefusal(_ text: String) -> String? {
    do {
        _ = try StoreKitFile.parse(bytes: Array(text.utf8), file: "P.storekit")
        return nil
    } catch {
        return error.description
    }
}

@Suite struct StoreKitFileTests {
    @Test func theShippedBuiltInFileIsTheEmbeddedTextAndTheStandardCatalog() throws {
        let shipped = try String(contentsOfFile: StoreKitFixtures.shipped("iapsim.storekit"), encoding: .utf8)
        #expect(shipped == BuiltInStoreKit.text + "\n")
        let read = LoadedCatalog.builtInFile()
        #expect(read.catalog == Catalog.standard)
        #expect(read.notModelled.isEmpty)
    }

    @Test func versionThreeReadsProductsGroupsLevelsPeriodsAndOffers() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.fixture("v3.storekit"))
        let c = loaded.catalog
        #expect(loaded.version == 3)
        #expect(c.ids == ["com.example.puzzles.hints10", "com.example.puzzles.allpacks"])
        let hints = try #require(c.product("com.example.puzzles.hints10"))
        #expect(hints.kind == .consumable && hints.priceCents == 199 && hints.title == "10 Hints")
        #expect(hints.coins == 1 && c.unit(of: hints.id) == "com.example.puzzles.hints10")
        let yearly = try #require(c.product("com.example.puzzles.plus.yearly"))
        let trial = IntroductoryOffer(paymentMode: .freeTrial, period: RenewalPeriod(1, .week))
        #expect(
            yearly.subscription
                == SubscriptionTerms(
                    group: "21345678", level: 1, period: RenewalPeriod(1, .year), intro: trial,
                    promotional: [
                        IntroductoryOffer(
                            paymentMode: .payAsYouGo, period: RenewalPeriod(1, .month), periodCount: 3,
                            priceCents: 99, promotionalId: "comeback")
                    ]))
        #expect(yearly.priceCents == 2_499)
        #expect(c.product("com.example.puzzles.plus.monthly")?.subscription?.level == 2)
        #expect(
            loaded.listed.contains(
                "com.example.puzzles.plus.yearly: promotional offer comeback (pay as you go 0.99 for 3 x P1M)"))
        #expect(loaded.notModelled == ["Family Sharing of one-time products"])
        #expect(c.settings == CatalogSettings())
    }

    @Test func versionFourReadsNonRenewingWeeklyQuarterlyWinBackAndSettings() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.fixture("v4.storekit"))
        let c = loaded.catalog
        #expect(loaded.version == 4)
        #expect(c.product("archive_pass")?.kind == .nonRenewing)
        #expect(c.product("news.weekly")?.subscription?.period == RenewalPeriod(1, .week))
        #expect(c.product("news.quarterly")?.subscription?.period == RenewalPeriod(3, .month))
        #expect(c.settings.askToBuy && c.settings.billingGracePeriod && !c.settings.billingIssues)
        #expect(c.settings.storefront == "DEU" && c.settings.currency == "EUR" && c.settings.storefrontId == "143443")
        #expect(
            loaded.listed.contains(
                "news.weekly: win-back offer we_miss_you (pay as you go 1.99 for 1 x P1W; 0+ months paid, lapsed 0-24"
                    + " months ago, once)"), "\(loaded.listed)")
        #expect(
            loaded.listed.contains(
                "news.weekly: offer code \"Press\" (free trial for P1M; custom code PRESS, one-time codes PRESS-N;"
                    + " for new, expired)"), "\(loaded.listed)")
        #expect(c.product("news.weekly")?.subscription?.codes.first?.offer.kind == .code)
        #expect(c.product("news.weekly")?.subscription?.winBack.first?.offer.kind == .winBack)
        #expect(loaded.listed.contains("appPolicies"))
        #expect(!loaded.notModelled.contains { $0.contains("offer") })
        #expect(loaded.notModelled.contains("non-renewing subscriptions' duration (sold as unlocks)"))
    }

    @Test func versionFiveReadsBillingPlansIntroductoryOffersAndWholeNumberPrices() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.fixture("v5.storekit"))
        let c = loaded.catalog
        #expect(loaded.version == 5)
        #expect(c.product("tutor.credits")?.priceCents == 150_000)
        #expect(c.product("tutor.halfyear")?.subscription?.period == RenewalPeriod(6, .month))
        #expect(c.product("tutor.twomonths")?.subscription?.period == RenewalPeriod(2, .month))
        #expect(c.settings.billingIssues && c.settings.currency == "KRW")
        #expect(loaded.listed.contains("tutor.halfyear: 1 billing plan"))
        #expect(
            c.product("tutor.halfyear")?.subscription?.intro
                == IntroductoryOffer(paymentMode: .freeTrial, period: RenewalPeriod(1, .week)))
        // Its Purchase error (generic, index 0) is honoured: every purchase fails with it.
        #expect(c.settings.storeKitErrors[.purchase]?.name == "StoreKitError.unknown")
        #expect(c.settings.purchaseFailure == .unknown)
        #expect(!loaded.notModelled.contains { $0.contains("rror") }, "\(loaded.notModelled)")
    }

    @Test func theShippedGameFileIsRead() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon.storekit"))
        let c = loaded.catalog
        #expect(c.ids == ["gems_small", "gems_chest", "remove_ads", "season_pass"])
        #expect(c.subscriptions.map(\.id) == ["pass_weekly", "pass_yearly", "guild_quarterly"])
        #expect(c.settings.currency == "GBP")
    }

    @Test func weeklyAndQuarterlyPeriodsEndOnTheCalendar() {
        let jan31 = SubscriptionCalendar.time(year: 2026, month: 1, day: 31)
        #expect(RenewalPeriod(1, .week).end(after: jan31) == SubscriptionCalendar.time(year: 2026, month: 2, day: 7))
        #expect(RenewalPeriod(3, .month).end(after: jan31) == SubscriptionCalendar.time(year: 2026, month: 4, day: 30))
        #expect(RenewalPeriod(1, .year).end(after: jan31) == SubscriptionCalendar.time(year: 2027, month: 1, day: 31))
        #expect(RenewalPeriod(iso: "P1D") == nil)
        #expect(RenewalPeriod(iso: "P2M")?.words == "2 months")
    }

    @Test func grantsMapConsumablesToAnAmountOfAUnit() throws {
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon.storekit"))
        let granted = loaded.granting([Grant(product: "gems_small", amount: 80, unit: "gems")])
        #expect(granted.catalog.product("gems_small")?.coins == 80)
        #expect(granted.catalog.unit(of: "gems_small") == "gems")
        #expect(granted.catalog.product("gems_chest")?.coins == 1)
        #expect(granted.catalog.balanceUnit == "units")
        // Walkthrough 5: a balance of one reads `1 unit`, not `1 units`.
        #expect(granted.catalog.balance(1) == "1 unit" && granted.catalog.balance(-1) == "-1 unit")
        #expect(granted.catalog.balance(0) == "0 units" && granted.catalog.balance(81) == "81 units")
        #expect(granted.ungranted == ["gems_chest"])
        #expect(loaded.ungranted == ["gems_small", "gems_chest"])
        #expect(
            loaded.ungrantedLine?.hasPrefix("no grant named for gems_small, gems_chest: each credits 1 of itself")
                == true)
    }

    /// Issue 52, item 7: a team's copy of the built-in file (grace switched on) keeps the
    /// built-in grants, 100 and 550 coins, and no product is said to grant nothing; a grant
    /// still wins over them.
    @Test func aCopyOfTheBuiltInFileKeepsTheBuiltInGrants() throws {
        let text = BuiltInStoreKit.text.replacingOccurrences(
            of: "\"settings\" : {", with: "\"settings\" : {\n\"_billingGracePeriodEnabled\" : true,")
        let copy = try StoreKitFile.parse(bytes: Array(text.utf8), file: "grace.storekit")
        #expect(copy.catalog.settings.billingGracePeriod)
        #expect(copy.catalog.product("coins_100")?.coins == 100 && copy.catalog.product("coins_550")?.coins == 550)
        #expect(copy.catalog.balanceUnit == "coins")
        #expect(copy.catalog.balance(1) == "1 coin" && copy.catalog.balance(550) == "550 coins")
        #expect(Catalog.singular("rubies") == "ruby" && Catalog.singular("lives") == "lives")
        #expect(Catalog.singular("gold") == "gold" && Catalog.singular("gems") == "gem")
        #expect(copy.ungranted.isEmpty && copy.ungrantedLine == nil)
        #expect(copy.grantText(copy.catalog.product("coins_100")!) == "grants 100 coins")
        let regranted = copy.granting([Grant(product: "coins_100", amount: 5, unit: "gems")])
        #expect(regranted.catalog.product("coins_100")?.coins == 5 && regranted.catalog.unit(of: "coins_100") == "gems")
    }
}

/// The settings of a StoreKit file that mean something in the world are obeyed from the start.
@Suite struct StoreKitSettingsTests {
    static func scenario(_ storekit: String, policy: String, steps: String) throws -> Scenario {
        let text = "format: 1\ntitle: t\npolicy: \(policy)\nstorekit: \(storekit)\nsteps:\n\(steps)"
        return try ScenarioParser.parse(text: text, file: StoreKitFixtures.fixture("settings.yaml"))
    }

    @Test func askToBuyAndTheGracePeriodOfTheFileHoldFromTheStart() throws {
        let scenario = try Self.scenario("v4.storekit", policy: "hardened", steps: "  - do: buy archive_pass\n")
        #expect(scenario.gracePeriodMs == 16 * 86_400_000)
        #expect(ScenarioPlayer(scenario).simulation.store.askToBuy)
        let result = ScenarioPlayer.run(scenario).result
        #expect(result.simulation.auditor.charges.isEmpty)
        #expect(result.simulation.log.contains { $0.fact.trigger == .deferred })
    }

    /// v5's Purchase error (StoreKit Errors: Purchase, generic, index 0) fails every purchase
    /// with `StoreKitError.unknown`, as Xcode does with the file.
    @Test func theFilesPurchaseErrorFailsThePurchase() throws {
        let scenario = try Self.scenario("v5.storekit", policy: "sk2-hardened", steps: "  - do: buy tutor.twomonths\n")
        let result = ScenarioPlayer.run(scenario).result
        #expect(result.simulation.store.subscriptions.isEmpty)
        #expect(result.simulation.auditor.charges.isEmpty)
        #expect(
            result.simulation.log.contains { "\($0.fact)".contains("StoreKitError.unknown") },
            "\(result.simulation.log.map { "\($0.fact)" })")
    }

    @Test func billingIssuesOfTheFileFailTheFirstRenewal() throws {
        // v5 with its Purchase error switched off, so that the subscription is bought.
        let text = try String(contentsOfFile: StoreKitFixtures.fixture("v5.storekit"), encoding: .utf8)
            .replacingOccurrences(of: "\"enabled\" : true", with: "\"enabled\" : false")
        let copy = StoreKitFixtures.fixture("v5-no-errors.storekit")
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let scenario = try Self.scenario(
            "v5-no-errors.storekit", policy: "sk2-hardened", steps: "  - do: buy tutor.twomonths\n  - do: wait 62d\n")
        #expect(ScenarioPlayer(scenario).simulation.store.billingFails)
        let result = ScenarioPlayer.run(scenario).result
        #expect(result.simulation.log.contains { $0.fact.trigger == .renewalFailed })
        #expect(result.simulation.store.subscriptions.first?.productId == "tutor.twomonths")
    }

    @Test func aWeeklySubscriptionRenewsEverySevenDaysAtTheFilesPrice() throws {
        let scenario = try Self.scenario(
            "v4.storekit", policy: "sk2-hardened",
            steps: "  - do: ask-to-buy off\n  - do: buy news.weekly\n  - do: wait 15d\n")
        let result = ScenarioPlayer.run(scenario).result
        let periods = try #require(result.simulation.store.subscriptions.first?.periods)
        #expect(periods.count == 3)
        #expect(periods.map(\.priceCents) == [349, 349, 349])
        #expect(periods.map { $0.end - $0.start } == [7 * 86_400_000, 7 * 86_400_000, 7 * 86_400_000])
    }
}
