/// The merchant server's side of the refund loop and of `appTransactionId`: what it takes
/// back on a refund (`server-clawback`), gives back on a reversal (`server-refund-reversed`),
/// answers to a consumption request (`server-consumption-answer`), and the customers it can
/// look up by the `appTransactionId` the app reported (`report-app-transaction`).
extension MerchantServer {
    /// `appTransactionId`s reported at login, with the account that reported each.
    var appTransactions: [(user: String, id: String)] {
        get { sideRecords?.appTransactions ?? [] }
        set { recordSide { $0.appTransactions = newValue } }
    }

    /// The app reported its customer's `appTransactionId`: kept, answered 200.
    mutating func appTransactionReported(user: String, id: String, exchange: Int, _ out: inout Outbox) {
        if !appTransactions.contains(where: { $0.user == user && $0.id == id }) {
            appTransactions.append((user, id))
            out.log(.server, .noted("appTransactionId \(id) of \(user) kept: Get Transaction History can look it up"))
        }
        out.send(.order, .response, .app, exchange: exchange, .notificationResponse(status: 200))
    }

    /// `server-refund-order signed-date`: true (and said) when `signed`, news of a refund or
    /// its reversal, was signed before the newest such news the server applied for its
    /// transaction (a `REFUND` delayed past the reversal or a later prorated refund); else it
    /// is the newest, and noted as such. Under `arrival`, never.
    mutating func staleRefundNews(_ signed: SignedTransaction, _ words: String, _ out: inout Outbox) -> Bool {
        guard out.policy.serverRefundOrder == .signedDate else { return false }
        let txn = signed.transactionId
        let newest = sideRecords?.refundNewsSigned[txn]
        if let newest, signed.signedDate < newest {
            out.log(
                .server,
                .noted(
                    "\(words) for \(txn) ignored: signed \(DurationText.clock(signed.signedDate)), before the newest"
                        + " refund news applied (\(DurationText.clock(newest)))"))
            return true
        }
        recordSide { $0.refundNewsSigned[txn] = signed.signedDate }
        return false
    }

    /// A refund the server heard of (a notification, the history): `server-clawback` says
    /// what goes back: nothing, every coin credited, or the refunded share of them (rounded
    /// down; an entitlement only when all was refunded). A balance may go negative: debt.
    /// A refund of a transaction it heard of before (refunded again after a reversal it never
    /// heard, or a larger share) takes back what the new share owes beyond what was taken.
    mutating func heardRefund(_ signed: SignedTransaction, catalog: Catalog, _ out: inout Outbox) {
        let txn = signed.transactionId
        let percent = (signed.revocationPercentage ?? 100_000) / 1_000
        guard !refundsHeard.contains(txn) else {
            return heardRefundAgain(txn, percent: percent, catalog: catalog, &out)
        }
        refundsHeard.append(txn)
        let credited = credits.filter { $0.transactionId == txn }
        if credited.isEmpty { return out.log(.server, .refundHeard(txn: txn, outcome: "nothing was credited for it")) }
        switch out.policy.serverClawback {
        case .off:
            return out.log(.server, .refundHeard(txn: txn, outcome: "the coins are kept (server-clawback off)"))
        case .full:
            for c in credited { clawBack(c, coins: c.coins, entitlement: true, &out) }
        case .refundedShare:
            for c in credited {
                let share = c.coins * percent / 100
                if c.coins == 0 && percent < 100 || c.coins > 0 && share == 0 {
                    out.log(
                        .server,
                        .refundHeard(
                            txn: txn, outcome: "\(percent)% refunded: its share rounds down to nothing to take back"))
                    continue
                }
                clawBack(c, coins: share, entitlement: percent == 100, &out)
            }
        }
    }

    /// What credit `c` has taken back under a refund of `percent` (0: none in effect) and
    /// `rule`, by the newest signed share (docs/world.md, "Refunds"): coins (the share,
    /// rounded down: a whole unit cannot be split), and whether the unlock it granted (an
    /// entitlement: no coins).
    static func shareOwed(_ c: CreditEntry, percent: Int, rule: ClawbackRule) -> (coins: Int, unlock: Bool) {
        guard percent > 0 else { return (0, false) }
        switch rule {
        case .off: return (0, false)
        case .full: return (c.coins, c.coins == 0)
        case .refundedShare: return (c.coins * percent / 100, c.coins == 0 && percent == 100)
        }
    }

