import IAPSimCore

extension Fact {
    /// StoreKit 2 has no SKPaymentTransactionState: its own words for the same moments, as
    /// the screen, the transcript and a handout say them; nil where the core's text holds.
    package var storeKit2Words: String? {
        switch self {
        case .transactionUpdated(let txn, let p, .purchasing): return "\(txn) \(p): purchase() under way"
        case .transactionUpdated(let txn, let p, .deferred):
            return "\(txn) \(p): purchase() returned .pending (a parent must approve)"
        case .transactionUpdated(let txn, let p, .purchased):
            return "\(txn) \(p): purchased; a signed Transaction exists (verified)"
        default: return nil
        }
    }
}
