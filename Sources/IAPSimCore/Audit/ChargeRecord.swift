/// One charge as the auditor knows it: who paid, for what, and every credit it got.
public struct ChargeRecord: Sendable, Hashable {
    public struct Credit: Sendable, Hashable {
        public var user: String
        public var sender: Sender
        public var at: VirtualTime
        public var via: SendReason
        /// The order the server credited it on (a replay's fresh order, a stale pairing's).
        public var order: String? = nil
    }
    public var txn: String
    public var productId: String
    public var priceCents: Int
    /// The merchant user who started the purchase.
    public var buyer: String
    public var order: String?
    public var chargedAt: VirtualTime
    /// When the grace period started: the charge itself when the app was running in the
    /// foreground, else the next launch or foreground (nil until then: TRUTH.md C6).
    package var graceFrom: VirtualTime?
    package var handledAt: VirtualTime?
    package var finishedAt: VirtualTime?
    public var credits: [Credit] = []
    /// The other transaction the app sent (or meant to send) for this payment's order.
    package var pairedWith: String?
    /// The what-if at the verdict found that nothing, not even a clean relaunch, credits it.
    package var stuck = false
    /// The anomaly about this charge's own credit (lost, missed, duplicate, wrong account).
    package var anomalyId: Int?
    /// When Apple refunded it; whether the server took its coins back; the anomaly about
    /// coins kept for it (`refund-unclawed`).
    public var refundedAt: VirtualTime?
    public var clawedBack = false
    package var refundAnomalyId: Int?

    /// What the buyer paid, net of a refund.
    public var paidCents: Int { refundedAt == nil ? priceCents : 0 }
    /// What one credit of it is worth to the account that got it: nothing once clawed back.
    public var creditCents: Int { clawedBack ? 0 : priceCents }

    /// A recharge was sent (or meant) for this payment with another transaction's id.
    package var pairedWrongly: Bool { pairedWith != nil }
}
