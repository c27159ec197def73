/// The merchant server's side of docs/world.md, "The server side": App Store Server Notifications V2,
/// reconciliation with Get Transaction History, refunds taken back, coins spent.
extension MerchantServer {
    /// Coins spent and clawed back, oldest first: a balance is credits minus these.
    var debits: [Debit] {
        get { sideRecords?.debits ?? [] }
        set { recordSide { $0.debits = newValue } }
    }
    /// Refunded transactions the server has heard of (a notification, reconciliation).
    var refundsHeard: [String] {
        get { sideRecords?.refundsHeard ?? [] }
        set { recordSide { $0.refundsHeard = newValue } }
    }
    /// Transaction ids the App Store told the server about: what reconciliation looks up.
    var toldOf: [String] { sideRecords?.toldOf ?? [] }
    /// Get Transaction History requests waiting for the answer, by exchange.
    var historyLookups: [HistoryLookup] {
        get { sideRecords?.historyLookups ?? [] }
        set { recordSide { $0.historyLookups = newValue } }
    }

    /// Changes the records in place (taken out first, so that the change copies nothing).
    mutating func recordSide(_ change: (inout ServerSideRecords) -> Void) {
        var records = sideRecords ?? ServerSideRecords()
        sideRecords = nil
        change(&records)
        sideRecords = records
    }

    /// A notification V2 reached the server (which is up): 200, then its handling.
    mutating func receiveNotification(
        _ n: ServerNotification, exchange: Int, catalog: Catalog,
        _ out: inout Outbox
    ) {
        let txn = n.transaction.transactionId
        out.log(.server, .notificationReceived(uuid: n.uuid, type: n.type, txn: txn, attempt: n.attempt))
        out.send(.notify, .response, .app, exchange: exchange, .notificationResponse(status: 200))
        // In place: appending to `toldOf` (a copy of the records' array) copied it, and the
        // search was a walk of it: both grew with the run (O(n^2) of a long StoreKit 2 run).
        recordSide { $0.tell(txn) }
        if n.transaction.subscription != nil {
            if n.type == .consumptionRequest { return answerConsumption(n.transaction, &out) }
            return receiveSubscriptionNotification(n, &out)
        }
        switch n.type {
        case .oneTimeCharge: creditFromAppStore(n.transaction, via: .notification, catalog: catalog, &out)
        case .refund:
            guard !staleRefundNews(n.transaction, "REFUND", &out) else { return }
            heardRefund(n.transaction, catalog: catalog, &out)
        case .consumptionRequest: answerConsumption(n.transaction, &out)
        case .refundDeclined:
            out.log(.server, .noted("REFUND_DECLINED for \(txn): nothing was refunded, nothing changes"))
        case .refundReversed:
            guard !staleRefundNews(n.transaction, "REFUND_REVERSED", &out) else { return }
            // A retry is signed anew: its transaction may carry a refund made since, which is
            // the newest signed share the server sets what it took back to.
            if let share = n.transaction.revocationPercentage, refundsHeard.contains(txn) {
                heardRefundAgain(txn, percent: share / 1_000, catalog: catalog, &out)
            } else {
                heardReversal(txn, &out)
            }
        case .subscribed, .didRenew, .didFailToRenew, .gracePeriodExpired, .expired, .didChangeRenewalStatus,
            .didChangeRenewalPref, .offerRedeemed, .priceIncrease, .revoke:
            break
        }
    }

    /// The App Store told the server of a charge (a notification, the history): it credits
    /// it under the same rules as a recharge, to the order its appAccountToken names; never
    /// to an account guessed otherwise (docs/world.md, "The server side").
    mutating func creditFromAppStore(
        _ signed: SignedTransaction, via: SendReason, catalog: Catalog,
        _ out: inout Outbox
    ) {
        let txn = signed.transactionId
        guard let token = signed.appAccountToken else {
            return out.log(.server, .notificationUnbound(txn: txn, reason: "no appAccountToken names its order"))
        }
        guard let order = order(token: token) else {
            return out.log(.server, .notificationUnbound(txn: txn, reason: "no order carries its appAccountToken"))
        }
        let request = RechargeRequest(
            transactionId: txn, productId: signed.productId, uid: order.user,
            orderId: nil, orderToken: token, receipt: nil, reason: via, signed: signed)
        let p = PendingVerification(request: request, appExchange: 0, sender: .app, replies: false)
        decide(p, receipt: Receipt(serial: 0, entries: [signed.entry], signature: 0), catalog: catalog, &out)
    }

    /// Whether the coins of `txn` were taken back.
    func isClawedBack(_ txn: String) -> Bool { debits.contains { $0.clawedBackFor == txn } }

    /// `spend USER COINS` (the command refuses it when the balance is short).
    mutating func spend(_ user: String, _ coins: Int, _ out: inout Outbox) {
        debit(user, coins, for: nil, out.now)
        out.log(.server, .coinsSpent(user: user, coins: coins, balance: balance(of: user)))
    }

    mutating func debit(_ user: String, _ coins: Int, for txn: String?, _ now: VirtualTime) {
        if let i = balances.firstIndex(where: { $0.user == user }) {
            balances[i].coins -= coins
        } else {
            balances.append((user, -coins))
        }
        debits.append(Debit(user: user, coins: coins, clawedBackFor: txn, at: now))
    }

    /// Coins `user` spent.
    package func spent(by user: String) -> Int {
        debits.reduce(0) { $1.user == user && $1.clawedBackFor == nil ? $0 + $1.coins : $0 }
    }

    // MARK: reconciliation