    /// What the server has taken back of credit `c` and not given back: coins, and whether
    /// the unlock (a clawback of an entitlement is a debit of no coins).
    func takenBack(_ c: CreditEntry) -> (coins: Int, unlock: Bool) {
        var coins = 0
        var any = false
        for d in debits where d.clawedBackFor == c.transactionId && d.user == c.user {
            coins += d.coins
            any = true
        }
        return (coins, c.coins == 0 && any)
    }

    /// Whether `txn`, refunded by `percent` now, still owes coins (or an unlock) the server
    /// has not taken back: an unlock only while its account still holds it.
    func owesRefund(_ txn: String, percent: Int, rule: ClawbackRule, catalog: Catalog) -> Bool {
        credits.contains { c in
            guard c.transactionId == txn else { return false }
            let (owed, taken) = (Self.shareOwed(c, percent: percent, rule: rule), takenBack(c))
            if c.coins == 0 { return owed.unlock && !taken.unlock && holdsUnlock(c, catalog) }
            return owed.coins > taken.coins
        }
    }

    /// Whether the account of credit `c` (an unlock: no coins) still holds what it granted:
    /// a non-consumable while its entitlement is listed (another purchase's refund may have
    /// taken it); anything else sold as an unlock (a non-renewing pass) until taken back.
    func holdsUnlock(_ c: CreditEntry, _ catalog: Catalog) -> Bool {
        catalog.kind(of: c.productId) != .nonConsumable
            || entitlements.contains(where: { $0.user == c.user && $0.product == c.productId })
    }

    /// Whether the server took back more of `txn` than the newest share it knows of asks
    /// (`percent`; 0 once the refund is reversed) and gives the difference back when it
    /// hears so: only a server that gives back (`server-refund-reversed restore`).
    func owesRestore(_ txn: String, percent: Int, policy: Policy) -> Bool {
        guard policy.serverRefundReversed == .restore, policy.serverClawback != .off else { return false }
        return credits.contains { c in
            guard c.transactionId == txn else { return false }
            let (owed, taken) = (Self.shareOwed(c, percent: percent, rule: policy.serverClawback), takenBack(c))
            return c.coins == 0 ? taken.unlock && !owed.unlock : taken.coins > owed.coins
        }
    }

    /// A refund of a transaction heard refunded before (refunded again after a reversal it
    /// never heard, a larger share, or a smaller one after a reversal it did not apply): what
    /// it has taken back is set to the newest signed share, taking or (with
    /// `server-refund-reversed restore`) giving back the difference (docs/world.md, "Refunds").
    mutating func heardRefundAgain(_ txn: String, percent: Int, catalog: Catalog, _ out: inout Outbox) {
        let rule = out.policy.serverClawback
        let restores = out.policy.serverRefundReversed == .restore
        for c in credits where c.transactionId == txn {
            let (owed, taken) = (Self.shareOwed(c, percent: percent, rule: rule), takenBack(c))
            if c.coins == 0 {
                if owed.unlock && !taken.unlock && holdsUnlock(c, catalog) {
                    clawBack(c, coins: 0, entitlement: true, &out)
                } else if restores && taken.unlock && !owed.unlock {
                    giveBack(c, coins: 0, share: percent, &out)
                }
            } else if owed.coins > taken.coins {
                clawBack(c, coins: owed.coins - taken.coins, entitlement: percent == 100, &out)
            } else if restores && owed.coins < taken.coins {
                giveBack(c, coins: taken.coins - owed.coins, share: percent, &out)
            }
        }
    }

    /// Gives back `coins` (or the unlock: 0 coins) of what was taken from credit `c`, the
    /// newest clawbacks first: the newest share (`share` percent) asks for less.
    mutating func giveBack(_ c: CreditEntry, coins: Int, share: Int, _ out: inout Outbox) {
        out.log(
            .server,
            .refundHeard(
                txn: c.transactionId,
                outcome: "\(share)% refunded now: what was taken back beyond that share is given back"))
        recordSide { records in
            // The newest clawbacks of this credit first; an unlock's is one debit of no coins.
            var left = coins
            for k in records.debits.indices.reversed()
            where records.debits[k].clawedBackFor == c.transactionId && records.debits[k].user == c.user {
                guard c.coins > 0 else {
                    records.debits.remove(at: k)
                    break
                }
                let part = min(left, records.debits[k].coins)
                records.debits[k].coins -= part
                left -= part
                if records.debits[k].coins == 0 { records.debits.remove(at: k) }
                if left == 0 { break }
            }
        }
        if let i = balances.firstIndex(where: { $0.user == c.user }) { balances[i].coins += coins }
        if c.coins == 0, !entitlements.contains(where: { $0 == (c.user, c.productId) }) {
            entitlements.append((c.user, c.productId))
        }
        out.log(
            .server, .coinsRestored(user: c.user, coins: coins, txn: c.transactionId, balance: balance(of: c.user)))
    }

