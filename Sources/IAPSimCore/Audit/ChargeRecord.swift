/// One charge as the auditor knows it: who paid, for what, and every credit it got.
package struct ChargeRecord: Sendable, Hashable {
    package struct Credit: Sendable, Hashable {
        package var user: String
        package var sender: Sender
        package var at: VirtualTime
        package var via: SendReason
        /// The order the server credited it on (a replay's fresh order, a stale pairing's).
        package var order: String? = nil
    }
    package var txn: String
    package var productId: String
    package var priceCents: Int
    /// The merchant user who started the purchase.
    package var buyer: String
    package var order: String?
    package var chargedAt: VirtualTime
    /// When the grace period started: the charge itself when the app was running in the
    /// foreground, else the next launch or foreground (nil until then: docs/world.md, "The rules").
    package var graceFrom: VirtualTime?
    package var handledAt: VirtualTime?
    package var finishedAt: VirtualTime?
    package var credits: [Credit] = []
    /// The other transaction the app sent (or meant to send) for this payment's order.
    package var pairedWith: String?
    /// The what-if at the verdict found that nothing, not even a clean relaunch, credits it.
    package var stuck = false
    /// The anomaly about this charge's own credit (lost, missed, duplicate, wrong account).
    package var anomalyId: Int?
    /// When Apple refunded it; whether the server took its coins back; the anomaly about
    /// coins kept for it (`refund-unclawed`).
    package var refundedAt: VirtualTime?
    package var clawedBack = false
    package var refundAnomalyId: Int?

    /// What the buyer paid, net of a refund.
    package var paidCents: Int { refundedAt == nil ? priceCents : 0 }
    /// What one credit of it is worth to the account that got it: nothing once clawed back.
    package var creditCents: Int { clawedBack ? 0 : priceCents }

    /// A recharge was sent (or meant) for this payment with another transaction's id.
    package var pairedWrongly: Bool { pairedWith != nil }
}
