/// The classification of anomalies: after every step the auditor looks again at each charge
/// whose verdict may still change, and opens, changes or settles its anomaly.
///
/// On the hot path (ARCHITECTURE.md): this runs on every step while a charge waits for its
/// credit, so records are read through their index and the cheap tests come first.
extension Auditor {
    /// A charge not credited yet that nothing can make due now: inside its grace period (or
    /// waiting for the app to launch or come to the foreground, docs/world.md, "The rules"), not finished,
    /// no anomaly.
    func isQuiet(_ i: Int, now: VirtualTime) -> Bool {
        guard
            ledger.charges[i].credits.isEmpty && ledger.charges[i].anomalyId == nil
                && ledger.charges[i].finishedAt == nil
        else { return false }
        guard let from = ledger.charges[i].graceFrom else { return true }
        return now - from <= graceMs
    }

    /// When the charge of `txn` becomes an anomaly if nothing credits it: the end of its
    /// grace period; nil when it is credited, has its anomaly already, or waits for the app
    /// to launch or come to the foreground before its grace period starts.
    package func graceDeadline(_ txn: String) -> VirtualTime? {
        guard let i = ledger.index(of: txn), ledger.charges[i].credits.isEmpty,
            ledger.charges[i].anomalyId == nil, let from = ledger.charges[i].graceFrom
        else { return nil }
        return from + graceMs
    }

    /// Looks again at every charge whose verdict may still change and updates its anomaly,
    /// oldest charge first. Charges settled for good are skipped: looking at them again
    /// would change nothing (a new credit brings one back). The parts are only read, and
    /// only for uncredited charges.
    mutating func evaluate(
        now: VirtualTime, store: AppStore, app: AppProcess,
        server: MerchantServer, policy: Policy, _ out: inout [LogEntry]
    ) {
        var kept = 0
        for k in ledger.active.indices {
            let i = ledger.active[k]
            if let first = ledger.charges[i].credits.first {
                settleCredited(i, first: first, now: now, &out)
                continue
            }
            if ledger.charges[i].refundedAt != nil {
                // The customer has the money back: nothing is owed for this charge.
                settleRefundedUncredited(i, now: now, &out)
                continue
            }
            if !isQuiet(i, now: now) && !lookWouldChangeNothing(i, now: now, store: store) {
                let txn = ledger.charges[i].txn
                var position = ledger.storePositions[i]
                let keptByStore = RecoveryView.storeKeeps(txn, storePosition: &position, store: store)
                let alive =
                    keptByStore
                    || RecoveryView.appOrServerCanStillCredit(
                        txn, app: app, server: server, store: store, policy: policy)
                if position != ledger.storePositions[i] { ledger.storePositions[i] = position }
                let written = out.count
                settleUncredited(
                    i, now: now, alive: alive, freshReceipt: app.readsReceiptAtEachSend(policy: policy), &out)
                remember(i, now: now, store: store, keptByStore: keptByStore && out.count == written)
            }
            ledger.active[kept] = i
            kept += 1
        }
        ledger.active.removeLast(ledger.active.count - kept)
        if !ledger.unclawed.isEmpty { settleRefunds(now: now, store: store, server: server, policy: policy, &out) }
        if !ledger.overclaws.isEmpty { settleOverclaws(now: now, store: store, server: server, policy: policy, &out) }
    }

    /// True when the last look at waiting charge `i` changed nothing, found it kept alive by
    /// the store's list, and nothing it read has changed since (see `ChargeLedger.Looks`).
    /// Debug builds look again anyway and check that the look would indeed write nothing.
    func lookWouldChangeNothing(_ i: Int, now: VirtualTime, store: AppStore) -> Bool {
        guard let stamp = ledger.looks[i], now < stamp.until,
            stamp
                == ChargeLedger.Looks.Stamp(
                    store: store.revision, ledger: ledger.looks.ledgerRevision, anomalies: anomaliesRevision,
                    until: stamp.until)
        else { return false }
        assert(
            {
                var probe = self
                var written: [LogEntry] = []
                probe.settleUncredited(i, now: now, alive: true, &written)
                return written.isEmpty && probe.anomalies == anomalies
            }(), "a skipped look at charge \(i) would have changed its verdict")
        return true
    }

    /// Notes the state of a look at waiting charge `i` that changed nothing and found it kept
    /// alive by the store's list; forgets it otherwise.
    mutating func remember(_ i: Int, now: VirtualTime, store: AppStore, keptByStore: Bool) {
        guard keptByStore else {
            if ledger.looks[i] != nil { ledger.looks[i] = nil }
            return
        }
        // The verdict changes by time alone when a grace period ends: the charge's own
        // (`graceOver`, `isQuiet`) and, for a lost order, the one after it was handled.
        var until = VirtualTime.max
        if let from = ledger.charges[i].graceFrom, now - from <= graceMs { until = min(until, from + graceMs + 1) }
        if let handled = ledger.charges[i].handledAt, now - handled <= graceMs {
            until = min(until, handled + graceMs + 1)
        }
        ledger.looks[i] = ChargeLedger.Looks.Stamp(
            store: store.revision, ledger: ledger.looks.ledgerRevision, anomalies: anomaliesRevision, until: until)
    }

