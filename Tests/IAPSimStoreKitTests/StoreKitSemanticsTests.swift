import Foundation
import Testing

@testable import IAPSimStoreKit

/// An app that listens from launch and keeps every update it is given, revoked ones included.
actor ListeningApp {
    var updates: [(id: UInt64, product: String, revoked: Bool)] = []
    init() {
        Task { for await update in Transaction.updates { await self.take(update) } }
    }

    func take(_ v: VerificationResult<Transaction>) async {
        let t = v.unsafePayloadValue
        updates.append((t.id, t.productID, t.revocationDate != nil))
        await t.finish()
    }

    func buy(_ id: String) async throws -> Transaction? {
        let product = try #require(try await Product.products(for: [id]).first)
        guard case .success(let v) = try await product.purchase() else { return nil }
        await v.unsafePayloadValue.finish()
        return v.unsafePayloadValue
    }
}

/// `id` bought by the app, with the world settled so that the App Store answers.
@discardableResult
func bought(_ store: SimulatedStore, _ app: ListeningApp, _ id: String) async throws -> Transaction? {
    let task = await store.user { try await app.buy(id) }
    await store.settle()
    return try await task.value
}

/// The product ids of `Transaction.currentEntitlements` and `Transaction.all`, as the app reads them.
func lists(_ store: SimulatedStore) async throws -> (entitled: [String], all: [String]) {
    try await store.user { () -> ([String], [String]) in
        var entitled: [String] = []
        for await v in Transaction.currentEntitlements { entitled.append(v.unsafePayloadValue.productID) }
        var all: [String] = []
        for await v in Transaction.all { all.append(v.unsafePayloadValue.productID) }
        return (entitled, all)
    }.value
}

/// `scenarios/dungeon.storekit` (a GBR storefront) with `edits` made to its text, in a file of its own.
func dungeon(_ edits: [(String, String)] = []) throws -> StoreCatalog {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    var text = try String(contentsOf: root.appendingPathComponent("scenarios/dungeon.storekit"), encoding: .utf8)
    for (old, new) in edits { text = text.replacingOccurrences(of: old, with: new) }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("dungeon-\(UUID()).storekit")
    try text.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    return try StoreCatalog(storekitFile: file.path)
}

