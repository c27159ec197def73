import Foundation
import Testing

@testable import IAPSimStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The smallest app: buys without a server, finishes what it gets, listens from launch.
actor TinyApp {
    var got: [UInt64] = []
    init(listen: Bool) {
        if listen {
            Task { for await update in Transaction.updates { await self.take(update) } }
        }
    }

    func take(_ v: VerificationResult<Transaction>) async {
        guard case .verified(let t) = v else { return }
        got.append(t.id)
        await t.finish()
    }

    func buy(_ id: String, token: UUID? = nil) async throws -> Product.PurchaseResult {
        let product = try #require(try await Product.products(for: [id]).first)
        let result = try await product.purchase(options: token.map { [.appAccountToken($0)] } ?? [])
        if case .success(let v) = result { await take(v) }
        return result
    }
}

/// Expects `task` to fail with the URL error `code`.
func expectFailure(_ task: Task<Int, Error>, _ code: URLError.Code) async {
    do {
        let status = try await task.value
        Issue.record("answered \(status), expected \(code)")
    } catch let e as URLError {
        #expect(e.code == code)
    } catch {
        Issue.record("\(error)")
    }
}

@Suite struct StoreKitAPITests {
    @Test func productsComeFromTheCatalogWithStoreKitNames() async throws {
        let store = try SimulatedStore()
        _ = await store.launch { TinyApp(listen: false) }
        let products = try await store.user { try await Product.products(for: ["no_ads", "coins_100", "nope"]) }.value
        #expect(products.map(\.id) == ["coins_100", "no_ads"])
        #expect(products[0].type == .consumable && products[1].type == .nonConsumable)
        #expect(products[0].displayPrice == "$0.99" && products[0].price == Decimal(string: "0.99"))
        let pro = try await store.user { try await Product.products(for: ["pro_monthly"]) }.value
        #expect(pro.first?.subscription?.subscriptionGroupID == "pro")
        #expect(pro.first?.type == .autoRenewable)
    }

