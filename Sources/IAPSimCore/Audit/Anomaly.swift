/// One anomaly the auditor found.
public struct Anomaly: Sendable, Hashable, Identifiable {
    public var id: Int
    public var type: AnomalyType
    public var status: AnomalyStatus
    public var txn: String?
    public var order: String?
    public var user: String?
    public var openedAt: VirtualTime
    public var changedAt: VirtualTime
    /// How it was resolved or blocked, or why it is permanent, in a trainee's words.
    public var mechanism: String?
    /// What went wrong, in one line naming its transactions and orders.
    public var summary: String
    /// Every transaction and order involved, its own first: the stale transaction sent in
    /// its place, the orders a transaction was credited on.
    public var involved: [String] = []
}
