extension AppProcess {
    /// Whether the app reads the receipt afresh at each send (`receipt: fresh`), so that a
    /// charge it holds no receipt of may still reach the server: the app's answer to the
    /// auditor, which reads no policy of the app's.
    func readsReceiptAtEachSend(policy: Policy) -> Bool { policy.receipt == .fresh }

    /// Whether the app starts its `Transaction.updates` listener late (StoreKit 2, on the
    /// store screen) and never sweeps the unfinished ones at launch: a purchase that reached
    /// no listener then waits for one that may never start. The app's answer to the verdict.
    func listensLate(policy: Policy) -> Bool {
        policy.storekit == .two && policy.observer == .storeScreen && !policy.sweepUnfinished
    }

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
            // An immediate retry counted for it may still be scheduled; a periodic one only
            // while its timer is armed (a live change to a policy with `retry-interval` arms
            // none for what an app without it holds: only its memory has it, and a relaunch
            // loses it).
            return waitingForLogin.contains(txn) || retriesUsed[txn] != nil
                || (periodicArmed && policy.retryIntervalMs != nil)
                || policy.resends(on: .network) || policy.resends(on: .purchase) || policy.resends(on: .login)
        }
        return false
    }

    static func holds(_ receipts: [PendingReceipt], _ txn: String) -> Bool {
        receipts.indices.contains { receipts[$0].txn == txn }
    }
}
