/// The auditor's findings under `iapsim serve` (docs/serve.md rules 18 and 19): a backend that
/// acknowledged a charge with no credit row following, and a balance that moved with no row.
struct Acknowledgement: Sendable, Hashable {
    var txn: String
    var at: VirtualTime
    var anomalyId: Int?
}

/// A `REFUND` or `REFUND_REVERSED` the backend answered with success: if what it took back
/// (or gave back) does not follow within the grace period, the verdict names the news as
/// delivered and acknowledged, not as never told.
struct AcknowledgedNews: Sendable, Hashable {
    var txn: String
    var type: NotificationType
    var status: Int
    var at: VirtualTime
}

extension Auditor {
    /// The backend answered success for `txn` (rule 19): its row must follow within the
    /// grace period.
    mutating func acknowledged(_ txn: String, at time: VirtualTime) {
        guard !acks.contains(where: { $0.txn == txn && $0.anomalyId == nil }) else { return }
        acks.append(Acknowledgement(txn: txn, at: time))
        watchGrace(from: time)
    }

    /// The backend answered a `REFUND` or `REFUND_REVERSED` of `txn` with success: the
    /// auditor looks again once the grace period for its rows has passed.
    mutating func newsAcknowledged(_ txn: String, type: NotificationType, status: Int, at time: VirtualTime) {
        ackedNews.append(AcknowledgedNews(txn: txn, type: type, status: status, at: time))
        watchGrace(from: time)
    }

    /// The newest acknowledgement of a `type` notification of `txn`, if the backend gave one.
    func acknowledgedNews(_ txn: String, _ type: NotificationType) -> AcknowledgedNews? {
        ackedNews.last { $0.txn == txn && $0.type == type }
    }

    /// Opens `acked-not-credited` for each acknowledgement whose grace period has passed
    /// with no credit row, and resolves the open ones a later row made right.
    mutating func checkAcks(now: VirtualTime, _ out: inout [LogEntry]) {
        var kept: [Acknowledgement] = []
        for var ack in acks {
            let charge = ledger.index(of: ack.txn).map { ledger.charges[$0] }
            let credited = !(charge?.credits.isEmpty ?? true)
            if let id = ack.anomalyId {
                if credited {
                    change(
                        id, type: .ackedNotCredited, status: .resolved, mechanism: "a later credit row",
                        at: now, &out)
                } else if anomalies[id - 1].status == .open {
                    kept.append(ack)
                }
                continue
            }
            if credited || charge?.refundedAt != nil { continue }
            guard now > ack.at + graceMs else {
                kept.append(ack)
                continue
            }
            ack.anomalyId = open(
                .ackedNotCredited, .open, txn: ack.txn, at: now,
                summary: "\(ack.txn): the backend acknowledged it, and no credit row followed within 30 s",
                mechanism: nil, involved: [ack.txn], &out)
            kept.append(ack)
        }
        acks = kept
    }

    /// At the verdict (the last ticks have run): what is still acknowledged and uncredited
    /// stays so; Apple will not send it again.
    mutating func concludeAcks(at now: VirtualTime, _ out: inout [LogEntry]) {
        checkAcks(now: now, &out)
        for ack in acks {
            guard let id = ack.anomalyId, anomalies[id - 1].status == .open else { continue }
            change(
                id, type: .ackedNotCredited, status: .permanent,
                mechanism: "acknowledged, never credited; no retry, launch or tick delivered it", at: now, &out)
        }
        acks = []
    }

    /// `ledger-mismatch`: an account's balance is not what its rows and spending make it.
    mutating func ledgerMismatch(
        account: String, coins: Int, expected: Int, at time: VirtualTime, _ out: inout [LogEntry]
    ) {
        open(
            .ledgerMismatch, .permanent, txn: nil, at: time,
            summary: "\(account) has \(coins) coins, its rows make \(expected): a balance moved with no row",
            mechanism: "balance moved with no ledger row", involved: [], &out)
    }
}
