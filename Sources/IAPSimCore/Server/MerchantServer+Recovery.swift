extension MerchantServer {
    /// Whether the server will still credit `txn` by itself: it is verifying it now, or (with
    /// a server-side key on) the App Store is still delivering its ONE_TIME_CHARGE
    /// notification, or the reconciliation job will find it (the server knows a transaction
    /// of the customer to look up, and the charge's token names an open order). The
    /// server's own answer to the auditor's one question.
    func willStillCredit(_ txn: String, store: AppStore, policy: Policy) -> Bool {
        if isVerifying(txn) { return true }
        return policy.serverSide && willStillLearn(txn, store: store, policy: policy)
    }

    /// Kept apart from the cheap test above, which the explore hot path runs for every
    /// waiting charge.
    @inline(never)
    func willStillLearn(_ txn: String, store: AppStore, policy: Policy) -> Bool {
        if store.notificationPending(txn, .oneTimeCharge) { return true }
        guard policy.serverReconcileMs != nil, !credits.isEmpty || !toldOf.isEmpty,
            let token = store.transaction(txn)?.appAccountToken
        else { return false }
        return order(token: token)?.state == .created
    }
}