/// What StoreKit 2 does on a device, as Apple documents it.
@Suite struct StoreKitSemanticsTests {
    @Test func aRefundReachesTransactionUpdatesForAConsumableAndASubscription() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { ListeningApp() }
        let coins = try #require(try await bought(store, app, "coins_100"))
        await store.settle()
        try await store.perform("refund newest")
        await store.settle()
        var got = await app.updates
        #expect(got.contains { $0.id == coins.id && $0.revoked }, "\(got)")
        let pro = try #require(try await bought(store, app, "pro_monthly"))
        try await store.perform("refund newest")
        await store.settle()
        got = await app.updates
        #expect(got.contains { $0.id == pro.id && $0.revoked }, "\(got)")
        // Each revocation comes once.
        #expect(got.filter(\.revoked).count == 2, "\(got)")
    }

    @Test func aRenewalReachesTransactionUpdates() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { ListeningApp() }
        let first = try #require(try await bought(store, app, "pro_monthly"))
        await store.advance(by: .seconds(32 * 86_400))
        await store.settle()
        let got = await app.updates
        #expect(got.contains { $0.product == "pro_monthly" && $0.id != first.id && !$0.revoked }, "\(got)")
    }

    @Test func currentEntitlementsKeepsTheLatestOfASubscriptionAndNoUpgradedAwayOne() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { ListeningApp() }
        try await bought(store, app, "pro_monthly")
        // Inside the renewal lead: the renewal is charged, the paid period not over; one entitlement.
        await store.advance(by: .seconds(30 * 86_400 + 3_600))
        await store.settle()
        var (entitled, _) = try await lists(store)
        #expect(entitled == ["pro_monthly"], "\(entitled)")
        // An upgrade: the upgraded-away transaction is no entitlement.
        try await bought(store, app, "plus_monthly")
        (entitled, _) = try await lists(store)
        #expect(entitled == ["plus_monthly"], "\(entitled)")
        try await bought(store, app, "no_ads")
        (entitled, _) = try await lists(store)
        #expect(Set(entitled) == ["plus_monthly", "no_ads"], "\(entitled)")
        try await store.perform("refund newest")
        await store.settle()
        (entitled, _) = try await lists(store)
        #expect(entitled == ["plus_monthly"], "a revoked non-consumable stays an entitlement: \(entitled)")
    }

    @Test func aSubscriberInBillingGraceIsEntitled() async throws {
        let catalog = try dungeon([("\"_billingGracePeriodEnabled\" : false", "\"_billingGracePeriodEnabled\" : true")])
        let store = try SimulatedStore(catalog: catalog)
        let app = await store.launch { ListeningApp() }
        try await bought(store, app, "pass_weekly")
        try await store.perform("billing-fail on")
        await store.advance(by: .seconds(8 * 86_400))
        await store.settle()
        let status = try await store.user { () -> [Product.SubscriptionInfo.RenewalState] in
            let p = try #require(try await Product.products(for: ["pass_weekly"]).first)
            return try await p.subscription!.status.map(\.state)
        }.value
        #expect(status == [.inGracePeriod])
        let (entitled, _) = try await lists(store)
        #expect(entitled == ["pass_weekly"], "\(entitled)")
    }

    @Test func allAndLatestLeaveOutFinishedConsumablesUnlessRefundedOrAsked() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { ListeningApp() }
        let coins = try #require(try await bought(store, app, "coins_100"))
        try await bought(store, app, "no_ads")
        var (_, all) = try await lists(store)
        #expect(all == ["no_ads"], "\(all)")
        let latest = try await store.user { await Transaction.latest(for: "coins_100")?.unsafePayloadValue.id }.value
        #expect(latest == nil)
        store.includeConsumableInAppPurchaseHistory = true
        (_, all) = try await lists(store)
        #expect(all == ["coins_100", "no_ads"], "\(all)")
        store.includeConsumableInAppPurchaseHistory = false
        try await store.perform("refund \(coins.id)")
        await store.settle()
        (_, all) = try await lists(store)
        #expect(all.contains("coins_100"), "a refunded consumable is in the history: \(all)")
    }

    @Test func syncIsRefusedOfflineAndAnswersOnline() async throws {
        let store = try SimulatedStore()
        _ = await store.launch { ListeningApp() }
        try await store.user { try await AppStore.sync() }.value
        try await store.perform("network off")
        await #expect(throws: StoreKitError.self) { try await store.user { try await AppStore.sync() }.value }
    }

    @Test func aStatusCarriesItsSignedRenewalInfoAndEligibilityEndsWithAPurchase() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { ListeningApp() }
        let before = try await store.user {
            await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "pro")
        }.value
        #expect(before)
        try await bought(store, app, "pro_monthly")
        let read = try await store.user { () -> (VerificationResult<Product.SubscriptionInfo.RenewalInfo>, Bool) in
            let p = try #require(try await Product.products(for: ["pro_monthly"]).first)
            let info = try #require(p.subscription)
            #expect(info.subscriptionPeriod.unit == .month && info.subscriptionPeriod.value == 1)
            #expect(info.introductoryOffer == nil)
            let status = try #require(try await info.status.first)
            return (status.renewalInfo, await info.isEligibleForIntroOffer)
        }.value
        let (renewal, eligible) = read
        #expect(!eligible)
        guard case .verified(let r) = renewal else {
            Issue.record("the renewal info does not verify")
            return
        }
        #expect(r.currentProductID == "pro_monthly" && r.willAutoRenew && !r.isInBillingRetry)
        #expect(r.autoRenewPreference == "pro_monthly" && r.environment == .production)
        #expect(renewal.jwsRepresentation.split(separator: ".").count == 3)
        #expect(store.signing.failure(of: renewal.jwsRepresentation) == nil)
    }

    @Test func pricesAreWrittenAsTheStorefrontsLocaleWritesThem() async throws {
        #expect(Product.displayPrice(cents: 99, storefront: "GBR", currency: "GBP") == "£0.99")
        #expect(Product.displayPrice(cents: 12_000, storefront: "JPN", currency: "JPY") == "¥120")
        #expect(Product.displayPrice(cents: 99, storefront: "FRA", currency: "EUR") == "0,99 €")
        #expect(Product.displayPrice(cents: 99, storefront: "USA", currency: "USD") == "$0.99")
        let store = try SimulatedStore(catalog: try dungeon())
        _ = await store.launch { ListeningApp() }
        let gems = try await store.user { try await Product.products(for: ["gems_small"]) }.value
        #expect(gems.first?.displayPrice == "£0.99", "\(gems.map(\.displayPrice))")
        let euros = try SimulatedStore(
            catalog: try dungeon([("\"_storefront\" : \"GBR\"", "\"_storefront\" : \"FRA\"")]))
        _ = await euros.launch { ListeningApp() }
        let inFrance = try await euros.user { try await Product.products(for: ["gems_small"]) }.value
        #expect(inFrance.first?.displayPrice == "0,99 €", "\(inFrance.map(\.displayPrice))")
    }
}

/// A team's own catalog in the harness: what its consumables grant.
@Suite struct TeamCatalogTests {
    @Test func aStoreKitFileWithGrantsCreditsThem() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("scenarios/dungeon.storekit").path
        for catalog in [
            try StoreCatalog(storekitFile: file, grants: ["gems_small": "100 gems"]),
            try {
                let grants = FileManager.default.temporaryDirectory.appendingPathComponent("grants-\(UUID()).yaml")
                try "gems_small: 100 gems\n".write(to: grants, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: grants) }
                return try StoreCatalog(storekitFile: file, grantsFile: grants.path)
            }(),
        ] {
            // What the world's merchant server credits for one purchase.
            #expect(catalog.catalog.product("gems_small")?.coins == 100)
            #expect(catalog.catalog.units["gems_small"] == "gems")
        }
        #expect(throws: SimulatedStoreError.self) {
            try StoreCatalog(storekitFile: file, grants: ["remove_ads": "1 x"])
        }
        #expect(throws: SimulatedStoreError.self) {
            try StoreCatalog(storekitFile: file, grants: ["gems_small": "lots"])
        }
    }
}