    /// The server's answer to the auditor's question about refunded `txn`: why nothing it will
    /// still do takes the coins back, or nil while something will (a REFUND notification
    /// still being delivered, or its reconciliation, which reads the refund in the history).
    func refundBeyondReach(_ txn: String, store: AppStore, policy: Policy) -> String? {
        let percent = store.transaction(txn)?.refundPercent ?? 100
        if refundsHeard.contains(txn),
            !owesRefund(txn, percent: percent, rule: policy.serverClawback, catalog: store.catalog)
        {
            return policy.serverClawback == .off ? AnomalyWording.coinsKept : AnomalyWording.shareRoundsToNothing
        }
        guard store.notificationPending(txn, .refund) || reconciliationReads(txn, store: store, policy: policy) else {
            return policy.serverReconcileMs == nil ? AnomalyWording.refundNeverTold : AnomalyWording.historyLeavesOut
        }
        return policy.serverClawback == .off ? AnomalyWording.coinsKept : nil
    }

    /// Whether the reconciliation job will read `txn` in Get Transaction History: the job
    /// runs (`server-reconcile`) and the history it reads lists it (`server-history v1`
    /// leaves out finished consumables; a job that reads one page, the 21st transaction on).
    /// Walkthrough 7, M3: the auditor said "the server hears of the refund" of a consumable
    /// a v1 history never lists.
    func reconciliationReads(_ txn: String, store: AppStore, policy: Policy) -> Bool {
        guard policy.serverReconcileMs != nil, let t = store.transaction(txn), store.inHistory(t, policy) else {
            return false
        }
        return policy.serverHistoryPages != .first || store.historyList(policy).list.contains { $0.id == txn }
    }

    /// The server's answer to the auditor: whether it will still hear that Apple reversed the
    /// refund of `txn` (a `REFUND_REVERSED` still being delivered, or its reconciliation,
    /// which reads the transaction unrevoked in the history).
    func willStillHearReversal(_ txn: String, store: AppStore, policy: Policy) -> Bool {
        store.notificationPending(txn, .refundReversed) || reconciliationReads(txn, store: store, policy: policy)
    }

    /// The server's answer to the auditor: whether something still scheduled sets what it
    /// took back of `txn` down to the share Apple's state asks (a `REFUND` or
    /// `REFUND_REVERSED` of it still being delivered that it will apply, or its
    /// reconciliation), so that a clawback beyond the share is `open`, not `permanent`.
    func willStillLowerClawback(_ txn: String, store: AppStore, policy: Policy) -> Bool {
        guard let t = store.transaction(txn) else { return false }
        guard owesRestore(txn, percent: t.refundedAt == nil ? 0 : t.refundPercent, policy: policy) else { return false }
        if reconciliationReads(txn, store: store, policy: policy) { return true }
        let newest = policy.serverRefundOrder == .signedDate ? sideRecords?.refundNewsSigned[txn] : nil
        return store.pendingNotifications.contains { n in
            n.transaction.transactionId == txn && (n.type == .refund || n.type == .refundReversed)
                && n.transaction.signedDate >= (newest ?? 0)
        }
    }

    /// Whether hearing a reversal gives back what it took (`server-refund-reversed restore`).
    func restoresOnReversal(policy: Policy) -> Bool { policy.serverRefundReversed == .restore }

    /// Why what it took beyond a refund's share stays taken: its clawback rule, in words.
    func clawbackBeyondShare(policy: Policy) -> String { AnomalyWording.beyondShare(policy.serverClawback) }

    /// Takes `coins` of one credit back, and the entitlement it granted when `entitlement`.
    mutating func clawBack(_ c: CreditEntry, coins: Int, entitlement: Bool, _ out: inout Outbox) {
        debit(c.user, coins, for: c.transactionId, out.now)
        if entitlement { entitlements.removeAll { $0.user == c.user && $0.product == c.productId } }
        out.log(
            .server, .coinsClawedBack(user: c.user, coins: coins, txn: c.transactionId, balance: balance(of: c.user)))
    }

