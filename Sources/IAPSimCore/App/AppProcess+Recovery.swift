extension AppProcess {
    /// Whether the app will still send `txn` to the server by itself: a request of it is on
    /// its way, its work waits parked for the foreground, or it holds the receipt somewhere
    /// and a retry rule of `policy` will send it again. The app's own answer to the auditor's
    /// one question, so that its retry rules are written here only.
    func willStillSend(_ txn: String, policy: Policy) -> Bool {
        if hasRechargeInFlight(txn) { return true }
        // In the background the app's work waits, parked, for the foreground.
        if !parked.isEmpty { return true }
        let retries = policy.retryIntervalMs != nil || policy.resendsAtAll
        if Self.holds(files, txn) || Self.holds(keychain, txn) {
            return retries
        }
        if isRunning, Self.holds(memory, txn) {
            // An immediate retry counted for it may still be scheduled.
            return waitingForLogin.contains(txn) || retriesUsed[txn] != nil || policy.retryIntervalMs != nil
                || policy.resends(on: .network) || policy.resends(on: .purchase) || policy.resends(on: .login)
        }
        return false
    }

    static func holds(_ receipts: [PendingReceipt], _ txn: String) -> Bool {
        receipts.indices.contains { receipts[$0].txn == txn }
    }
}
