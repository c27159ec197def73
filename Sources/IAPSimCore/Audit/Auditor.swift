/// One charge as the auditor knows it: who paid, for what, and every credit it got.
public struct ChargeRecord: Sendable, Hashable {
    public struct Credit: Sendable, Hashable {
        public var user: String
        public var sender: Sender
        public var at: VirtualTime
        public var via: SendReason
    }
    public var txn: String
    public var productId: String
    public var priceCents: Int
    /// The merchant user who started the purchase.
    public var buyer: String
    public var order: String?
    public var chargedAt: VirtualTime
    public var handledAt: VirtualTime?
    public var finishedAt: VirtualTime?
    public var credits: [Credit] = []
    /// A recharge was sent for this payment with another transaction's id.
    public var pairedWrongly = false
    /// The anomaly about this charge's own credit (lost, missed, duplicate, wrong account).
    public var anomalyId: Int?
}

/// The omniscient auditor. It sits beside the world and reads the history (every charge,
/// every credit, every request) plus a read-only view of what can still act; it never
/// changes the world. It owns the verdict.
public struct Auditor: Sendable, Hashable {
    public internal(set) var anomalies: [Anomaly] = []
    public internal(set) var charges: [ChargeRecord] = []
    /// Indices of the charges whose verdict may still change, ascending: every uncredited
    /// charge, and a credited one until the look that settles it (its first credit never
    /// changes, so after that look nothing about it would).
    var active: [Int] = []
    /// Who added each payment, and for which order (a run adds few: a search from the
    /// newest costs less than hashing).
    var origins: [Origin] = []
    struct Origin: Sendable {
        var txn: String
        var user: String
        var order: String?
    }

    /// Who added the payment `txn`, and for which order.
    func origin(of txn: String) -> (user: String, order: String?)? {
        origins.indices.last { origins[$0].txn == txn }.map { (origins[$0].user, origins[$0].order) }
    }

    /// How long an uncredited charge may wait before it is an anomaly (DOMAIN.md).
    public var graceMs: VirtualTime = 30_000

    public init() {}

    public static func == (a: Auditor, b: Auditor) -> Bool {
        a.anomalies == b.anomalies && a.charges == b.charges
    }

    public func hash(into h: inout Hasher) {
        h.combine(anomalies)
        h.combine(charges)
    }

    func chargeIndex(_ txn: String) -> Int? {
        // Field by field: copying each record costs more than the search.
        charges.indices.first { charges[$0].txn == txn }
    }

    /// Whether `observe` reads this fact: most facts (the network's above all) it does
    /// not, and asking is cheaper than lending it.
    @inline(__always)
    static func reads(_ fact: Fact) -> Bool {
        switch fact {
        case .paymentAdded, .paymentCharged, .transactionsDelivered, .transactionFinished,
             .rechargeSent, .coinsCredited, .rechargeRefused, .alreadyCredited:
            return true
        default:
            return false
        }
    }

    /// Reads one fact of the history. Returns the delay after which the auditor wants to
    /// look again (the grace period of a new charge, say), if it wants to.
    mutating func observe(_ e: LogEntry, catalog: Catalog, _ out: inout [LogEntry]) -> VirtualTime? {
        switch e.fact {
        case .paymentAdded(let txn, _, _, let user, let order):
            origins.append(Origin(txn: txn, user: user, order: order))
        case .paymentCharged(let txn, let product, let price):
            let origin = origin(of: txn)
            active.append(charges.count)
            charges.append(ChargeRecord(txn: txn, productId: product, priceCents: price,
                                        buyer: origin?.user ?? "?", order: origin?.order,
                                        chargedAt: e.time))
            return graceMs + 1
        case .transactionsDelivered(let txns, _):
            for txn in txns {
                if let i = chargeIndex(txn), charges[i].handledAt == nil { charges[i].handledAt = e.time }
            }
            return graceMs + 1
        case .transactionFinished(let txn):
            if let i = chargeIndex(txn) { charges[i].finishedAt = e.time }
        case .rechargeSent(let txn, _, _, _, let delivered):
            if let delivered, delivered != txn, let i = chargeIndex(delivered) {
                charges[i].pairedWrongly = true
            }
        case .coinsCredited(let user, _, _, let txn, _, let sender, let via):
            observeCredit(user: user, txn: txn, sender: sender, via: via, at: e.time, &out)
        case .rechargeRefused(let txn, let reason, .attacker):
            open(.replayFraud, .blocked, txn: txn, at: e.time, summary: "replayed receipt of \(txn)",
                 mechanism: "refused: \(reason)", &out)
        case .alreadyCredited(let txn, .attacker):
            open(.replayFraud, .blocked, txn: txn, at: e.time, summary: "replayed receipt of \(txn)",
                 mechanism: "refused: transaction already credited", &out)
        default:
            break
        }
        return nil
    }

    mutating func observeCredit(user: String, txn: String, sender: Sender, via: SendReason,
                                at time: VirtualTime, _ out: inout [LogEntry]) {
        guard let i = chargeIndex(txn) else { return }
        let earlier = charges[i].credits.count
        charges[i].credits.append(.init(user: user, sender: sender, at: time, via: via))
        guard earlier > 0 else { return }
        if sender == .attacker {
            open(.replayFraud, .permanent, txn: txn, at: time,
                 summary: "old receipt of \(txn) credited again to \(user) on a fresh order",
                 mechanism: "coins granted without payment", &out)
        } else {
            open(.doubleCredit, .permanent, txn: txn, at: time,
                 summary: "\(txn) credited \(earlier + 1) times (\(via.words))",
                 mechanism: "coins granted without payment", &out)
        }
    }

    @discardableResult
    mutating func open(_ type: AnomalyType, _ status: AnomalyStatus, txn: String?, at time: VirtualTime,
                       summary: String, mechanism: String?, _ out: inout [LogEntry]) -> Int {
        let id = anomalies.count + 1
        let charge = txn.flatMap(chargeIndex).map { charges[$0] }
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

    mutating func change(_ id: Int, type: AnomalyType, status: AnomalyStatus, mechanism: String?,
                         summary: String? = nil, at time: VirtualTime, _ out: inout [LogEntry]) {
        let i = id - 1
        // Field by field: copying the anomaly costs more than the test.
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
