/// `refund-overclawed`, the mirror of `refund-unclawed`: the customer lost more than the
/// refund gave back. It opens at a clawback beyond the refunded share (a full clawback on a
/// prorated refund), or when the server heard `REFUND_REVERSED` and restored nothing within
/// the grace period; `resolved` when what was taken is given back; `permanent` when nothing
/// will give it back. Its money is paid and not delivered.
extension Auditor {
    mutating func settleOverclaws(
        now: VirtualTime, store: AppStore, server: MerchantServer, policy: Policy, _ out: inout [LogEntry]
    ) {
        var kept = 0
        for k in ledger.overclaws.indices {
            let i = ledger.overclaws[k]
            let c = ledger.charges[i]
            guard c.overclawed else {
                if let id = c.overclawAnomalyId {
                    change(
                        id, type: .refundOverclawed, status: .resolved, mechanism: AnomalyWording.overclawRestored,
                        at: now, &out)
                }
                continue
            }
            guard let (status, mechanism) = overclawVerdict(c, now: now, store: store, server: server, policy: policy)
            else {
                ledger.overclaws[kept] = i
                kept += 1
                continue
            }
            if let id = c.overclawAnomalyId {
                change(id, type: .refundOverclawed, status: status, mechanism: mechanism, at: now, &out)
            } else {
                let id = open(
                    .refundOverclawed, status, txn: c.txn, at: now, summary: AnomalyWording.overclawed(c),
                    mechanism: mechanism, involved: [c.txn] + [c.order].compactMap { $0 }, &out)
                ledger.setOverclawAnomaly(id, of: i)
            }
            if status == .open {
                ledger.overclaws[kept] = i
                kept += 1
            }
        }
        ledger.overclaws.removeLast(ledger.overclaws.count - kept)
    }

    /// The status of an over-clawed charge now, or nil while it may not be an anomaly yet (a
    /// reversal the server will still hear of, or heard within the grace period). The server
    /// answers what it will still do (`willStillHearReversal`, `restoresOnReversal`); the
    /// auditor reads no policy key of its own.
    func overclawVerdict(
        _ c: ChargeRecord, now: VirtualTime, store: AppStore, server: MerchantServer, policy: Policy
    ) -> (AnomalyStatus, String?)? {
        if c.refundedAt != nil {
            // A clawback beyond the refunded share: open while the server will still set it to
            // the share (news of it on its way, its reconciliation); else nothing gives it back.
            return server.willStillLowerClawback(c.txn, store: store, policy: policy)
                ? (.open, nil) : (.permanent, server.clawbackBeyondShare(policy: policy))
        }
        guard let heard = c.reversalHeardAt else {
            if let ack = acknowledgedNews(c.txn, .refundReversed) {
                // Under serve: delivered, answered with success, and nothing restored.
                return now - ack.at > graceMs ? (.permanent, AnomalyWording.acknowledgedIgnored(ack)) : nil
            }
            return server.willStillHearReversal(c.txn, store: store, policy: policy)
                ? nil : (.permanent, AnomalyWording.reversalNeverTold)
        }
        guard now - heard > graceMs else { return nil }
        return server.restoresOnReversal(policy: policy) ? (.open, nil) : (.permanent, AnomalyWording.reversalIgnored)
    }

    /// The value in cents of `coins` taken from `user`'s credit of `txn` (negative: given
    /// back), counted on the running total of coins taken from it, so that two halves taken
    /// apart are worth the whole (50 + 50 coins of a 0.99 charge: 0.50 + 0.49).
    /// An entitlement (no coins) is worth its price, taken or given back.
    func takenValue(_ coins: Int, _ txn: String, _ user: String, restored: Bool = false) -> Int {
        guard let i = ledger.index(of: txn) else { return 0 }
        guard (catalog.product(ledger.charges[i].productId)?.coins ?? 0) > 0 else {
            return restored ? -ledger.charges[i].priceCents : ledger.charges[i].priceCents
        }
        var before = 0
        for t in ledger.charges[i].taken where t.user == user { before += t.coins }
        return value(of: before + coins, txn) - value(of: before, txn)
    }

    /// The value in cents of `coins` taken from (or given back to) the credit of `txn`: its
    /// price times the share of the product's coins, rounded half up; an entitlement (0
    /// coins) is worth the price.
    func value(of coins: Int, _ txn: String) -> Int {
        guard let i = ledger.index(of: txn) else { return 0 }
        let c = ledger.charges[i]
        let perCredit = catalog.product(c.productId)?.coins ?? 0
        guard perCredit > 0 else { return c.priceCents }
        return (c.priceCents * coins * 2 + perCredit) / (perCredit * 2)
    }
}

extension AnomalyWording {
    static func overclawed(_ c: ChargeRecord) -> String {
        var s = ""
        writeCharge(c, to: &s)
        let refunded = c.refundedAt == nil ? "a refund Apple reversed" : "a refund of \(formatMoney(c.refundCents))"
        return s + ": the server took back \(formatMoney(c.takenCents)) worth for \(refunded)"
    }
    static func beyondShare(_ rule: ClawbackRule) -> String {
        "taken back beyond the refunded share (server-clawback \(rule.rawValue)); nothing gives it back"
    }
    static var reversalNeverTold: String {
        "nothing will tell the server that Apple reversed the refund: no REFUND_REVERSED notification, no reconciliation"
    }
    static var reversalIgnored: String {
        "the server heard REFUND_REVERSED and kept what it took (server-refund-reversed ignore)"
    }
    /// Under serve: the backend answered the news with success and did not act on it.
    static func acknowledgedIgnored(_ ack: AcknowledgedNews) -> String {
        let done =
            ack.type == .refundReversed ? "what it took back stays taken" : "what it credited was not taken back"
        return "\(ack.type.rawValue) was delivered and acknowledged (the server answered \(ack.status)), but the"
            + " server did not act on it: \(done) (Apple does not send it again)"
    }
    static var overclawRestored: String { "restored: what was taken back beyond the refund was given back" }
}
