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
    /// What went wrong, in one line.
    public var summary: String
}
