/// Buying again what the Apple ID already has: a non-consumable it owns (StoreKit 2 returns
/// the existing transaction), a consumable whose earlier transaction is unfinished
/// (StoreKit 1 does not charge again and delivers the unfinished one).
extension AppStore {
    /// Whether the purchase sheet would simply charge the next payment (no fault armed).
    var chargesNextPayment: Bool { !outage && !interruptNext && nextFailure == nil && !askToBuy }

    /// StoreKit 2, `purchase()` of a non-consumable the Apple ID owns: `.success` with the
    /// existing transaction (same `transactionId`, its first `appAccountToken`), no charge
    /// and no new transaction. Returns that transaction's id, delivered to the purchase call
    /// when the sheet closes; nil when the payment goes its usual way.
    mutating func returnOwned(_ product: String, _ out: inout Outbox) -> String? {
        guard out.policy.storekit == .two, chargesNextPayment,
            catalog.kind(of: product) == .nonConsumable, let original = owner(of: product)
        else { return nil }
        out.log(
            .appStore,
            .noted(
                "\(product) already owned: purchase() returns the existing transaction \(original)"
                    + " (no charge, no new transaction)"))
        out.after(AppStore.purchaseSheetMs, .storeDeliver(txns: [original], redelivery: false, atForeground: false))
        return original
    }

    /// StoreKit 1, a new payment for a consumable whose earlier transaction is unfinished:
    /// not charged; StoreKit alerts "already bought" and delivers the unfinished transaction
    /// again; the new payment leaves nothing of its own (practitioners' reports; Apple has
    /// no page on it). StoreKit 2 documents nothing: the simulator charges again and says
    /// so. Returns the unfinished transaction's id when the payment is blocked.
    /// The rule holds during an App Store outage too (`store-outage`): the unfinished
    /// transaction is on the device's queue, so StoreKit needs no server to refuse the
    /// payment and deliver it again (docs/world.md, "An unfinished consumable blocks buying it
    /// again").
    mutating func blockedByUnfinished(_ product: String, _ out: inout Outbox) -> String? {
        guard !interruptNext, nextFailure == nil, !askToBuy, catalog.kind(of: product) == .consumable,
            let i = openIndices.first(where: { i in
                let t = transactions[i]
                return !t.finished && t.productId == product && t.state == .purchased
            })
        else { return nil }
        let unfinished = transactions[i].id
        if out.policy.storekit == .two {
            out.log(
                .appStore,
                .noted(
                    "\(product) bought again while \(unfinished) is unfinished: charged again"
                        + " (the simulator's assumption: Apple documents nothing for StoreKit 2)"))
            return nil
        }
        out.log(
            .appStore,
            .noted(
                "\(product): \"This In-App Purchase has already been bought. It will be restored for free.\""
                    + " \(unfinished) is unfinished: no charge, it is delivered again"))
        rebuyDelivery = unfinished
        out.after(AppStore.purchaseSheetMs, .storeDeliver(txns: [unfinished], redelivery: true, atForeground: false))
        return unfinished
    }
}
