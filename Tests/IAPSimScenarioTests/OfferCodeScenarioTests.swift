import Foundation
import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Offer codes (`redeem-code`) and win-back offers (`buy PRODUCT offer OFFER`) in the
/// simulated world (docs/world.md, "Offer codes and win-back offers"): the App Store's rules,
/// the payloads (`offerType` 3 and 4), `OFFER_REDEEMED` with its subtype, the renewal info's
/// `eligibleWinBackOfferIds`, and the shipped pair's failure.
@Suite struct OfferCodeScenarioTests {
    static let head = "format: 1\ntitle: t\nusers: [alice]\nstorekit: dungeon-offers.storekit\n"

    func run(_ steps: [String], policy: String = "sk2-hardened", file: String? = nil, extra: String = "") throws
        -> ScenarioResult
    {
        let text = Self.head + "policy: \(policy)\n" + extra + "steps:\n" + steps.map { "  - do: \($0)\n" }.joined()
        let path = file ?? StoreKitFixtures.shipped("s.yaml")
        return try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: path)).result
    }

    func notifications(_ sim: Simulation) -> [ServerNotification] {
        sim.log.compactMap { e -> ServerNotification? in
            guard case .notificationSent(let n) = e.fact, n.attempt <= 1 else { return nil }
            return n
        }
    }

    func noted(_ sim: Simulation) -> [String] {
        sim.log.compactMap { e -> String? in
            guard case .noted(let text) = e.fact else { return nil }
            return text
        }
    }

    /// A copy of dungeon-offers.storekit whose offer code is also for current subscribers,
    /// beside a scenario path in the same folder.
    /// With `levels`, the pass group's levels: pass_weekly's (the code's product) and
    /// pass_yearly's (1 is the highest; the shipped file has both at 1).
    func existingEligibleFolder(levels: (weekly: Int, yearly: Int) = (1, 1)) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("offer-codes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var text = try String(contentsOfFile: StoreKitFixtures.shipped("dungeon-offers.storekit"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"new\",\n", with: "\"new\",\n                \"existing\",\n")
        // The first two "groupNumber"s are pass_weekly's and pass_yearly's.
        let parts = text.components(separatedBy: "\"groupNumber\" : 1,")
        #expect(parts.count == 4, "dungeon-offers.storekit's three groupNumbers")
        text =
            parts[0] + "\"groupNumber\" : \(levels.weekly)," + parts[1] + "\"groupNumber\" : \(levels.yearly),"
            + parts[2] + "\"groupNumber\" : 1," + parts[3]
        try text.write(to: dir.appendingPathComponent("dungeon-offers.storekit"), atomically: true, encoding: .utf8)
        return dir.appendingPathComponent("s.yaml").path
    }

    @Test func theShippedPairShowsACodeRedeemedOutsideTheApp() throws {
        let naive = ScenarioPlayer.run(
            try ScenarioParser.load(path: StoreKitFixtures.shipped("game-offer-code-outside-app-naive.yaml"))
        ).result
        let a = try #require(naive.simulation.auditor.anomalies.first)
        #expect(a.type == .renewalUnserved, "\(a.summary)")
        let t = try #require(naive.simulation.store.transactions.first)
        #expect(t.subscription?.offer?.type == 3 && t.subscription?.offer?.identifier == "Streamer month")
        #expect(t.subscription?.offer?.priceCents == 299 && t.subscription?.offer?.period == "P1M")
        #expect(naive.simulation.auditor.paidNotDeliveredCents > 0)
        let hardened = ScenarioPlayer.run(
            try ScenarioParser.load(path: StoreKitFixtures.shipped("game-offer-code-outside-app-hardened.yaml"))
        ).result
        #expect(hardened.simulation.auditor.anomalies.isEmpty)
        let sent = notifications(hardened.simulation)
        #expect(sent.first?.type == .offerRedeemed && sent.first?.subtype == .initialBuy)
        #expect(sent.first?.transaction.subscription?.offer?.type == 3)
        #expect(noted(hardened.simulation).contains { $0.contains("this Apple ID already redeemed this code") })
        #expect(hardened.simulation.store.transactions.count == 1)
    }

    /// A code redeemed outside the app names no account: the first account the app sends it
    /// for is its subscriber (explore sk2-hardened seed 1 run 116: redeem-code, then login bob,
    /// was wrong-account and renewal-unserved while the App Store kept its guess, alice).
    @Test func theFirstAccountTheAppSendsARedeemedCodeForIsItsSubscriber() throws {
        let text =
            Self.head.replacingOccurrences(of: "users: [alice]", with: "users: [alice, bob]")
            + "policy: sk2-hardened\nsteps:\n  - do: redeem-code STREAMERMONTH\n  - do: login bob\n  - do: wait 1h\n"
        let sim = ScenarioPlayer.run(try ScenarioParser.parse(text: text, file: StoreKitFixtures.shipped("s.yaml")))
            .result.simulation
        #expect(sim.auditor.anomalies.isEmpty, "\(sim.auditor.anomalies.map(\.summary))")
        #expect(sim.store.subscriptions.first?.user == "bob")
        #expect(sim.server.hasAccess("bob", at: sim.now, policy: PolicyPreset.sk2Hardened.policy))
    }

    @Test func oneTimeCodesWorkOnceAndALapsedCustomerResubscribesWithOne() throws {
        let r = try run([
            "redeem-code STREAMERMONTH-1", "wait 1m", "auto-renew off", "wait 35d", "redeem-code STREAMERMONTH-1",
            "redeem-code STREAMERMONTH-2", "wait 1m", "redeem-code STREAMERMONTH-3",
        ])
        let sim = r.simulation
        let offers = sim.store.transactions.compactMap(\.subscription?.offer)
        #expect(offers.map(\.type) == [3, 3], "\(offers)")
        let redeemed = notifications(sim).filter { $0.type == .offerRedeemed }.map(\.subtype)
        #expect(redeemed == [.initialBuy, .resubscribe])
        let lines = noted(sim)
        #expect(lines.contains { $0.hasPrefix("offer code STREAMERMONTH-1 refused: this one-time code was already") })
        // "new" and "expired" only: an active subscriber is refused.
        #expect(lines.contains { $0.hasPrefix("offer code STREAMERMONTH-3 refused: the offer is not for current") })
        #expect(sim.auditor.anomalies.isEmpty)
    }

    @Test func anActiveSubscribersCodeAppliesAtTheNextRenewal() throws {
        let file = try existingEligibleFolder()
        let r = try run(["buy pass_weekly", "wait 1m", "redeem-code STREAMERMONTH", "wait 1h"], file: file)
        var sim = r.simulation
        let sent = notifications(sim).last
        #expect(sent?.type == .offerRedeemed && sent?.subtype == nil)
        let info = sim.store.renewalInfo(0, at: sim.now)
        #expect(info.offer?.type == 3 && info.offer?.identifier == "Streamer month" && info.renewalPrice == 2_990)
        sim.run(until: sim.now + 5 * 86_400_000)
        let renewal = try #require(sim.store.transactions.last)
        #expect(renewal.subscription?.reason == .renewal && renewal.subscription?.offer?.type == 3)
        #expect(renewal.subscription?.offer?.priceCents == 299)
        let expires = try #require(renewal.subscription?.expiresAt)
        let start = try #require(renewal.chargedAt)
        #expect(expires - start > 27 * 86_400_000, "a month, not a week")
    }

    /// An active subscriber's code for a product of a higher level of the group is an upgrade
    /// at once (Apple's plan change, Developer Forums 756304): the rest of the year is refunded
    /// prorated, the new transaction is the code's offer (`offerType` 3, 2.99 for a month),
    /// `OFFER_REDEEMED` / `UPGRADE`; after the offer, pass_weekly renews at its price.
    @Test func anActiveSubscribersCodeForAHigherLevelIsAnUpgradeAtOnce() throws {
        let file = try existingEligibleFolder(levels: (weekly: 1, yearly: 2))
        let r = try run(["buy pass_yearly", "wait 1d", "redeem-code STREAMERMONTH", "wait 1h"], file: file)
        var sim = r.simulation
        let s = try #require(sim.store.subscriptions.first)
        #expect(
            sim.store.subscriptions.count == 1 && s.productId == "pass_weekly" && s.autoRenewProductId == "pass_weekly")
        let upgraded = try #require(sim.store.transactions.last)
        #expect(upgraded.productId == "pass_weekly" && upgraded.subscription?.reason == .purchase)
        #expect(upgraded.subscription?.offer?.type == 3 && upgraded.subscription?.offer?.identifier == "Streamer month")
        #expect(upgraded.subscription?.offer?.priceCents == 299)
        #expect(upgraded.subscription?.originalTransactionId == s.originalTransactionId)
        let yearly = try #require(s.periods.first)
        #expect(yearly.productId == "pass_yearly" && yearly.refundCents > 4_800 && yearly.refundCents < 4_999)
        let sent = notifications(sim).filter { $0.type == .offerRedeemed }
        #expect(sent.map(\.subtype) == [.upgrade], "\(sent.map(\.subtype))")
        #expect(!notifications(sim).contains { $0.type == .didChangeRenewalPref })
        #expect(
            noted(sim).contains { $0.contains("redeemed for pass_weekly by the subscriber of pass_yearly: an upgrade") }
        )
        let start = try #require(upgraded.chargedAt)
        let expires = try #require(upgraded.subscription?.expiresAt)
        #expect(expires - start > 27 * 86_400_000, "the offer's month, not a week")
        sim.run(until: expires + 86_400_000)
        let renewal = try #require(sim.store.transactions.last)
        #expect(renewal.productId == "pass_weekly" && renewal.subscription?.reason == .renewal)
        #expect(renewal.subscription?.offer == nil)
        #expect(sim.store.subscriptions.first?.periods.last?.priceCents == 199)
        #expect(sim.auditor.anomalies.isEmpty, "\(sim.auditor.anomalies.map(\.summary))")
    }

    /// A code for a lower level (or the same level: a crossgrade) waits for the next renewal,
    /// which is of the code's product at the offer: `OFFER_REDEEMED` / `DOWNGRADE`, the
    /// renewal info names the offer and its price; the current period is untouched.
    @Test func anActiveSubscribersCodeForALowerLevelIsADowngradeAtTheNextRenewal() throws {
        for levels in [(weekly: 2, yearly: 1), (weekly: 1, yearly: 1)] {
            let file = try existingEligibleFolder(levels: levels)
            let r = try run(["buy pass_yearly", "wait 1d", "redeem-code STREAMERMONTH", "wait 1h"], file: file)
            var sim = r.simulation
            let s = try #require(sim.store.subscriptions.first)
            #expect(s.productId == "pass_yearly" && s.autoRenewProductId == "pass_weekly", "\(levels)")
            #expect(sim.store.transactions.count == 1 && s.periods.first?.refundCents == 0)
            let sent = notifications(sim).filter { $0.type == .offerRedeemed }
            #expect(sent.map(\.subtype) == [.downgrade], "\(levels): \(sent.map(\.subtype))")
            let info = sim.store.renewalInfo(0, at: sim.now)
            #expect(info.autoRenewProductId == "pass_weekly" && info.offer?.type == 3, "\(levels)")
            #expect(info.renewalPrice == 2_990, "\(levels): \(info.renewalPrice)")
            sim.run(until: s.expiresAt + 86_400_000)
            let renewal = try #require(sim.store.transactions.last)
            #expect(renewal.productId == "pass_weekly" && renewal.subscription?.reason == .renewal)
            #expect(renewal.subscription?.offer?.type == 3 && renewal.subscription?.offer?.priceCents == 299)
            let start = try #require(renewal.chargedAt)
            let expires = try #require(renewal.subscription?.expiresAt)
            #expect(expires - start > 27 * 86_400_000, "\(levels): the offer's month")
        }
    }

    /// A plain plan change away from the code's product after the code ends its offer: the
    /// renewal to another product is at that product's price (no offer carried over).
    @Test func aPlanChangeAfterADowngradeCodeDropsTheOffer() throws {
        let file = try existingEligibleFolder(levels: (weekly: 2, yearly: 1))
        let r = try run(
            [
                "buy pass_yearly", "wait 1d", "redeem-code STREAMERMONTH", "wait 1h", "change-plan pass_yearly",
                "wait 1h",
            ],
            file: file)
        let sim = r.simulation
        let info = sim.store.renewalInfo(0, at: sim.now)
        #expect(info.autoRenewProductId == "pass_yearly" && info.offer == nil && info.renewalPrice == 49_990)
    }

    @Test func winBackOffersAreForALapsedSubscriberByTheirRules() throws {
        let lapsed = try run([
            "buy pass_weekly", "wait 4d", "auto-renew off", "wait 8d", "buy pass_yearly offer yearly_comeback",
            "wait 1m",
        ])
        var sim = lapsed.simulation
        let back = try #require(sim.store.transactions.last)
        #expect(back.subscription?.offer?.type == 4 && back.subscription?.offer?.identifier == "yearly_comeback")
        #expect(back.subscription?.offer?.priceCents == 2_999)
        let sent = notifications(sim).last { $0.type == .offerRedeemed }
        #expect(sent?.subtype == .resubscribe && sent?.transaction.subscription?.offer?.type == 4)
        // Its renewal info, while lapsed, listed the offer; once back, none.
        let before = notifications(sim).last { $0.type == .expired }
        #expect(before?.renewalInfo?.eligibleWinBackOfferIds == ["yearly_comeback"])
        #expect(sim.store.renewalInfo(0, at: sim.now).eligibleWinBackOfferIds.isEmpty)
        // Redeemed once, with no wait between offers: not again after the next lapse.
        sim.run(until: sim.now + 60_000)
        _ = sim.apply(.autoRenew(on: false))
        sim.run(until: sim.now + 370 * 86_400_000)
        #expect(sim.store.subscriptions.first?.status == .expired)
        #expect(sim.store.eligibleWinBackOfferIds(group: "21480001", now: sim.now).isEmpty)
        let offer = try #require(try catalogOffer("yearly_comeback"))
        #expect(sim.store.winBackRefusal(offer, group: "21480001", now: sim.now) == "the customer redeemed it already")
    }

    func catalogOffer(_ id: String) throws -> WinBackOffer? {
        try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit")).catalog
            .winBackOffer(id, of: "pass_yearly")
    }

    @Test func noWinBackOfferInBillingGraceOrRetry() throws {
        let r = try run(
            ["buy pass_weekly", "wait 4d", "billing-fail on", "wait 9d"], extra: "grace-period: 3d\n")
        let sim = r.simulation
        #expect(sim.store.subscriptions.first?.isInBillingRetryPeriod == true)
        #expect(sim.store.eligibleWinBackOfferIds(group: "21480001", now: sim.now).isEmpty)
        #expect(sim.store.renewalInfo(0, at: sim.now).eligibleWinBackOfferIds.isEmpty)
        let bought = try run(
            ["buy pass_weekly", "wait 4d", "billing-fail on", "wait 9d", "buy pass_yearly offer yearly_comeback"],
            extra: "grace-period: 3d\n")
        #expect(bought.simulation.store.transactions.allSatisfy { $0.subscription?.offer?.type != 4 })
    }

    @Test func theCommandIsReadCheckedAndWrittenBack() throws {
        let catalog = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit")).catalog
        let parser = CommandParser(users: ["alice"], catalog: catalog)
        #expect(try parser.parse("redeem-code STREAMERMONTH") == .subscription(.redeemCode("STREAMERMONTH")))
        #expect(try parser.parse("redeem-code STREAMERMONTH-12") == .subscription(.redeemCode("STREAMERMONTH-12")))
        #expect(Command.subscription(.redeemCode("STREAMERMONTH-2")).scenarioText == "redeem-code STREAMERMONTH-2")
        #expect(
            try parser.parse("buy pass_yearly offer yearly_comeback")
                == .subscription(.buyOffer(product: "pass_yearly", offer: "yearly_comeback")))
        for bad in ["redeem-code streamermonth", "redeem-code STREAMERMONTH-0", "redeem-code STREAMERMONTH-01"] {
            #expect(throws: CommandError.self, "\(bad)") { try parser.parse(bad) }
        }
        do {
            _ = try parser.parse("redeem-code NOPE")
        } catch {
            #expect(error.offset == 12 && error.description.contains("STREAMERMONTH (custom)"), "\(error.description)")
        }
        let plain = CommandParser(users: ["alice"], catalog: .standard)
        do {
            _ = try plain.parse("redeem-code X")
        } catch {
            #expect(error.description.contains("no offer code"), "\(error.description)")
        }
    }

    @Test func aBadOfferCodeOrWinBackOfferIsRefusedAtItsLineWithWhatIsAccepted() throws {
        let text = try String(contentsOfFile: StoreKitFixtures.shipped("dungeon-offers.storekit"), encoding: .utf8)
        let noName = storekitRefusal(text.replacingOccurrences(of: "\"Streamer month\"", with: "\"--\"")) ?? "read"
        #expect(noName.hasPrefix("P.storekit:"), "\(noName)")
        #expect(noName.contains("an offer code of \"pass_weekly\" has referenceName \"--\""), "\(noName)")
        let who = storekitRefusal(text.replacingOccurrences(of: "\"expired\"\n", with: "\"lapsed\"\n")) ?? "read"
        #expect(who.contains("must be a non-empty array of \"new\", \"existing\", \"expired\""), "\(who)")
        let noId = storekitRefusal(text.replacingOccurrences(of: "\"offerID\" : \"yearly_comeback\",", with: ""))
        #expect(noId?.contains("a win-back offer of \"pass_yearly\" has offerID missing") == true, "\(noId ?? "read")")
        let months = storekitRefusal(
            text.replacingOccurrences(
                of: "\"offerID\" : \"yearly_comeback\",",
                with: "\"offerID\" : \"yearly_comeback\", \"customerEligibilityWaitBetweenOffersInMonths\" : -1,"))
        #expect(months?.contains("a whole number of months from 0 to 120") == true, "\(months ?? "read")")
        // Each refusal names its line and column.
        for message in [noName, who, noId ?? "", months ?? ""] {
            let parts = message.split(separator: ":")
            #expect(parts.count > 3 && Int(parts[1]) != nil && Int(parts[2]) != nil, "\(message)")
        }
        let loaded = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit"))
        #expect(!loaded.notModelled.contains { $0.contains("offer") }, "\(loaded.notModelled)")
    }
}
