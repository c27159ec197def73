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
            || appOrServerCanStillCredit(txn, app: app, server: server, policy: policy)
    }

    /// `canStillCredit` past the App Store's list: the app's requests and saved receipts,
    /// the server's verifications.
    static func appOrServerCanStillCredit(
        _ txn: String, app: AppProcess, server: MerchantServer, policy: Policy
    ) -> Bool {
        if app.hasRechargeInFlight(txn) || server.isVerifying(txn) { return true }
        // In the background the app's work waits, parked, for the foreground.
        if !app.parked.isEmpty { return true }
        let retries = policy.retryIntervalMs != nil || policy.resendsAtAll
        if holds(app.files, txn) || holds(app.keychain, txn) {
            return retries
        }
        if app.isRunning, holds(app.memory, txn) {
            // An immediate retry counted for it may still be scheduled.
            return app.waitingForLogin.contains(txn) || app.retriesUsed[txn] != nil || policy.retryIntervalMs != nil
                || policy.resends(on: .network) || policy.resends(on: .purchase) || policy.resends(on: .login)
        }
        return false
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

    /// The App Store can still tell the server of the charge: its ONE_TIME_CHARGE
    /// notification is being delivered, or a reconciliation will find it (the server knows
    /// a transaction of the customer to look up, and the charge's token names an open order).
    /// Asked by the auditor only when a server-side key is on, and kept out of
    /// `canStillCredit`, which the explore hot path runs for every waiting charge.
    @inline(never)
    static func serverCanStillLearn(_ txn: String, store: AppStore, server: MerchantServer, policy: Policy) -> Bool {
        if store.notificationPending(txn, .oneTimeCharge) { return true }
        guard policy.serverReconcileMs != nil, !server.credits.isEmpty || !server.toldOf.isEmpty,
            let token = store.transaction(txn)?.appAccountToken
        else { return false }
        return server.order(token: token)?.state == .created
    }

    static func holds(_ receipts: [PendingReceipt], _ txn: String) -> Bool {
        receipts.indices.contains { receipts[$0].txn == txn }
    }
}
