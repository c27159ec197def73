/// The omniscient auditor. It sits beside the world and is fed the history (every charge,
/// every credit, every request) plus, after each step, a read-only view of what can still
/// act; it never changes the world, and the world never asks it anything. It owns the
/// verdict.
///
/// By concern: the facts it reads are declared in `Auditor+Facts.swift`, the history it
/// keeps is the `ChargeLedger`, the classification of anomalies is in
/// `Auditor+Classification.swift`, the verdict and money in `Auditor+Verdict.swift`, the
/// words in `AnomalyWording`.
public struct Auditor: Sendable, Hashable {
    public internal(set) var anomalies: [Anomaly] = []
    var ledger = ChargeLedger()
    /// Products credited for forged transactions that were never charged (StoreKit 2).
    public internal(set) var forgedCredits: [String] = []
    /// The prices of what was credited without any charge.
    package var catalog = Catalog.standard

    /// Every charge, oldest first, with what became of it.
    public var charges: [ChargeRecord] { ledger.charges }

    /// How long an uncredited charge may wait before it is an anomaly (DOMAIN.md).
    package var graceMs: VirtualTime = 30_000

    public init() {}

    public static func == (a: Auditor, b: Auditor) -> Bool {
        a.anomalies == b.anomalies && a.ledger.charges == b.ledger.charges && a.forgedCredits == b.forgedCredits
    }

    public func hash(into h: inout Hasher) {
        h.combine(anomalies)
        h.combine(ledger.charges)
    }

    /// Reads one fact of the history (one of the kinds `use(of:)` declares read). Returns
    /// the delay after which the auditor wants to look again (the grace period of a new
    /// charge, say), if it wants to.
    mutating func observe(_ e: LogEntry, _ out: inout [LogEntry]) -> VirtualTime? {
        switch e.fact {
        case .paymentAdded(let txn, _, _, let user, let order):
            ledger.paymentAdded(txn: txn, user: user, order: order)
        case .paymentCharged(let txn, let product, let price):
            ledger.charged(txn: txn, product: product, priceCents: price, at: e.time)
            return graceMs + 1
        case .transactionsDelivered(let txns, _):
            ledger.delivered(txns, at: e.time)
            return graceMs + 1
        case .transactionFinished(let txn), .finishCalled(let txn):
            ledger.finished(txn, at: e.time)
        case .purchaseStarted(let txn, _, _, let user, let order),
             .purchaseCompletedOutsideApp(let txn, _, let user, let order):
            ledger.paymentAdded(txn: txn, user: user, order: order)
        case .purchaseReturned(let txn, _, .success):
            ledger.delivered([txn], at: e.time)
            return graceMs + 1
        case .updatesEmitted(let txns, _), .unfinishedSwept(let txns):
            ledger.delivered(txns, at: e.time)
            return graceMs + 1
        case .rechargeSent(let txn, _, _, _, let delivered):
            ledger.rechargeSent(txn, forDelivered: delivered)
        case .coinsCredited(let user, _, let product, let txn, _, let sender, let via):
            observeCredit(user: user, product: product, txn: txn, sender: sender, via: via, at: e.time, &out)
        case .rechargeRefused(let txn, let reason, .attacker):
            open(.replayFraud, .blocked, txn: txn, at: e.time, summary: AnomalyWording.replayed(txn),
                 mechanism: AnomalyWording.refused(reason), &out)
        case .alreadyCredited(let txn, .attacker):
            open(.replayFraud, .blocked, txn: txn, at: e.time, summary: AnomalyWording.replayed(txn),
                 mechanism: AnomalyWording.refusedAsAlreadyCredited, &out)
        default:
            break
        }
        return nil
    }

    mutating func observeCredit(user: String, product: String, txn: String, sender: Sender, via: SendReason,
                                at time: VirtualTime, _ out: inout [LogEntry]) {
        let credit = ChargeRecord.Credit(user: user, sender: sender, at: time, via: via)
        guard let earlier = ledger.credited(txn, credit) else {
            // A credit for a transaction the App Store never charged: a forged one.
            if sender == .attacker {
                forgedCredits.append(product)
                open(.replayFraud, .permanent, txn: txn, at: time,
                     summary: AnomalyWording.forgedCredited(txn, to: user),
                     mechanism: AnomalyWording.grantedWithoutPayment, &out)
            }
            return
        }
        guard earlier > 0 else { return }
        if sender == .attacker {
            open(.replayFraud, .permanent, txn: txn, at: time,
                 summary: AnomalyWording.replayCredited(txn, to: user),
                 mechanism: AnomalyWording.grantedWithoutPayment, &out)
        } else {
            open(.doubleCredit, .permanent, txn: txn, at: time,
                 summary: AnomalyWording.creditedAgain(txn, times: earlier + 1, via: via),
                 mechanism: AnomalyWording.grantedWithoutPayment, &out)
        }
    }

    /// Opens an anomaly and writes it to `out`; returns its id.
    @discardableResult
    mutating func open(_ type: AnomalyType, _ status: AnomalyStatus, txn: String?, at time: VirtualTime,
                       summary: String, mechanism: String?, _ out: inout [LogEntry]) -> Int {
        let id = anomalies.count + 1
        let charge = txn.flatMap(ledger.index).map { ledger.charges[$0] }
        anomalies.append(Anomaly(id: id, type: type, status: status, txn: txn, order: charge?.order,
                                 user: charge?.buyer, openedAt: time, changedAt: time,
                                 mechanism: mechanism, summary: summary))
        out.append(LogEntry(time: time, part: .auditor,
                            fact: .anomalyOpened(id: id, type: type, txn: txn, status: status)))
        if mechanism != nil, status != .open {
            out.append(LogEntry(time: time, part: .auditor, fact: .anomalyStatusChanged(
                id: id, type: type, status: status, mechanism: mechanism)))
        }
        return id
    }

    /// Changes an anomaly and writes the change to `out`, unless nothing changes.
    mutating func change(_ id: Int, type: AnomalyType, status: AnomalyStatus, mechanism: String?,
                         summary: String? = nil, at time: VirtualTime, _ out: inout [LogEntry]) {
        let i = id - 1
        guard anomalies[i].type != type || anomalies[i].status != status
            || anomalies[i].mechanism != mechanism else { return }
        anomalies[i].type = type
        anomalies[i].status = status
        anomalies[i].mechanism = mechanism
        anomalies[i].changedAt = time
        if let summary { anomalies[i].summary = summary }
        out.append(LogEntry(time: time, part: .auditor, fact: .anomalyStatusChanged(
            id: id, type: type, status: status, mechanism: mechanism)))
    }
}
