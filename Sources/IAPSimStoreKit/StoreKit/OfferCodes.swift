import Foundation
import IAPSimCore

extension AppStore {
    /// Shows the App Store's offer code redemption sheet (StoreKit's
    /// `presentOfferCodeRedeemSheet(in:)`, a `UIWindowScene` on a device). In the simulated
    /// world the customer types the code the test set with
    /// `SimulatedStore.customerEntersOfferCode(_:)` (none: the customer closes the sheet). As
    /// on a device, the redeemed transaction does not come back to this call: it comes on
    /// `Transaction.updates`. Throws `StoreKitError.notEntitled` while nobody is logged in, and
    /// the file's `_storeKitErrors` Offer Code Redeem Sheet error.
    public static func presentOfferCodeRedeemSheet(in scene: some Any) async throws {
        guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
        guard store.noteCall() else { throw CancellationError() }
        if let configured = store.configuredError(.offerCodeRedeem) { throw configured }
        let notEntitled: Bool = store.locked {
            guard store.sim.app.loggedIn != nil else { return true }
            if let code = store.enteredOfferCode {
                store.enteredOfferCode = nil
                _ = store.sim.drivenRedeemCode(code)
            }
            return false
        }
        if notEntitled { throw StoreKitError.notEntitled }
    }
}

extension SimulatedStore {
    /// The code the customer types into the next offer code redemption sheet your app shows
    /// (`AppStore.presentOfferCodeRedeemSheet(in:)`).
    public func customerEntersOfferCode(_ code: String) {
        locked { enteredOfferCode = code }
    }

    /// The customer redeems `code` outside your app (in the App Store app, or through a
    /// redemption link), at the current virtual time: the transaction, if the App Store
    /// charges one, comes on `Transaction.updates`. Returns why the App Store refused the code,
    /// nil when it accepted it.
    @discardableResult
    public func redeemOfferCodeOutsideApp(_ code: String) -> String? {
        locked { sim.drivenRedeemCode(code)?.words }
    }
}