    mutating func settleCredited(
        _ i: Int, first: ChargeRecord.Credit, now: VirtualTime,
        _ out: inout [LogEntry]
    ) {
        let c = ledger.charges[i]
        if first.user == c.buyer {
            guard let id = c.anomalyId, anomalies[id - 1].status != .resolved else { return }
            if anomalies[id - 1].type == .wrongAccount { return }
            change(
                id, type: anomalies[id - 1].type, status: .resolved, mechanism: first.via.words,
                at: now, &out)
            return
        }
        let id: Int
        if let existing = c.anomalyId, anomalies[existing - 1].type == .wrongAccount {
            id = existing
        } else {
            let summary = AnomalyWording.paidBy(c, creditedTo: first.user)
            let mechanism = AnomalyWording.creditedInstead(to: first.user, of: c.buyer)
            if let existing = c.anomalyId {
                change(
                    existing, type: .wrongAccount, status: .permanent, mechanism: mechanism,
                    summary: summary, at: now, &out)
                id = existing
            } else {
                id = open(
                    .wrongAccount, .permanent, txn: c.txn, at: first.at, summary: summary,
                    mechanism: mechanism, involved: [c.txn] + [c.order].compactMap { $0 }, &out)
                ledger.setAnomaly(id, of: i)
            }
        }
        // docs/world.md, "The rules": once the buyer is paid too, the customer is whole; the extra credit is
        // the double credit opened with it.
        if let paid = c.credits.first(where: { $0.user == c.buyer }), anomalies[id - 1].status != .resolved {
            change(
                id, type: .wrongAccount, status: .resolved,
                mechanism: AnomalyWording.buyerPaidToo(c.buyer, via: paid.via), at: now, &out)
        }
    }

    /// `alive`: whether something can still credit the charge (`RecoveryView`); a charge the
    /// verdict's what-if found stuck stays permanent however alive it looks.
    /// `freshReceipt`: the app re-reads the receipt at each send (`receipt: fresh`), so a
    /// finished charge lost to it rests on the simulator's assumption of when a finished
    /// consumable leaves the receipt, and its mechanism says so.
    mutating func settleUncredited(
        _ i: Int, now: VirtualTime, alive: Bool, freshReceipt: Bool = false, _ out: inout [LogEntry]
    ) {
        let finished = ledger.charges[i].finishedAt != nil
        let graceOver = ledger.charges[i].graceFrom.map { now - $0 > graceMs } ?? false
        guard graceOver || (finished && !alive) || ledger.charges[i].anomalyId != nil else { return }
        let stuck = ledger.charges[i].stuck
        let status: AnomalyStatus = alive && !stuck ? .open : .permanent
        let type = uncreditedType(i, now: now, beyondRecovery: status == .permanent)
        let mechanism =
            stuck
            ? AnomalyWording.stuck
            : alive ? nil : AnomalyWording.beyondRecovery(finished: finished, freshReceipt: freshReceipt)
        if let id = ledger.charges[i].anomalyId {
            // The words follow the type (built only when it changes: this runs every step).
            let summary = anomalies[id - 1].type != type ? uncreditedSummary(i, type) : nil
            change(id, type: type, status: status, mechanism: mechanism, summary: summary, at: now, &out)
        } else {
            let c = ledger.charges[i]
            ledger.setAnomaly(
                open(
                    type, status, txn: c.txn, at: now, summary: uncreditedSummary(i, type),
                    mechanism: mechanism,
                    involved: [c.txn] + [c.order, c.pairedWith].compactMap { $0 }, &out), of: i)
        }
    }

    func uncreditedSummary(_ i: Int, _ type: AnomalyType) -> String {
        let c = ledger.charges[i]
        // The stale transaction was credited in this order's place: on this order, or again.
        var staleCredited = false
        if let stale = c.pairedWith, let j = ledger.index(of: stale) {
            staleCredited =
                ledger.charges[j].credits.count > 1
                || ledger.charges[j].credits.contains { $0.order != nil && $0.order == c.order }
        }
        return AnomalyWording.uncredited(c, type, staleCredited: staleCredited)
    }

    /// Lost while the app never handled it; missed once it did (and had time to finish the
    /// normal path); duplicate when the app paired its order with another transaction,
    /// whether or not it sent it (docs/world.md, "The rules"). A lost order the app handled
    /// keeps its type while the normal path may still credit it; once it is `beyondRecovery`
    /// (permanent) no path is left to wait for, and it is a missed order at once.
    func uncreditedType(_ i: Int, now: VirtualTime, beyondRecovery: Bool = false) -> AnomalyType {
        if ledger.charges[i].pairedWrongly { return .duplicateReceipt }
        guard let handled = ledger.charges[i].handledAt else { return .lostOrder }
        if !beyondRecovery, let id = ledger.charges[i].anomalyId, anomalies[id - 1].type == .lostOrder,
            now - handled <= graceMs
        {
            return .lostOrder
        }
        return .missedOrder
    }

    /// docs/world.md, "The rules": the verdict's what-if found that nothing credits this open anomaly's
    /// charge, not even a clean relaunch: it is permanent, and stays so unless credited.
    /// `lateListener`: the verdict rests on the simulator's assumption that a
    /// `Transaction.updates` listener started after launch misses the launch replay.
    mutating func markStuck(_ txn: String, at now: VirtualTime, lateListener: Bool = false, _ out: inout [LogEntry]) {
        guard let i = ledger.index(of: txn), ledger.charges[i].credits.isEmpty,
            let id = ledger.charges[i].anomalyId
        else { return }
        ledger.markStuck(i)
        let type = anomalies[id - 1].type
        let mechanism =
            lateListener && type == .lostOrder
            ? AnomalyWording.stuck + AnomalyWording.lateListener : AnomalyWording.stuck
        change(id, type: type, status: .permanent, mechanism: mechanism, at: now, &out)
    }
}
