/// What the App Store Server API lookalike (IAPSimServe) reads from the App Store
/// (docs/server-api.md). Read-only: the API never
/// changes the world.
extension AppStore {
    /// The transactions Apple's history lists: every charged one (purchased or restored,
    /// refunded ones included), oldest first.
    package var chargedTransactions: [StoreTransaction] {
        transactions.filter { $0.chargedAt != nil && ($0.state == .purchased || $0.state == .restored) }
    }

    /// The transaction as the App Store signs it at `now` (Get Transaction Info, history).
    package func signedForAPI(_ t: StoreTransaction, now: VirtualTime) -> SignedTransaction? { sign(t, now: now) }

    /// The Apple order id of a charge (the customer's receipt email; Look Up Order ID):
    /// `M` and 9 digits, from the transaction's number, so the same in every replay.
    package static func appleOrderId(of transactionId: String) -> String {
        let digits = String(transactionId.suffix(9))
        return "M" + String(repeating: "0", count: 9 - digits.count) + digits
    }
}
