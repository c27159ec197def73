import Foundation
import IAPSimStoreKit
import PurchaseManager
import Testing

@Test func aPurchaseIsCreditedAndFinished() async throws {
    let (store, app) = try await launched()
    let buy = await store.user { try await app.buy("coins_100") }
    await store.settle()
    #expect(try await buy.value == .credited)
    let verdict = store.verdict()
    print(verdict)
    #expect(verdict.isClean)
    #expect(verdict.balances["alice"] == 100)
}
