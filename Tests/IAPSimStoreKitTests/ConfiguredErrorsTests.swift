import Foundation
import Testing

@testable import IAPSimStoreKit

/// A team's `.storekit` with Xcode's StoreKit Errors switched on: each API the harness has
/// fails as StoreKit Test's `setSimulatedError(_:forAPI:)` makes it fail, with the error
/// the file chose (`current.type` and the case's `index`).
@Suite struct ConfiguredErrorsTests {
    /// `dungeon.storekit` with these `_storeKitErrors` entries enabled: (name, type, index).
    static func failing(_ entries: [(String, String, Int)]) throws -> StoreCatalog {
        let json = entries.map { name, type, index in
            #"{ "current" : { "index" : \#(index), "type" : "\#(type)" }, "enabled" : true, "name" : "\#(name)" },"#
        }.joined()
        return try dungeon([(#""_storeKitErrors" : ["#, #""_storeKitErrors" : ["# + json)])
    }

    @Test func loadProductsThrowsTheChosenStoreKitError() async throws {
        let store = try SimulatedStore(catalog: try Self.failing([("Load Products", "generic", 5)]))
        let thrown = try await store.user { () -> String in
            do {
                _ = try await Product.products(for: ["gems_small"])
                return "no error"
            } catch let error as StoreKitError {
                return "\(error)"
            }
        }.value
        #expect(thrown == "notEntitled")
    }

    @Test func aPurchaseThrowsTheChosenPurchaseError() async throws {
        let store = try SimulatedStore(catalog: try Self.failing([("Purchase", "purchase", 2)]))
        _ = await store.launch { ListeningApp() }
        let task = await store.user { () -> String in
            let product = try #require(try await Product.products(for: ["gems_small"]).first)
            do {
                _ = try await product.purchase()
                return "no error"
            } catch let error as Product.PurchaseError {
                return "\(error)"
            }
        }
        await store.settle()
        #expect(try await task.value == "purchaseNotAllowed")
    }

    @Test func verificationReturnsUnverifiedWithTheChosenError() async throws {
        let store = try SimulatedStore(catalog: try Self.failing([("Verification", "verification", 4)]))
        _ = await store.launch { ListeningApp() }
        let task = await store.user { () -> String in
            let product = try #require(try await Product.products(for: ["gems_small"]).first)
            guard case .success(let v) = try await product.purchase() else { return "not bought" }
            guard case .unverified(_, let error) = v else { return "verified" }
            return "\(error)"
        }
        await store.settle()
        #expect(try await task.value == "invalidSignature")
    }

    @Test func syncStatusAndAppTransactionFailAsChosen() async throws {
        let store = try SimulatedStore(
            catalog: try Self.failing([
                ("App Store Sync", "generic", 2), ("Subscription Status", "generic", 3),
                ("App Transaction", "verification", 0),
            ]))
        _ = await store.launch { ListeningApp() }
        let got = try await store.user { () -> [String] in
            var got: [String] = []
            do { try await AppStore.sync() } catch let e as StoreKitError { got.append("sync \(e)") }
            let pass = try #require(try await Product.products(for: ["pass_weekly"]).first?.subscription)
            do { _ = try await pass.status } catch let e as StoreKitError { got.append("status \(e)") }
            if case .unverified(_, let e) = try await AppTransaction.shared { got.append("app \(e)") }
            return got
        }.value
        #expect(got.count == 3, "\(got)")
        #expect(got.first?.hasPrefix("sync networkError") == true, "\(got)")
        #expect(got.dropFirst().first?.hasPrefix("status systemError") == true, "\(got)")
        #expect(got.last == "app revokedCertificate", "\(got)")
    }

    /// Switched off (the file as shipped), nothing fails.
    @Test func disabledEntriesFailNothing() async throws {
        let store = try SimulatedStore(catalog: try dungeon())
        _ = await store.launch { ListeningApp() }
        let got = try await store.user { () -> Int in
            try await AppStore.sync()
            return try await Product.products(for: ["gems_small", "pass_weekly"]).count
        }.value
        #expect(got == 2)
    }
}
