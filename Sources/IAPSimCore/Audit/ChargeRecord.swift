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
    var graceFrom: VirtualTime?
    var handledAt: VirtualTime?
    var finishedAt: VirtualTime?
    package var credits: [Credit] = []
    /// The other transaction the app sent (or meant to send) for this payment's order.
    var pairedWith: String?
    /// The what-if at the verdict found that nothing, not even a clean relaunch, credits it.
    package var stuck = false
    /// The anomaly about this charge's own credit (lost, missed, duplicate, wrong account).
    package var anomalyId: Int?
    /// When Apple refunded it; whether the server took its coins back; the anomaly about
    /// coins kept for it (`refund-unclawed`).
    package var refundedAt: VirtualTime?
    package var clawedBack = false
    var refundAnomalyId: Int?
    /// The money the refund in effect gave back (all of the price, or its refunded share).
    package var refundCents = 0
    /// Whether the refund in effect asks for coins back (a prorated refund of an entitlement
    /// does not): a credit made after it is then coins nobody paid for.
    var refundOwesClawback = true
    /// What the server took back for it (negative: given back after a reversal), per
    /// account, in the value of the coins taken.
    package var taken: [Taken] = []
    /// When the server heard that Apple reversed its refund.
    var reversalHeardAt: VirtualTime?
    /// The anomaly about more taken back than refunded (`refund-overclawed`).
    var overclawAnomalyId: Int?

    package struct Taken: Sendable, Hashable {
        package var user: String
        package var coins: Int
        package var cents: Int
    }

    /// What the buyer paid, net of the refund in effect.
    var paidCents: Int { priceCents - (refundedAt == nil ? 0 : refundCents) }
    /// What one credit of it is worth to the account that got it (what was taken back is
    /// counted apart, in `taken`).
    var creditCents: Int { priceCents }
    /// The value taken back and not given back.
    var takenCents: Int { taken.reduce(0) { $0 + $1.cents } }
    /// The whole units one credit of it grants: its coins, or 1 for an entitlement.
    var units = 1
    /// The refunded share in effect, in percent (0 once reversed).
    var refundPercent = 0
    /// The units taken back and not given back (an entitlement: 1 while taken).
    var takenUnits: Int {
        var n = 0
        for t in taken { n += t.coins != 0 ? t.coins : t.cents > 0 ? 1 : t.cents < 0 ? -1 : 0 }
        return n
    }
    /// More was taken back than the refund in effect asks, by a whole unit or more: a
    /// share that rounds within one unit of the exact share (`units` times the percent) is
    /// what whole units force (docs/world.md, "Refunds"), not an over-clawback.
    package var overclawed: Bool {
        takenUnits * 100 >= (refundedAt == nil ? 0 : units * refundPercent) + 100
    }
    /// The refund in effect asks for at least one whole unit back: a smaller exact share
    /// may round down to nothing without blame.
    var refundOwesAUnit: Bool { units * refundPercent >= 100 }

    /// A recharge was sent (or meant) for this payment with another transaction's id.
    var pairedWrongly: Bool { pairedWith != nil }
}
