import Foundation
import Testing

@testable import IAPSimStoreKit

/// StoreKit 2's view of a price increase over the simulated App Store: the renewal info's
/// `priceIncreaseStatus` and `renewalPrice`, `Message.messages` with the reason
/// `priceIncreaseConsent`, and the renewal at the new price after consent.
@Suite struct PriceIncreaseStoreKitTests {
    /// The renewal info of the account's pass subscription, and the messages delivered.
    static func look(_ store: SimulatedStore) async throws -> (
        Product.SubscriptionInfo.RenewalInfo, [Message.Reason]
    ) {
        try await store.user { () -> (Product.SubscriptionInfo.RenewalInfo, [Message.Reason]) in
            let p = try #require(try await Product.products(for: ["pass_weekly"]).first)
            let status = try #require(await p.subscription?.status.first)
            var reasons: [Message.Reason] = []
            for await m in Message.messages { reasons.append(m.reason) }
            return (status.renewalInfo.unsafePayloadValue, reasons)
        }.value
    }

    @Test func aPendingIncreaseIsSeenThenConsentedAndRenewedAtTheNewPrice() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        let app = await store.launch { ListeningApp() }
        let trial = try #require(try await bought(store, app, "pass_weekly"))
        let (before, none) = try await Self.look(store)
        #expect(before.priceIncreaseStatus == .noIncreasePending && none.isEmpty)
        #expect(before.renewalPrice == Decimal(string: "1.99"))
        try await store.perform("price-increase pass_weekly 2.99 consent")
        await store.settle()
        let (pending, messages) = try await Self.look(store)
        #expect(pending.priceIncreaseStatus == .pending)
        #expect(pending.renewalPrice == Decimal(string: "2.99"))
        #expect(messages == [.priceIncreaseConsent])
        try await store.perform("consent")
        await store.settle()
        let (agreed, answered) = try await Self.look(store)
        #expect(agreed.priceIncreaseStatus == .agreed && answered.isEmpty)
        await store.advance(by: .seconds(3 * 86_400))
        await store.settle()
        let renewal = try await store.user { await Transaction.latest(for: "pass_weekly")?.unsafePayloadValue }.value
        let paid = try #require(renewal)
        #expect(paid.id != trial.id && paid.reason == .renewal)
        // The trial was free; the conversion is charged the new price.
        #expect(store.locked { store.sim.store.subscriptions.first?.periods.map(\.priceCents) } == [0, 299])
    }

    @Test func withoutConsentTheSubscriptionExpiresForThePriceIncrease() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        let app = await store.launch { ListeningApp() }
        _ = try #require(try await bought(store, app, "pass_weekly"))
        try await store.perform("price-increase pass_weekly 2.99 consent")
        await store.advance(by: .seconds(4 * 86_400))
        await store.settle()
        let (info, _) = try await Self.look(store)
        #expect(info.expirationReason == .didNotConsentToPriceIncrease && !info.isInBillingRetry)
        let entitled = try await lists(store).entitled
        #expect(!entitled.contains("pass_weekly"))
    }

    /// The app defers StoreKit's message (`messages defer`): `Message.messages` still hands it
    /// the message (it is the app's to show), no sheet is shown until `messages show`; after
    /// the expiry without consent a new purchase is charged the new price.
    @Test func aDeferredMessageIsStillTheAppsAndANewPurchaseIsChargedTheNewPrice() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        let app = await store.launch { ListeningApp() }
        _ = try #require(try await bought(store, app, "pass_weekly"))
        try await store.perform("messages defer")
        try await store.perform("price-increase pass_weekly 2.99 consent")
        await store.settle()
        let (_, messages) = try await Self.look(store)
        #expect(messages == [.priceIncreaseConsent])
        #expect(store.locked { store.sim.store.messageDeferred })
        try await store.perform("messages show")
        #expect(store.locked { !store.sim.store.messageDeferred })
        await store.advance(by: .seconds(4 * 86_400))
        await store.settle()
        _ = try #require(try await bought(store, app, "pass_weekly"))
        let prices = store.locked { store.sim.store.subscriptions.first?.periods.map(\.priceCents) }
        #expect(prices == [0, 299], "\(String(describing: prices))")
    }
}
