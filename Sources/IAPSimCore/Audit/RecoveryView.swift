/// What the auditor may look at to decide whether something can still be made right:
/// the world's parts, borrowed for one look (never copied, never changed). The world hands
/// them over; it never asks the auditor anything back.
struct RecoveryView {
    /// True while something in the system can still credit `txn`. `storePosition`: where
    /// the transaction was found in the store's list last time (nil: not yet), updated.
    static func canStillCredit(
        _ txn: String, storePosition: inout Int?, store: AppStore, app: AppProcess,
        server: MerchantServer, policy: Policy
    ) -> Bool {
        // The cheap tests come first (the answer is the same).
        storeKeeps(txn, storePosition: &storePosition, store: store)
            || appOrServerCanStillCredit(txn, app: app, server: server, store: store, policy: policy)
    }

    /// `canStillCredit` past the App Store's list: the auditor asks the app and the server,
    /// one question each, whether they will still send or credit it.
    static func appOrServerCanStillCredit(
        _ txn: String, app: AppProcess, server: MerchantServer, store: AppStore, policy: Policy
    ) -> Bool {
        app.willStillSend(txn, policy: policy) || server.willStillCredit(txn, store: store, policy: policy)
    }

    /// The App Store's list still holds `txn` unfinished and purchased: StoreKit redelivers
    /// it, so something can still credit it, whatever the app and the server hold.
    ///
    /// This runs for every waiting charge at every event: a short list is scanned (cheap
    /// flags before the id); in a long one the transaction is where it was last time (the
    /// list only grows), else looked up by id (ids are unique). A scan would cost a hundred
    /// waiting charges 1e4 compares an event, and hashing each id still most of a long run's
    /// time.
    static func storeKeeps(_ txn: String, storePosition: inout Int?, store: AppStore) -> Bool {
        let transactions = store.transactions
        if transactions.count < KeyPositions<String>.threshold {
            if transactions.indices.contains(where: { i in
                !transactions[i].finished && transactions[i].state == .purchased && transactions[i].id == txn
            }) {
                return true
            }
        } else {
            if storePosition.map({ !transactions.indices.contains($0) || transactions[$0].id != txn }) ?? true {
                storePosition = store.index(of: txn)
            }
            if let i = storePosition, !transactions[i].finished, transactions[i].state == .purchased { return true }
        }
        return false
    }
}
