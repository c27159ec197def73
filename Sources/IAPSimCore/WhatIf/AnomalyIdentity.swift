/// Which anomaly a replay's anomaly is: the same type about the same purchase. Ids may
/// shift between a run and its replay (an input removed, a policy changed), so a
/// transaction is named by its place among the App Store's transactions (the Nth purchase
/// that reached the store) and an order by its place among the orders of its creator (the
/// app's Nth order, the attacker's Nth); an id the world does not hold is kept as it is (a
/// forged transaction).
package struct AnomalyIdentity: Sendable, Hashable {
    package enum Ref: Sendable, Hashable {
        case purchase(Int)
        case order(Sender, Int)
        /// An attacker's order, by the input (step index) of the attack that made it.
        case attack(Int)
        case id(String)
    }

    package var type: AnomalyType
    package var txn: Ref?
    package var order: Ref?
    /// The attacker's order it was credited on, when there is one.
    package var attack: Ref?
    /// Its place among the run's anomalies with the same type, transaction and orders.
    var occurrence = 0

    /// The identity of `anomaly` in the world `sim` it was found in. `attacks`: the indices
    /// of the attack inputs (`replay`, `forge`) the world played, in order: the attacker's
    /// Nth order is named by the Nth of them.
    package init(_ anomaly: Anomaly, in sim: Simulation, attacks: [Int] = []) {
        type = anomaly.type
        txn = anomaly.txn.map { id in
            sim.store.transactions.firstIndex { $0.id == id }.map(Ref.purchase) ?? .id(id)
        }
        order = anomaly.order.map { Self.ref(order: $0, in: sim, attacks: attacks) }
        let fresh = anomaly.involved.first { id in
            id != anomaly.order && sim.server.orders.contains { $0.id == id && $0.createdBy == .attacker }
        }
        attack = fresh.map { Self.ref(order: $0, in: sim, attacks: attacks) }
    }

    static func ref(order id: String, in sim: Simulation, attacks: [Int]) -> Ref {
        guard let o = sim.server.orders.first(where: { $0.id == id }) else { return .id(id) }
        let rank = sim.server.orders.prefix { $0.id != id }.filter { $0.createdBy == o.createdBy }.count
        if o.createdBy == .attacker, rank < attacks.count { return .attack(attacks[rank]) }
        return .order(o.createdBy, rank)
    }

    /// The identities of every anomaly of `sim`, in order, each numbered among its equals.
    package static func all(in sim: Simulation, attacks: [Int] = []) -> [AnomalyIdentity] {
        var out: [AnomalyIdentity] = []
        for a in sim.auditor.anomalies {
            var identity = AnomalyIdentity(a, in: sim, attacks: attacks)
            identity.occurrence = out.filter { $0 == identity }.count
            out.append(identity)
        }
        return out
    }

    /// True when `other` is this anomaly found again. A transaction decides when both name
    /// one; the order breaks a tie between several about one transaction (one receipt
    /// replayed twice) and decides when there is no transaction.
    /// True when both are about the same purchase (its transaction, or else its order).
    func samePurchase(as other: AnomalyIdentity) -> Bool {
        if let txn, let theirs = other.txn { return txn == theirs }
        if let order, let theirs = other.order { return order == theirs }
        return false
    }

    func loosely(_ other: AnomalyIdentity) -> Bool {
        // A blocked replay names no fresh order: it is any of the attacks on its transaction.
        guard type == other.type, attack == nil || other.attack == nil || attack == other.attack else { return false }
        // An attack is named by the input that made it: which receipt it replayed may change.
        if attack != nil && other.attack != nil { return true }
        if let txn, let theirs = other.txn { return txn == theirs }
        if let order, let theirs = other.order { return order == theirs }
        return txn == nil && other.txn == nil
    }
}

