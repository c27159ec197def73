import Foundation
import IAPSimCore
import Testing

@testable import IAPSimStoreKit

/// Family Sharing in StoreKit's names: `Product.isFamilyShareable` from the catalog, and
/// `Transaction.ownershipType` from the payload's `inAppOwnershipType`.
@Suite struct FamilySharingStoreKitTests {
    @Test func theBuiltInSubscriptionsAreFamilyShareableAndTheOneTimeProductsAreNot() async throws {
        let store = try SimulatedStore(catalog: .standard)
        let products = try await store.user {
            try await Product.products(for: ["pro_monthly", "plus_monthly", "no_ads"])
        }.value
        let shareable = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0.isFamilyShareable) })
        #expect(shareable == ["pro_monthly": true, "plus_monthly": true, "no_ads": false])
    }

    @Test func aStoreKitFilesFamilyShareableSubscriptionSaysSo() async throws {
        let plain = try SimulatedStore(catalog: try dungeon())
        let before = try await plain.user { try await Product.products(for: ["pass_weekly"]).first }.value
        #expect(before?.isFamilyShareable == false)
        let shared = try SimulatedStore(
            catalog: try dungeon([("\"familyShareable\" : false", "\"familyShareable\" : true")]))
        let after = try await shared.user { try await Product.products(for: ["pass_weekly"]).first }.value
        #expect(after?.isFamilyShareable == true)
        // A subscription's sharing is honoured: only the one-time products' is named as not modelled.
        #expect(!shared.catalog.subscriptions.filter(\.familyShareable).isEmpty)
    }

    @Test func aFamilyMembersTransactionIsFamilySharedAndThePurchasersIsPurchased() {
        func signed(familyShared: Bool) -> SignedTransaction {
            SignedTransaction(
                transactionId: "1000000000002", originalTransactionId: "1000000000002", productId: "pro_monthly",
                type: .autoRenewable, purchaseDate: 2_160, originalPurchaseDate: 2_160, signedDate: 2_160, price: 4_990,
                appAccountToken: nil, signer: .appStore, revocationDate: familyShared ? 86_400_000 : nil,
                familyShared: familyShared)
        }
        let member = Transaction(signed(familyShared: true), jws: "")
        #expect(member.ownershipType == .familyShared && member.ownershipType.rawValue == "FAMILY_SHARED")
        #expect(member.appAccountToken == nil && member.revocationDate != nil)
        #expect(member.revocationReason?.rawValue == 0)
        #expect(Transaction(signed(familyShared: false), jws: "").ownershipType == .purchased)
    }
}
