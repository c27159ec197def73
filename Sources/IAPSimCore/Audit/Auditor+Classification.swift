/// The classification of anomalies: after every step the auditor looks again at each charge
/// whose verdict may still change, and opens, changes or settles its anomaly.
///
/// The hot path of explore runs: this runs on every step while a charge waits for its
/// credit, so charges and anomalies are read field by field through their index (a copy of
/// a record, with its strings, costs more than the test) and the cheap tests come first.
extension Auditor {
    /// A charge not credited yet that nothing can make due now: inside its grace period,
    /// not finished, no anomaly.
    func isQuiet(_ i: Int, now: VirtualTime) -> Bool {
        ledger.charges[i].credits.isEmpty && ledger.charges[i].anomalyId == nil
            && now - ledger.charges[i].chargedAt <= graceMs && ledger.charges[i].finishedAt == nil
    }

    /// Looks again at every charge whose verdict may still change and updates its anomaly,
    /// oldest charge first. Charges settled for good are skipped: looking at them again
    /// would change nothing. The parts are only read, and only for uncredited charges.
    mutating func evaluate(now: VirtualTime, store: AppStore, app: AppProcess,
                           server: MerchantServer, policy: Policy, _ out: inout [LogEntry]) {
        var kept = 0
        for k in ledger.active.indices {
            let i = ledger.active[k]
            if let first = ledger.charges[i].credits.first {
                settleCredited(i, first: first, now: now, &out)
                continue
            }
            if !isQuiet(i, now: now) {
                let alive = RecoveryView.canStillCredit(ledger.charges[i].txn, store: store, app: app,
                                                        server: server, policy: policy)
                settleUncredited(i, now: now, alive: alive, &out)
            }
            ledger.active[kept] = i
            kept += 1
        }
        ledger.active.removeLast(ledger.active.count - kept)
    }

    mutating func settleCredited(_ i: Int, first: ChargeRecord.Credit, now: VirtualTime,
                                 _ out: inout [LogEntry]) {
        let c = ledger.charges[i]
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
        let summary = AnomalyWording.paidBy(c.txn, buyer: c.buyer, creditedTo: first.user)
        let mechanism = AnomalyWording.creditedInstead(to: first.user, of: c.buyer)
        if let id = c.anomalyId {
            change(id, type: .wrongAccount, status: .permanent, mechanism: mechanism,
                   summary: summary, at: now, &out)
        } else {
            ledger.setAnomaly(open(.wrongAccount, .permanent, txn: c.txn, at: first.at,
                                   summary: summary, mechanism: mechanism, &out), of: i)
        }
    }

    /// `alive`: whether something can still credit the charge (`RecoveryView`).
    mutating func settleUncredited(_ i: Int, now: VirtualTime, alive: Bool, _ out: inout [LogEntry]) {
        let finished = ledger.charges[i].finishedAt != nil
        let due = now - ledger.charges[i].chargedAt > graceMs || (finished && !alive)
        guard due || ledger.charges[i].anomalyId != nil else { return }
        let status: AnomalyStatus = alive ? .open : .permanent
        let type = uncreditedType(i, now: now)
        let mechanism = alive ? nil : AnomalyWording.beyondRecovery(finished: finished)
        if let id = ledger.charges[i].anomalyId {
            change(id, type: type, status: status, mechanism: mechanism, at: now, &out)
        } else {
            let summary = AnomalyWording.neverCredited(ledger.charges[i])
            ledger.setAnomaly(open(type, status, txn: ledger.charges[i].txn, at: now, summary: summary,
                                   mechanism: mechanism, &out), of: i)
        }
    }

    /// Lost while the app never handled it; missed once it did (and had time to finish the
    /// normal path); duplicate when a recharge paired its order with another transaction.
    func uncreditedType(_ i: Int, now: VirtualTime) -> AnomalyType {
        if ledger.charges[i].pairedWrongly { return .duplicateReceipt }
        guard let handled = ledger.charges[i].handledAt else { return .lostOrder }
        if let id = ledger.charges[i].anomalyId, anomalies[id - 1].type == .lostOrder, now - handled <= graceMs {
            return .lostOrder
        }
        return .missedOrder
    }
}
