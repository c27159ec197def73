/// Refunds (docs/world.md, "The server side"): coins credited for a charge Apple refunded
/// are `refund-unclawed` until the server takes them back. `open` while a REFUND
/// notification is still being delivered, or a reconciliation can still find the refund,
/// to a server that claws back; `resolved` once clawed back; `permanent` when nothing will.
extension Auditor {
    mutating func settleRefunds(
        now: VirtualTime, store: AppStore, server: MerchantServer, policy: Policy,
        _ out: inout [LogEntry]
    ) {
        var kept = 0
        for k in ledger.unclawed.indices {
            let i = ledger.unclawed[k]
            let c = ledger.charges[i]
            if c.refundedAt == nil {
                // Apple reversed the refund: the customer paid again and may keep the coins.
                if let id = c.refundAnomalyId {
                    change(
                        id, type: .refundUnclawed, status: .resolved, mechanism: AnomalyWording.refundReversed,
                        at: now, &out)
                }
                continue
            }
            if c.clawedBack {
                if let id = c.refundAnomalyId {
                    change(
                        id, type: .refundUnclawed, status: .resolved,
                        mechanism: AnomalyWording.clawedBack(
                            unlock: catalog.read(c.productId) { $0.coins == 0 } ?? false),
                        at: now, &out)
                }
                continue
            }
            let status: AnomalyStatus
            let mechanism: String?
            if let ack = acknowledgedNews(c.txn, .refund), !c.stuck {
                // Under serve: delivered, answered with success, and nothing taken back.
                (status, mechanism) =
                    now - ack.at > graceMs ? (.permanent, AnomalyWording.acknowledgedIgnored(ack)) : (.open, nil)
            } else if c.stuck {
                (status, mechanism) = (.permanent, AnomalyWording.refundNeverTold)
            } else if let why = Self.refundBeyondReach(c.txn, store: store, server: server, policy: policy) {
                (status, mechanism) = (.permanent, why)
            } else {
                (status, mechanism) = (.open, nil)
            }
            if let id = c.refundAnomalyId {
                change(id, type: .refundUnclawed, status: status, mechanism: mechanism, at: now, &out)
            } else {
                let id = open(
                    .refundUnclawed, status, txn: c.txn, at: now, summary: AnomalyWording.refundUnclawed(c),
                    mechanism: mechanism, involved: [c.txn] + [c.order].compactMap { $0 }, &out)
                ledger.setRefundAnomaly(id, of: i)
            }
            ledger.unclawed[kept] = i
            kept += 1
        }
        ledger.unclawed.removeLast(ledger.unclawed.count - kept)
    }

    /// Why nothing will take the coins of refunded `txn` back, or nil while something can:
    /// the server's own answer (`MerchantServer.refundBeyondReach`).
    static func refundBeyondReach(
        _ txn: String, store: AppStore, server: MerchantServer,
        policy: Policy
    ) -> String? {
        server.refundBeyondReach(txn, store: store, policy: policy)
    }

    /// A refunded charge never credited: the customer has the money back, so an anomaly
    /// about its missing credit is made right.
    mutating func settleRefundedUncredited(_ i: Int, now: VirtualTime, _ out: inout [LogEntry]) {
        guard let id = ledger.charges[i].anomalyId else { return }
        change(
            id, type: anomalies[id - 1].type, status: .resolved, mechanism: AnomalyWording.refundedInstead,
            at: now, &out)
    }

    /// The verdict's what-if (docs/world.md, "The rules") found that nothing takes the coins back.
    /// `why` is what the healed copy showed (`refundBeyondReach` of its state).
    mutating func markRefundStuck(_ txn: String, why: String, at now: VirtualTime, _ out: inout [LogEntry]) {
        guard let i = ledger.index(of: txn), !ledger.charges[i].clawedBack,
            let id = ledger.charges[i].refundAnomalyId
        else { return }
        ledger.markStuck(i)
        change(id, type: .refundUnclawed, status: .permanent, mechanism: why, at: now, &out)
    }
}

extension AnomalyWording {
    static func refundUnclawed(_ c: ChargeRecord) -> String {
        var s = ""
        s.reserveCapacity(128)
        writeCharge(c, to: &s)
        s += " was refunded; what it credited to "
        for (i, credit) in c.credits.enumerated() where !c.credits[..<i].contains(where: { $0.user == credit.user }) {
            if i > 0 { s += ", " }
            s += credit.user
        }
        s += " was not taken back"
        return s
    }
    /// A refunded charge's credit taken back: its coins, or (`unlock`: a non-consumable or
    /// non-renewing product, no coins) the entitlement it granted.
    static func clawedBack(unlock: Bool) -> String {
        unlock
            ? "clawed back: the unlock was taken back (the product is locked again)"
            : "clawed back: the coins were taken back (a balance may go negative: debt)"
    }
    static var coinsKept: String { "the server hears of the refund but keeps the coins (server-clawback off)" }
    static var shareRoundsToNothing: String {
        "the server hears of the refund, but its refunded share rounds down to nothing to take back"
    }
    static var refundNeverTold: String { "nothing will tell the server: no REFUND notification, no reconciliation" }
    static var historyLeavesOut: String {
        "nothing will tell the server: no REFUND notification, and the history its reconciliation reads leaves it out "
            + "(server-history v1 omits finished consumables; server-history-pages first, all past the first page)"
    }
    static var refundedInstead: String { "refunded: the customer has the money back" }
    static var refundNotTakenEvenHealed: String {
        "even with every fault healed, the server that heard of the refund does not take the coins back"
    }

    /// An anomaly the healed what-if resolves: what is still armed keeps it open.
    static func leftOpen(by armed: [String], healed: String) -> String {
        "left open by what is still armed: " + armed.joined(separator: ", ") + "; with it healed, " + healed
    }
    static var refundReversed: String { "Apple reversed the refund: the customer has paid again" }
}
