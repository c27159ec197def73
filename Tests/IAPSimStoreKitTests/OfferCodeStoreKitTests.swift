import Foundation
import Testing

@testable import IAPSimStoreKit

/// StoreKit 2's view of win-back offers and offer codes over the simulated App Store:
/// `SubscriptionInfo.winBackOffers`, the renewal info's `eligibleWinBackOfferIDs`,
/// `PurchaseOption.winBackOffer(_:)` (refused with `ineligibleForOffer` before a lapse), and a
/// code redeemed in the sheet or outside the app arriving on `Transaction.updates`.
@Suite struct OfferCodeStoreKitTests {
    static let code = """
        "codeOffers" : [
                    {
                      "displayPrice" : "2.99",
                      "eligibility" : ["new", "expired"],
                      "paymentMode" : "payUpFront",
                      "referenceName" : "Streamer month",
                      "subscriptionPeriod" : "P1M"
                    }
                  ],
                  "displayPrice" : "1.99",
        """

    static func catalog() throws -> StoreCatalog {
        try dungeon([("\"codeOffers\" : [],\n          \"displayPrice\" : \"1.99\",", code)])
    }

    /// The yearly pass's win-back offer, and the weekly subscription's renewal info.
    static func look(_ store: SimulatedStore) async throws -> (
        Product.SubscriptionOffer, Product.SubscriptionInfo.RenewalInfo
    ) {
        try await store.user { () -> (Product.SubscriptionOffer, Product.SubscriptionInfo.RenewalInfo) in
            let yearly = try #require(try await Product.products(for: ["pass_yearly"]).first)
            let offer = try #require(yearly.subscription?.winBackOffers.first)
            let status = try #require(await yearly.subscription?.status.first)
            return (offer, status.renewalInfo.unsafePayloadValue)
        }.value
    }

    static func buy(_ store: SimulatedStore, _ offer: Product.SubscriptionOffer) async throws -> Transaction? {
        let task = await store.user { () -> Transaction? in
            let yearly = try #require(try await Product.products(for: ["pass_yearly"]).first)
            guard case .success(let v) = try await yearly.purchase(options: [.winBackOffer(offer)]) else { return nil }
            await v.unsafePayloadValue.finish()
            return v.unsafePayloadValue
        }
        await store.settle()
        return try await task.value
    }

    @Test func aWinBackOfferIsForTheLapsedSubscriberTheRenewalInfoNames() async throws {
        let store = try SimulatedStore(catalog: try Self.catalog())
        let app = await store.launch { ListeningApp() }
        try #require(try await bought(store, app, "pass_weekly"))
        await store.advance(by: .seconds(4 * 86_400))
        await store.settle()
        let (offer, active) = try await Self.look(store)
        #expect(offer.id == "yearly_comeback" && offer.type == .winBack && offer.price == Decimal(string: "29.99"))
        #expect(active.eligibleWinBackOfferIDs.isEmpty)
        await #expect(throws: Product.PurchaseError.ineligibleForOffer) { try await Self.buy(store, offer) }
        try await store.perform("auto-renew off")
        await store.advance(by: .seconds(8 * 86_400))
        await store.settle()
        let (_, lapsed) = try await Self.look(store)
        #expect(lapsed.eligibleWinBackOfferIDs == ["yearly_comeback"])
        let back = try #require(try await Self.buy(store, offer))
        #expect(back.productID == "pass_yearly" && back.offer?.type == .winBack && back.offer?.id == "yearly_comeback")
    }

    @Test func aCodeFromTheSheetOrTheAppStoreArrivesOnTransactionUpdates() async throws {
        let store = try SimulatedStore(catalog: try Self.catalog())
        let app = await store.launch { ListeningApp() }
        store.customerEntersOfferCode("STREAMERMONTH-7")
        try await store.user { try await AppStore.presentOfferCodeRedeemSheet(in: ()) }.value
        await store.settle()
        #expect(await app.updates.map(\.product) == ["pass_weekly"])
        let latest = try await store.user { await Transaction.latest(for: "pass_weekly")?.unsafePayloadValue }.value
        let redeemed = try #require(latest)
        #expect(redeemed.offer?.type == .code && redeemed.offer?.id == "Streamer month")
        #expect(store.redeemOfferCodeOutsideApp("STREAMERMONTH-7") == "this one-time code was already redeemed")
        #expect(store.redeemOfferCodeOutsideApp("STREAMERMONTH") == "the offer is not for current subscribers")
        await store.settle()
        #expect(await app.updates.count == 1)
    }
}