    /// Apple reversed a refund (`REFUND_REVERSED`, or the history shows it unrevoked): with
    /// `server-refund-reversed restore` the clawed-back coins (and entitlement) come back.
    mutating func heardReversal(_ txn: String, _ out: inout Outbox) {
        guard let k = refundsHeard.firstIndex(of: txn) else {
            return out.log(.server, .reversalHeard(txn: txn, outcome: "no refund of it was heard"))
        }
        guard out.policy.serverRefundReversed == .restore else {
            // Ignored: the server still counts the refund as heard (a later REFUND of the same
            // transaction is not taken back twice).
            return out.log(
                .server,
                .reversalHeard(txn: txn, outcome: "ignored: what was taken stays taken (server-refund-reversed ignore)")
            )
        }
        refundsHeard.remove(at: k)
        let taken = debits.filter { $0.clawedBackFor == txn }
        if taken.isEmpty { return out.log(.server, .reversalHeard(txn: txn, outcome: "nothing had been taken back")) }
        out.log(.server, .reversalHeard(txn: txn, outcome: "what was taken back is restored"))
        debits.removeAll { $0.clawedBackFor == txn }
        for d in taken {
            if let i = balances.firstIndex(where: { $0.user == d.user }) { balances[i].coins += d.coins }
            for c in credits where c.transactionId == txn && c.user == d.user && c.coins == 0 {
                if !entitlements.contains(where: { $0 == (d.user, c.productId) }) {
                    entitlements.append((d.user, c.productId))
                }
            }
            out.log(.server, .coinsRestored(user: d.user, coins: d.coins, txn: txn, balance: balance(of: d.user)))
        }
    }

    /// `CONSUMPTION_REQUEST`: with `server-consumption-answer`, Send Consumption Information
    /// (route `server-api`) from the server's own records, complete as Apple requires it
    /// (`customerConsented`, `sampleContentProvided`, `deliveryStatus`): delivered when it
    /// credited the transaction (for a subscription: granted access); it prefers a prorated
    /// refund when coins of it were spent, with the spent share as `consumptionPercentage`
    /// (for a subscription always prorated, without a percentage: Apple computes it), else a
    /// full one.
    mutating func answerConsumption(_ signed: SignedTransaction, _ out: inout Outbox) {
        let txn = signed.transactionId
        guard out.policy.serverConsumptionAnswer else {
            return out.log(
                .server,
                .noted("CONSUMPTION_REQUEST for \(txn) left unanswered (server-consumption-answer false)")
            )
        }
        let info = consumptionInfo(signed)
        out.log(
            .server, .noted("CONSUMPTION_REQUEST for \(txn) answered with Send Consumption Information: \(info.words)"))
        out.send(.serverAPI, .request, .app, exchange: out.newExchange(), .consumptionInfo(info))
    }

    /// The consumption information the server's records give for `txn`.
    func consumptionInfo(_ signed: SignedTransaction) -> ConsumptionInfo {
        let txn = signed.transactionId
        if signed.subscription != nil {
            let access = subscriberAccess.first { $0.originalTransactionId == signed.originalTransactionId }
            return ConsumptionInfo(
                txn: txn,
                deliveryStatus: access.map { $0.revoked ? "UNDELIVERED_OTHER" : "DELIVERED" } ?? "UNDELIVERED_OTHER",
                refundPreference: "GRANT_PRORATED")
        }
        guard let credit = credits.first(where: { $0.transactionId == txn }) else {
            return ConsumptionInfo(txn: txn, deliveryStatus: "UNDELIVERED_OTHER", refundPreference: "GRANT_FULL")
        }
        let left = max(0, min(credit.coins, balance(of: credit.user)))
        guard credit.coins > 0, left < credit.coins else {
            return ConsumptionInfo(txn: txn, deliveryStatus: "DELIVERED", refundPreference: "GRANT_FULL")
        }
        let consumed = max(1, (credit.coins - left) * 100_000 / credit.coins)
        return ConsumptionInfo(
            txn: txn, deliveryStatus: "DELIVERED", refundPreference: "GRANT_PRORATED", consumptionPercentage: consumed)
    }
}