    /// The reconciliation job: Get Transaction History for a transaction id the server
    /// knows. History is per Apple customer, so one id lists them all; a customer whose
    /// first purchase never reached the server cannot be looked up.
    mutating func reconcile(_ out: inout Outbox) {
        // Get Transaction History accepts an appTransactionId too (API 1.15, 2025): a
        // customer whose first purchase never reached the server can be looked up by it.
        guard let lookup = creditedTransactionIds.first ?? toldOf.first ?? appTransactions.first?.id else {
            return out.log(.server, .reconcileSkipped(reason: "the server knows no transaction id to look up"))
        }
        let exchange = out.newExchange()
        historyLookups.append(HistoryLookup(exchange: exchange, txn: lookup))
        out.send(.serverAPI, .request, .app, exchange: exchange, .historyRequest(txn: lookup))
    }

    /// The App Store Server API answered an error: the lookup is over; the next tick tries again.
    mutating func apiCallFailed(exchange: Int, status: Int, code: Int, _ out: inout Outbox) {
        if let k = historyLookups.firstIndex(where: { $0.exchange == exchange }) { historyLookups.remove(at: k) }
        out.log(
            .server, .noted("the App Store Server API answered HTTP \(status) (\(code)): nothing learned this time"))
    }

    /// The history arrived: credit the charges never credited, hear the refunds never heard.
    mutating func historyAnswered(
        exchange: Int, _ list: [SignedTransaction], catalog: Catalog,
        _ out: inout Outbox
    ) {
        guard let k = historyLookups.firstIndex(where: { $0.exchange == exchange }) else { return }
        let lookup = historyLookups.remove(at: k)
        out.log(.server, .historyChecked(lookup: lookup.txn, transactions: list.count))
        if out.policy.serverHistoryPages == .first && list.count >= AppStore.historyPageSize {
            out.log(
                .server,
                .noted(
                    "only the first page (\(AppStore.historyPageSize) transactions, oldest first) was read: hasMore is not followed"
                ))
        }
        for signed in list {
            let txn = signed.transactionId
            if signed.subscription != nil {
                if signed.revocationDate != nil {
                    hear(
                        signed, .notification(.refund, nil), renewal: nil, user: nil, signedAt: signed.signedDate, &out)
                }
                continue
            }
            if signed.revocationDate != nil {
                guard !staleRefundNews(signed, "the history's refund", &out) else { continue }
                heardRefund(signed, catalog: catalog, &out)
            } else if refundsHeard.contains(txn) {
                guard !staleRefundNews(signed, "the history's reversal", &out) else { continue }
                if out.policy.serverRefundReversed == .restore { heardReversal(txn, &out) }
            } else if !isCredited(txn) {
                creditFromAppStore(signed, via: .reconciliation, catalog: catalog, &out)
            }
        }
    }

    /// Whether a reconciliation would change anything now: a charge not credited whose
    /// token names an open order, or (with `server-clawback`) a refund not taken back. The
    /// engine wakes the job only then (a tick that finds nothing changes nothing).
    func reconciliationHasWork(_ store: AppStore, policy: Policy) -> Bool {
        guard !credits.isEmpty || !toldOf.isEmpty || !appTransactions.isEmpty else { return false }
        // Asked after every event that moved the store: the history is read in place (no
        // list built). With no refund in effect (the store counts them), none heard and no
        // order open, no transaction has work. In a long history a charge's token is compared
        // with the open orders' before its credit is looked up: hashing every transaction's
        // id at every event cost a 5,000-purchase run a quarter of it.
        let anyOpenOrder = orders.indices.contains { orders[$0].state == .created }
        assert(store.refundsInEffect == store.transactions.count { $0.refundedAt != nil }, "refunds miscounted")
        if !anyOpenOrder && refundsHeard.isEmpty && store.refundsInEffect == 0 { return false }
        let openTokens: [String]? =
            anyOpenOrder && store.transactions.count >= KeyPositions<String>.threshold
            ? orders.indices.compactMap { orders[$0].state == .created ? orders[$0].token : nil } : nil
        func work(_ t: StoreTransaction) -> Bool {
            guard t.chargedAt != nil, t.originalId == nil else { return false }
            if t.refundedAt != nil {
                guard isCredited(t.id) else { return false }
                return !refundsHeard.contains(t.id)
                    || owesRefund(t.id, percent: t.refundPercent, rule: policy.serverClawback, catalog: store.catalog)
                    || owesRestore(t.id, percent: t.refundPercent, policy: policy)
            }
            if !refundsHeard.isEmpty, refundsHeard.contains(t.id) { return policy.serverRefundReversed == .restore }
            guard anyOpenOrder, let token = t.appAccountToken else { return false }
            if let openTokens, !openTokens.contains(token) { return false }
            guard !isCredited(t.id) else { return false }
            return order(token: token)?.state == .created
        }
        if policy.serverHistoryPages == .first { return store.historyList(policy).list.contains(where: work) }
        // Read in place (a loop over the elements copied each one), the cheap test first:
        // both are pure, so the answer is the same.
        let transactions = store.transactions
        func hasWork(_ i: Int) -> Bool { work(transactions[i]) && store.inHistory(transactions[i], policy) }
        if let openTokens, store.refundsInEffect == 0, refundsHeard.isEmpty,
            let found = store.positions(withTokens: openTokens)
        {
            // Only an open order's charge can have work: the transactions that carry its token
            // are looked up, not every one (a long history was read at every event).
            let answer = found.contains(where: hasWork)
            assert(answer == transactions.indices.contains(where: hasWork))
            return answer
        }
        return transactions.indices.contains(where: hasWork)
    }
}
