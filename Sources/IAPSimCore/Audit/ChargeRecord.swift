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
    package var handledAt: VirtualTime?
    package var finishedAt: VirtualTime?
    public var credits: [Credit] = []
    /// A recharge was sent for this payment with another transaction's id.
    package var pairedWrongly = false
    /// The anomaly about this charge's own credit (lost, missed, duplicate, wrong account).
    package var anomalyId: Int?
}
