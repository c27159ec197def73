import Foundation
import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Promotional offers in the simulated world (`buy PRODUCT offer OFFER`): the merchant server
/// signs with the order, under `server-offer-signing`; the App Store checks the signature,
/// applies the offer (`offerType` 2, its identifier, its price) and the auditor catches an
/// offer signed for an account new to the group (`promo-ineligible`).
@Suite struct PromotionalOfferScenarioTests {
    func run(_ name: String) throws -> ScenarioResult {
        ScenarioPlayer.run(try ScenarioParser.load(path: StoreKitFixtures.shipped(name))).result
    }

    @Test func theNaiveServerSignsForANewCustomerAndTheAuditorCatchesIt() throws {
        let naive = try run("game-promo-offer-new-customer-naive.yaml")
        let a = try #require(naive.simulation.auditor.anomalies.first)
        #expect(a.type == .promoIneligible && a.status == .permanent)
        #expect(a.summary.contains("0.99 paid for a 1.99 period, 1.00 given away"), "\(a.summary)")
        let t = try #require(naive.simulation.store.transactions.first)
        #expect(t.subscription?.offer?.type == 2 && t.subscription?.offer?.identifier == "comeback_half")
        #expect(t.subscription?.offer?.priceCents == 99)
    }

    @Test func theHardenedServerSignsOnlyForSubscribers() throws {
        let hardened = try run("game-promo-offer-new-customer-hardened.yaml")
        #expect(hardened.simulation.auditor.anomalies.isEmpty)
        let offers = hardened.simulation.store.transactions.compactMap(\.subscription?.offer)
        // The new customer got the free trial (offerType 1); back after a lapse, the promotional offer.
        #expect(offers.map(\.type) == [1, 2])
        #expect(offers.last?.identifier == "comeback_half" && offers.last?.priceCents == 99)
    }

    @Test func aBuyWithAnOfferIsReadCheckedAndWrittenBack() throws {
        let catalog = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit")).catalog
        let parser = CommandParser(users: ["alice"], catalog: catalog)
        #expect(
            try parser.parse("buy pass_weekly offer comeback_half")
                == .subscription(.buyOffer(product: "pass_weekly", offer: "comeback_half")))
        #expect(
            Command.subscription(.buyOffer(product: "pass_weekly", offer: "comeback_half")).scenarioText
                == "buy pass_weekly offer comeback_half")
        #expect(throws: CommandError.self) { try parser.parse("buy pass_weekly offer nope") }
        #expect(throws: CommandError.self) { try parser.parse("buy pass_yearly offer comeback_half") }
        #expect(throws: CommandError.self) { try parser.parse("buy pass_weekly offer") }
        do {
            _ = try parser.parse("buy pass_weekly offer nope")
        } catch {
            #expect(error.offset == 22 && error.description.contains("comeback_half"), "\(error.description)")
        }
    }

    @Test func theSignaturesRulesAreTheAppStores() throws {
        let catalog = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit")).catalog
        var store = AppStore(catalog: catalog, rng: SplitMix64(seed: 1))
        func sig(_ change: (inout OfferSignature) -> Void = { _ in }) -> OfferSignature {
            var s = OfferSignature(
                offerId: "comeback_half", productId: "pass_weekly", verified: true, account: "t1", nonce: "n1",
                signedAt: 1_000)
            change(&s)
            return s
        }
        let now: VirtualTime = 2_000
        #expect(
            store.redeem(sig { $0.offerId = "nope" }, product: "pass_weekly", account: "t1", now: now)
                == .failure(.unknownOffer))
        #expect(
            store.redeem(sig { $0.productId = "pass_yearly" }, product: "pass_weekly", account: "t1", now: now)
                == .failure(.otherProduct))
        #expect(
            store.redeem(sig { $0.verified = false }, product: "pass_weekly", account: "t1", now: now)
                == .failure(.badSignature))
        #expect(store.redeem(sig(), product: "pass_weekly", account: "t2", now: now) == .failure(.otherAccount))
        #expect(
            store.redeem(sig(), product: "pass_weekly", account: "t1", now: 1_000 + AppStore.offerSignatureLifeMs + 1)
                == .failure(.expired))
        #expect(
            store.redeem(sig { $0.transactionId = "999" }, product: "pass_weekly", account: "t1", now: now)
                == .failure(.otherCustomer))
        guard case .success(let offer) = store.redeem(sig(), product: "pass_weekly", account: "t1", now: now) else {
            Issue.record("a good signature was refused")
            return
        }
        #expect(offer.promotionalId == "comeback_half" && offer.priceCents == 99 && offer.periodCount == 2)
        #expect(store.redeem(sig(), product: "pass_weekly", account: "t1", now: now) == .failure(.reusedNonce))
        #expect(OfferRefusal.unknownOffer.storeKit2Error == "invalidOfferIdentifier")
        #expect(OfferRefusal.expired.storeKit2Error == "invalidOfferSignature")
    }

    /// Explore over a catalog with a promotional offer draws `buy PRODUCT offer OFFER`: the
    /// StoreKit 2 naive server's signing is found and shrunk to a few steps; the hardened one
    /// never signs for an account new to the group. A catalog without offers draws as before.
    @Test func exploreDrawsOffersAndOnlyTheNaiveServerIsCaught() throws {
        let catalog = try StoreKitFile.load(path: StoreKitFixtures.shipped("dungeon-offers.storekit")).catalog
        let naive = Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 1, catalog: catalog)
        let found = (0..<300).lazy.map { naive.run($0) }.first { $0.failures.contains(.promoIneligible) }
        let run = try #require(found, "sk2-naive found no promo-ineligible in 300 runs")
        let small = naive.shrink(naive.schedule(run.index), seed: run.seed, type: .promoIneligible)
        #expect(small.steps.contains { if case .subscription(.buyOffer) = $0.command { true } else { false } })
        #expect(small.steps.count <= 4, "\(small.steps.map(\.command.scenarioText))")
        let hardened = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 1, catalog: catalog)
        var offered = 0
        for i in 0..<300 {
            if hardened.schedule(i).steps.contains(where: {
                if case .subscription(.buyOffer) = $0.command { true } else { false }
            }) {
                offered += 1
            }
            #expect(!hardened.run(i).failures.contains(.promoIneligible), "run \(i)")
        }
        #expect(offered > 50, "\(offered) of 300 hardened runs drew an offer")
        let plain = Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 1)
        #expect(
            !(0..<100).contains { i in plain.schedule(i).steps.contains { $0.command.scenarioText.contains(" offer ") }
            })
    }
}