/// The verdict of one replay: every anomaly it found, by identity, with how it ended.
package struct ReplayVerdict: Sendable {
    package var anomalies: [(identity: AnomalyIdentity, status: AnomalyStatus)]
    /// For each anomaly, the last input played at or before it opened (-1: none), which
    /// tells apart anomalies alike in all else when inputs are removed.
    var anchors: [Int] = []
    /// The purchases (by place among the App Store's transactions, as `AnomalyIdentity.Ref`
    /// names them) credited at least once: what was delivered.
    var delivered: Set<Int> = []
    /// What customers paid for charges and did not get, in cents, netted per account
    /// (`Auditor.paidNotDeliveredCents` without the subscription timelines, whose money runs
    /// with time up to the verdict's moment: a subscription's purchase is judged by its
    /// anomaly, which must end well).
    var paidNotDeliveredCents = 0
    /// For each anomaly, when its status last changed and by what mechanism: two replays that
    /// end it alike but by another path (a notification instead of a reconciliation) differ.
    var trails: [String] = []

    package init(_ sim: Simulation, attacks: [Int] = []) {
        anomalies = Array(zip(AnomalyIdentity.all(in: sim, attacks: attacks), sim.auditor.anomalies.map(\.status)))
        trails = sim.auditor.anomalies.map { "\($0.status) \($0.changedAt) \($0.mechanism ?? "")" }
        for c in sim.auditor.charges where !c.credits.isEmpty {
            if let n = sim.store.index(of: c.txn) { delivered.insert(n) }
        }
        paidNotDeliveredCents = sim.auditor.netPerAccount.reduce(0) { $0 + max(0, $1.paid - $1.delivered) }
    }

    /// The verdict of `sim`, whose inputs ran at `stepTimes`, without those at `removed`.
    package init(_ sim: Simulation, attacks: [Int], stepTimes: [VirtualTime], removed: Set<Int>) {
        self.init(sim, attacks: attacks)
        anchors = sim.auditor.anomalies.map { a in
            stepTimes.indices.last { !removed.contains($0) && stepTimes[$0] <= a.openedAt } ?? -1
        }
    }

    /// True when `identity` (opened after input `anchor`) opens in this replay: when the
    /// run had others alike (`alike`), only one opened after the same input counts.
    package func opens(_ identity: AnomalyIdentity, anchor: Int, alike: Bool) -> Bool {
        guard alike else { return status(of: identity) != nil }
        var plain = identity
        plain.occurrence = 0
        return anomalies.indices.contains { i in
            var theirs = anomalies[i].identity
            theirs.occurrence = 0
            return (theirs == plain || theirs.loosely(plain)) && i < anchors.count && anchors[i] == anchor
        }
    }

    /// How `identity` ended in this replay, or nil when it never opened.
    package func status(of identity: AnomalyIdentity) -> AnomalyStatus? {
        if let exact = anomalies.first(where: { $0.identity == identity }) { return exact.status }
        let alike = anomalies.filter { $0.identity.loosely(identity) }
        return alike.isEmpty ? nil : alike[min(identity.occurrence, alike.count - 1)].status
    }

    /// How `identity` ended and by what path (`trails`), or nil when it never opened.
    func trail(of identity: AnomalyIdentity) -> String? {
        if let exact = anomalies.firstIndex(where: { $0.identity == identity }) { return trails[exact] }
        let alike = anomalies.indices.filter { anomalies[$0].identity.loosely(identity) }
        return alike.isEmpty ? nil : trails[alike[min(identity.occurrence, alike.count - 1)]]
    }

    /// True when `identity` opened and ended `open` or `permanent`.
    func endsBadly(_ identity: AnomalyIdentity) -> Bool {
        status(of: identity)?.isUnresolved ?? false
    }

    /// True when `identity`, which ends badly in `run`, ends well in this replay (a policy
    /// changed) with what it concerns still delivered.
    /// With `opening`: when it never opens in this replay at all.
    func prevents(_ identity: AnomalyIdentity, as run: ReplayVerdict, opening: Bool = false) -> Bool {
        (opening ? status(of: identity) == nil : !endsBadly(identity)) && keepsDelivering(identity, as: run)
    }

    /// True when this replay (a policy changed) delivers what `run` (the run's own inputs
    /// and policy) delivered: no more paid and not delivered, and each purchase `identity`
    /// concerns that the run credited still credited. A change that ends an anomaly only by
    /// delivering less (a server that refuses every purchase has no refund to take back) does
    /// not prevent it (docs/world.md, "Why and what if").
    func keepsDelivering(_ identity: AnomalyIdentity, as run: ReplayVerdict) -> Bool {
        guard paidNotDeliveredCents <= run.paidNotDeliveredCents else { return false }
        guard case .purchase(let n) = identity.txn, run.delivered.contains(n) else { return true }
        return delivered.contains(n)
    }

    /// The anomalies that end badly here and are not among `before` (identities that ended
    /// badly in the run).
    package func newBadOnes(comparedWith before: [AnomalyIdentity]) -> [AnomalyIdentity] {
        anomalies.filter { a in
            a.status.isUnresolved && !before.contains { $0 == a.identity || $0.loosely(a.identity) }
        }.map(\.identity)
    }
}