    @Test func aStoreKitFileIsTheCatalog() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("scenarios/iapsim.storekit").path
        let catalog = try StoreCatalog(storekitFile: file)
        #expect(catalog.productIDs == StoreCatalog.standard.productIDs)
        let bad = root.appendingPathComponent("Package.swift").path
        #expect(throws: SimulatedStoreError.self) { try StoreCatalog(storekitFile: bad) }
        let store = try SimulatedStore(catalog: catalog)
        let app = await store.launch { TinyApp(listen: true) }
        let buy = await store.user { try await app.buy("coins_550") }
        await store.settle()
        guard case .success = try await buy.value else {
            Issue.record("the purchase did not succeed")
            return
        }
    }

    @Test func inTheBackgroundNewsWaitsForTheForeground() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { TinyApp(listen: true) }
        try await store.perform("interrupt-next-payment")
        let buy = await store.user { try await app.buy("coins_100") }
        await store.advance(by: .seconds(5))
        await store.background()
        await store.advance(by: .seconds(60))
        #expect(await app.got.isEmpty)
        await store.foreground()
        await store.settle()
        #expect(await app.got.count == 1)
        _ = try await buy.value
    }

    @Test func aPurchaseReturnsAVerifiedTransactionWithItsToken() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { TinyApp(listen: false) }
        let token = UUID()
        let buy = await store.user { try await app.buy("coins_100", token: token) }
        await store.settle()
        guard case .success(let v) = try await buy.value, case .verified(let t) = v else {
            Issue.record("not a verified success")
            return
        }
        #expect(t.productID == "coins_100" && t.productType == .consumable)
        #expect(t.appAccountToken == token)
        #expect(t.revocationDate == nil && t.expirationDate == nil && !t.isUpgraded)
        // Virtual 0 is 2026-01-01T00:00:00Z; the App Store charges 2 s after the call.
        #expect(Int64((t.purchaseDate.timeIntervalSince1970 * 1000).rounded()) == 1_767_225_602_000)
        #expect(v.jwsRepresentation.split(separator: ".").count == 3)
        #expect(t.ownershipType == .purchased && t.reason == .purchase && t.environment == .production)
        #expect(t.subscriptionGroupID == nil && t.offer == nil && t.revocationReason == nil)
        // Finished: no longer unfinished; a consumable is no entitlement; a finished one is not
        // in `all` nor `latest(for:)` (StoreKit keeps it out of the history).
        let lists = await store.user { () -> ([UInt64], [UInt64], UInt64?) in
            var unfinished: [UInt64] = []
            for await v in Transaction.unfinished { unfinished.append(v.unsafePayloadValue.id) }
            var entitled: [UInt64] = []
            for await v in Transaction.currentEntitlements { entitled.append(v.unsafePayloadValue.id) }
            return (unfinished, entitled, await Transaction.latest(for: "coins_100")?.unsafePayloadValue.id)
        }
        let (unfinished, entitled, latest) = try await lists.value
        #expect(unfinished.isEmpty && entitled.isEmpty && latest == nil)
    }

    @Test func onlyTheSimulatorsSignatureVerifies() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { TinyApp(listen: false) }
        let buy = await store.user { try await app.buy("no_ads") }
        await store.settle()
        guard case .success(let v) = try await buy.value, case .verified = v else {
            Issue.record("not a verified success")
            return
        }
        #expect(store.signing.failure(of: v.jwsRepresentation) == nil)
        var parts = v.jwsRepresentation.split(separator: ".").map(String.init)
        parts[1] = parts[1].replacingOccurrences(of: "A", with: "B")
        #expect(store.signing.failure(of: parts.joined(separator: ".")) == .invalidSignature)
        #expect(store.signing.failure(of: "not.a.jws") == .invalidEncoding)
        let entitled = try await store.user { () -> [String] in
            var ids: [String] = []
            for await v in Transaction.currentEntitlements { ids.append(try v.payloadValue.productID) }
            return ids
        }.value
        #expect(entitled == ["no_ads"])
    }

    @Test func anInterruptedPurchaseIsCancelledThenComesOnUpdates() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { TinyApp(listen: true) }
        try await store.perform("interrupt-next-payment")
        let buy = await store.user { try await app.buy("coins_100") }
        await store.settle()
        guard case .userCancelled = try await buy.value else {
            Issue.record("the purchase call did not return userCancelled")
            return
        }
        #expect(await app.got.count == 1)
    }

    @Test func aCrashEndsTheWaitingPurchaseCallAndTheNextLaunchGetsTheTransaction() async throws {
        let store = try SimulatedStore()
        let app = await store.launch { TinyApp(listen: true) }
        let buy = await store.user { try await app.buy("coins_100") }
        await store.advance(by: .seconds(1))
        await store.crash()
        await #expect(throws: CancellationError.self) { try await buy.value }
        await store.settle()
        let again = await store.launch { TinyApp(listen: true) }
        await store.settle()
        #expect(await again.got.count == 1)
        #expect(await app.got.isEmpty)
    }

    @Test func performReadsTheScenarioVocabularyAndRefusesWhatIsTheApps() async throws {
        let store = try SimulatedStore()
        await #expect(throws: SimulatedStoreError.buyIsTheAppsJob) { try await store.perform("buy coins_100") }
        await #expect(throws: SimulatedStoreError.noApp) { try await store.perform("launch") }
        do {
            try await store.perform("drop-next-response nowhere")
            Issue.record("an unknown route was accepted")
        } catch SimulatedStoreError.badCommand(let why) {
            #expect(why.contains("nowhere"))
        }
        _ = await store.launch { TinyApp(listen: false) }
        try await store.perform("wait 5s")
        #expect(store.now == .seconds(5))
        await #expect(throws: SimulatedStoreError.self) { try await store.perform("approve") }
    }

    @Test func theClockSleepsOnVirtualTime() async throws {
        let store = try SimulatedStore()
        _ = await store.launch { TinyApp(listen: false) }
        let clock = store.clock
        let slept = await store.user { () -> Duration in
            let start = clock.now
            try await clock.sleep(for: .seconds(90))
            return start.duration(to: clock.now)
        }
        await store.advance(by: .seconds(60))
        #expect(store.now == .seconds(60))
        await store.advance(by: .seconds(60))
        #expect(try await slept.value == .seconds(90))
        #expect(store.now == .seconds(120))
    }

    @Test func storageKeepsTheKeychainAndFilesAcrossACrashButNotMemory() async throws {
        let store = try SimulatedStore()
        _ = await store.launch { TinyApp(listen: false) }
        store.storage.set(Data([1]), for: "k")
        store.storage.set(Data([2]), for: "f", in: .files)
        store.storage.set(Data([3]), for: "m", in: .memory)
        await store.crash()
        #expect(store.storage.data("k") == Data([1]))
        #expect(store.storage.data("f", in: .files) == Data([2]))
        #expect(store.storage.data("m", in: .memory) == nil)
    }

    @Test func theAppsRequestsGoThroughTheSimulatedNetwork() async throws {
        let store = try SimulatedStore()
        let session = await store.launch { URLSession(configuration: store.urlSessionConfiguration) }
        func post(_ url: String, _ body: [String: String]) async -> Task<Int, Error> {
            await store.user {
                var r = URLRequest(url: URL(string: url)!)
                r.httpMethod = "POST"
                r.httpBody = try JSONSerialization.data(withJSONObject: body)
                let (_, response) = try await session.data(for: r)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
        }
        let order = await post("https://merchant.example.com/orders", ["user": "alice", "product": "coins_100"])
        await store.settle()
        #expect(try await order.value == 200)
        let elsewhere = await post("https://elsewhere.example.com/orders", ["user": "alice", "product": "coins_100"])
        await store.settle()
        await #expect(throws: URLError.self) { try await elsewhere.value }
        try await store.perform("network off")
        let offline = await post("https://merchant.example.com/orders", ["user": "alice", "product": "coins_100"])
        await store.settle()
        await expectFailure(offline, .notConnectedToInternet)
        try await store.perform("network on")
        try await store.perform("drop-next-request order")
        let dropped = await post("https://merchant.example.com/orders", ["user": "alice", "product": "coins_100"])
        await store.settle()
        await expectFailure(dropped, .timedOut)
        #expect(await store.verdict().lines.first == "== verdict")
    }
}
