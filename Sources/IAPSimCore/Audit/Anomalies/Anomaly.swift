/// One anomaly the auditor found.
package struct Anomaly: Sendable, Hashable, Identifiable {
    package var id: Int
    package var type: AnomalyType
    package var status: AnomalyStatus
    package var txn: String?
    package var order: String?
    package var user: String?
    package var openedAt: VirtualTime
    var changedAt: VirtualTime
    /// How it was resolved or blocked, or why it is permanent, in a trainee's words.
    package var mechanism: String?
    /// What went wrong, in one line naming its transactions and orders.
    package var summary: String
    /// Every transaction and order involved, its own first: the stale transaction sent in
    /// its place, the orders a transaction was credited on.
    package var involved: [String] = []
}
