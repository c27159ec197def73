import Foundation
import Testing

@testable import IAPSimStoreKit

/// StoreKit 2's introductory offer API over the simulated App Store: the product's
/// `introductoryOffer`, `isEligibleForIntroOffer` before and after the trial, and the
/// purchase's `Transaction.offer` and price.
@Suite struct IntroOfferStoreKitTests {
    @Test func theWeeklyPassOffersAFreeTrialOnceAndItsTransactionSaysSo() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        let app = await store.launch { ListeningApp() }
        let before = try await store.user { () -> (Product.SubscriptionOffer?, Bool, Bool) in
            let p = try #require(try await Product.products(for: ["pass_weekly"]).first)
            let info = try #require(p.subscription)
            return (
                info.introductoryOffer, await info.isEligibleForIntroOffer,
                await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "21480002")
            )
        }.value
        let offer = try #require(before.0)
        #expect(offer.type == .introductory && offer.id == nil)
        #expect(offer.paymentMode == .freeTrial)
        #expect(offer.period.unit == .day && offer.period.value == 3 && offer.periodCount == 1)
        #expect(offer.price == 0 && offer.displayPrice == "£0.00")
        #expect(before.1 && before.2)
        let trial = try #require(try await bought(store, app, "pass_weekly"))
        #expect(trial.offer == Transaction.Offer(id: nil, type: .introductory, paymentMode: .freeTrial))
        #expect(trial.expirationDate == trial.purchaseDate.addingTimeInterval(3 * 86_400))
        let after = try await store.user { () -> (Bool, Bool) in
            let p = try #require(try await Product.products(for: ["pass_yearly"]).first)
            return (
                await p.subscription!.isEligibleForIntroOffer,
                await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "21480002")
            )
        }.value
        #expect(after == (false, true))
        // The conversion: a renewal at the full price, with no offer.
        await store.advance(by: .seconds(3 * 86_400))
        await store.settle()
        let renewal = try await store.user { await Transaction.latest(for: "pass_weekly")?.unsafePayloadValue }.value
        let paid = try #require(renewal)
        #expect(paid.id != trial.id && paid.offer == nil && paid.reason == .renewal)
    }

    @Test func aProductWithoutAnOfferHasNone() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        let yearly = try await store.user { try await Product.products(for: ["pass_yearly"]).first }.value
        #expect(yearly?.subscription != nil && yearly?.subscription?.introductoryOffer == nil)
    }
}
