/// What the auditor may look at to decide whether something can still be made right:
/// the world's parts, borrowed for one look (never copied, never changed).
struct RecoveryView {
    /// True while something in the system can still credit `txn`.
    static func canStillCredit(_ txn: String, store: AppStore, app: AppProcess,
                               server: MerchantServer, policy: Policy) -> Bool {
        // Asked on every step for every charge that waits for its credit: the lists are
        // searched field by field (copying their elements costs more than the search),
        // and the cheap tests come first (the answer is the same).
        let transactions = store.transactions
        if transactions.indices.contains(where: { i in
            !transactions[i].finished && transactions[i].state == .purchased && transactions[i].id == txn
        }) {
            return true
        }
        if app.hasRechargeInFlight(txn) || server.isVerifying(txn) { return true }
        let retries = policy.retryIntervalMs != nil || policy.resendsAtAll
        if holds(app.files, txn) || holds(app.keychain, txn) {
            return retries
        }
        if app.isRunning, holds(app.memory, txn) {
            return app.waitingForLogin.contains(txn) || policy.retryIntervalMs != nil
                || policy.resends(on: .network) || policy.resends(on: .purchase) || policy.resends(on: .login)
        }
        return false
    }

    static func holds(_ receipts: [PendingReceipt], _ txn: String) -> Bool {
        receipts.indices.contains { receipts[$0].txn == txn }
    }
}

extension Auditor {
    /// A charge not credited yet that nothing can make due now: inside its grace period,
    /// not finished, no anomaly.
    func isQuiet(_ i: Int, now: VirtualTime) -> Bool {
        // Field by field: copying the record costs more than the test.
        charges[i].credits.isEmpty && charges[i].anomalyId == nil
            && now - charges[i].chargedAt <= graceMs && charges[i].finishedAt == nil
    }

    /// Looks again at every charge whose verdict may still change and updates its anomaly,
    /// oldest charge first. Charges settled for good are skipped: looking at them again
    /// would change nothing. The parts are only read, and only for uncredited charges.
    mutating func evaluate(now: VirtualTime, store: AppStore, app: AppProcess,
                           server: MerchantServer, policy: Policy, _ out: inout [LogEntry]) {
        var kept = 0
        for k in active.indices {
            let i = active[k]
            if let first = charges[i].credits.first {
                settleCredited(i, first: first, now: now, &out)
                continue
            }
            if !isQuiet(i, now: now) {
                let alive = RecoveryView.canStillCredit(charges[i].txn, store: store, app: app,
                                                        server: server, policy: policy)
                settleUncredited(i, now: now, alive: alive, &out)
            }
            active[kept] = i
            kept += 1
        }
        active.removeLast(active.count - kept)
    }

    mutating func settleCredited(_ i: Int, first: ChargeRecord.Credit, now: VirtualTime,
                                 _ out: inout [LogEntry]) {
        let c = charges[i]
        if first.user == c.buyer {
            guard let id = c.anomalyId, anomalies[id - 1].status != .resolved else { return }
            if anomalies[id - 1].type == .wrongAccount { return }
            change(id, type: anomalies[id - 1].type, status: .resolved, mechanism: first.via.words,
                   at: now, &out)
            return
        }
        // Already said: the first credit never changes, so neither would the words.
        if let id = c.anomalyId, anomalies[id - 1].type == .wrongAccount,
           anomalies[id - 1].status == .permanent { return }
        let summary = "\(c.txn) paid by \(c.buyer), credited to \(first.user)"
        let mechanism = "credited to \(first.user) instead of \(c.buyer)"
        if let id = c.anomalyId {
            change(id, type: .wrongAccount, status: .permanent, mechanism: mechanism,
                   summary: summary, at: now, &out)
        } else {
            charges[i].anomalyId = open(.wrongAccount, .permanent, txn: c.txn, at: first.at,
                                        summary: summary, mechanism: mechanism, &out)
        }
    }

    /// `alive`: whether something can still credit the charge (`RecoveryView`).
    mutating func settleUncredited(_ i: Int, now: VirtualTime, alive: Bool, _ out: inout [LogEntry]) {
        // Field by field: this runs on every step while a charge waits for its credit, and
        // copying the record costs more than the look.
        let finished = charges[i].finishedAt != nil
        let due = now - charges[i].chargedAt > graceMs || (finished && !alive)
        guard due || charges[i].anomalyId != nil else { return }
        let status: AnomalyStatus = alive ? .open : .permanent
        let type = uncreditedType(i, now: now)
        let mechanism = alive ? nil : (finished
            ? "finished without credit; no record of it remains"
            : "no record of it remains that any retry could use")
        if let id = charges[i].anomalyId {
            change(id, type: type, status: status, mechanism: mechanism, at: now, &out)
        } else {
            let c = charges[i]
            let summary = "\(c.productId) paid by \(c.buyer) (\(c.txn)) never credited"
            charges[i].anomalyId = open(type, status, txn: c.txn, at: now, summary: summary,
                                        mechanism: mechanism, &out)
        }
    }

    /// Lost while the app never handled it; missed once it did (and had time to finish the
    /// normal path); duplicate when a recharge paired its order with another transaction.
    func uncreditedType(_ i: Int, now: VirtualTime) -> AnomalyType {
        if charges[i].pairedWrongly { return .duplicateReceipt }
        guard let handled = charges[i].handledAt else { return .lostOrder }
        if let id = charges[i].anomalyId, anomalies[id - 1].type == .lostOrder, now - handled <= graceMs {
            return .lostOrder
        }
        return .missedOrder
    }

    // MARK: the verdict

    /// Anomalies whose status is `open` or `permanent`.
    public var unresolved: [Anomaly] { anomalies.filter { $0.status.isUnresolved } }

    /// What customers paid and did not get, in cents.
    public var paidNotDeliveredCents: Int {
        charges.filter { c in !c.credits.contains { $0.user == c.buyer } }.reduce(0) { $0 + $1.priceCents }
    }

    /// What the merchant granted without payment, in cents.
    public var grantedNotPaidCents: Int {
        charges.reduce(0) { sum, c in
            let due = c.credits.firstIndex { $0.user == c.buyer }
            let extra = c.credits.indices.filter { $0 != due }.count
            return sum + extra * c.priceCents
        }
    }

    /// Anomalies counted by type and status.
    public func count(_ type: AnomalyType, _ status: AnomalyStatus? = nil) -> Int {
        anomalies.filter { $0.type == type && (status == nil || $0.status == status) }.count
    }
}
