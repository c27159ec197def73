import IAPSimCore

extension Expectations {
    /// What a settled world shows, as an `expect` block that a run of the same steps passes:
    /// charges, every account's balance, the anomalies grouped by type and status in the
    /// order they first appeared, the unresolved count and the queue. Explore's findings and
    /// the UI's saved sessions both write it.
    package static func verdict(of sim: Simulation) -> Expectations {
        var groups: [AnomalyExpectation] = []
        for a in sim.auditor.anomalies {
            if let i = groups.firstIndex(where: { $0.type == a.type && $0.status == a.status }) {
                groups[i].count! += 1
            } else {
                groups.append(AnomalyExpectation(type: a.type, status: a.status, count: 1))
            }
        }
        var credited: [String: Int] = [:]
        for u in sim.users { credited[u] = sim.server.balance(of: u) }
        return Expectations(
            charged: sim.auditor.charges.count + sim.subscriptionCharges, credited: credited,
            anomalies: groups, unresolved: sim.auditor.unresolved.count,
            queue: sim.store.queue.count)
    }
}
