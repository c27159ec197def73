/// The refund loop (docs/world.md, "Refunds"): Apple refunds all or a share of a charge,
/// asks the merchant for consumption data when a customer asks for a refund, declines a
/// request, or reverses a refund it gave. Each reaches the merchant server as a notification.
extension AppStore {
    /// `refund TXN ... percent N`: Apple gives the customer N percent of the price back
    /// (`REFUND_PRORATED` below 100: the share applies across the quantity). The transaction
    /// gets its `revocationDate`; a `REFUND` notification goes out. `refund TXN remaining`
    /// (`Command.remainingShare`) refunds the unused share of a subscription's current
    /// period, to the whole percent (Apple: "based on time remaining in the subscription
    /// period").
    mutating func refund(_ txn: String, percent asked: Int, _ out: inout Outbox) {
        guard let t = transaction(txn), let product = catalog.product(t.productId) else { return }
        var percent = asked
        if asked == Command.remainingShare {
            percent = unusedPercent(txn, at: out.now)
            guard percent > 0 else {
                return out.log(
                    .appStore,
                    .noted(
                        "refund of \(txn) remaining: nothing to refund (not the current period of a subscription,"
                            + " or the period is over)"))
            }
        }
        update(txn) {
            $0.refundedAt = out.now
            $0.refundPercent = percent
        }
        pendingRefundRequests.removeAll { $0 == txn }
        let cents = AppStore.refundCents(product.priceCents, percent: percent)
        out.log(.appStore, .refundIssued(txn: txn, product: t.productId, priceCents: cents, percent: percent))
        if product.subscription != nil { refundSubscriptionPeriod(txn, cents: cents, &out) }
        notify(.refund, txn, &out)
    }

    /// The money a refund of `percent` gives back: the price times N/100, rounded half up
    /// to the cent.
    package static func refundCents(_ priceCents: Int, percent: Int) -> Int { (priceCents * percent + 50) / 100 }

    /// `refund-request TXN [reason R]`: the customer asks Apple for a refund. For a
    /// consumable or an auto-renewable subscription Apple sends `CONSUMPTION_REQUEST` (with
    /// `consumptionRequestReason`) and waits (practitioners report 12 h) for the merchant's
    /// consumption information; for a subscription the App Store also turns auto-renew off
    /// (`DID_CHANGE_RENEWAL_STATUS`/`AUTO_RENEW_DISABLED`, Apple's subtype text). Its
    /// decision comes later (`refund` or `refund-decline`).
    mutating func refundRequested(_ txn: String, reason: ConsumptionRequestReason, _ out: inout Outbox) {
        guard let t = transaction(txn), let product = catalog.product(t.productId) else { return }
        let asks = product.kind == .consumable || product.subscription != nil
        if !pendingRefundRequests.contains(txn) { pendingRefundRequests.append(txn) }
        out.log(
            .appStore,
            .noted(
                "refund of \(txn) (\(t.productId)) requested by the customer"
                    + (asks
                        ? "; CONSUMPTION_REQUEST (\(reason.rawValue)): Apple takes consumption information for 12 h"
                            + " (practitioners' figure)"
                        : "")))
        if asks { notify(.consumptionRequest, txn, reason: reason, &out) }
        if product.subscription != nil, let i = subscriptionIndex(ofTransaction: txn), subscriptions[i].autoRenew,
            subscriptions[i].status != .expired, subscriptions[i].status != .revoked
        {
            out.log(.appStore, .noted("the App Store turns auto-renew off after the refund request"))
            book.subscriptions[i].autoRenew = false
            noteChange(i, .autoRenewOff, txn: nil, &out)
            notifySubscription(.didChangeRenewalStatus, .autoRenewDisabled, i, &out)
        }
    }

    /// `refund-decline TXN`: Apple declines the request; `REFUND_DECLINED` goes out.
    mutating func refundDeclined(_ txn: String, _ out: inout Outbox) {
        pendingRefundRequests.removeAll { $0 == txn }
        out.log(.appStore, .noted("refund request for \(txn) declined: nothing is refunded"))
        notify(.refundDeclined, txn, &out)
    }

    /// `refund-reverse TXN`: Apple reverses the refund: the customer has paid again, the
    /// revocation fields disappear, `REFUND_REVERSED` goes out. A subscription's period is
    /// paid again: a revoked subscription is reinstated.
    mutating func refundReversed(_ txn: String, _ out: inout Outbox) {
        guard transaction(txn)?.refundedAt != nil else { return }
        update(txn) {
            $0.refundedAt = nil
            $0.refundPercent = 0
        }
        out.log(.appStore, .refundReversed(txn: txn))
        reinstateSubscriptionPeriod(txn, &out)
        notify(.refundReversed, txn, &out)
    }

    /// Consumption information the merchant sent (Send Consumption Information, v2).
    func consumptionReceived(_ info: ConsumptionInfo, _ out: inout Outbox) {
        out.log(
            .appStore,
            .noted(
                "consumption information for \(info.txn): \(info.words); Apple's decision stays its own"))
    }

    /// The charges a `refund` can name: charged (money taken) and not refunded yet.
    var refundable: [StoreTransaction] {
        transactions.filter { $0.chargedAt != nil && $0.originalId == nil && $0.refundedAt == nil }
    }

    /// The refunds in effect, which `refund-reverse` can name.
    var reversible: [StoreTransaction] { transactions.filter { $0.refundedAt != nil } }

    /// Get Transaction History as the server calls it: every transaction of the Apple
    /// customer that took money, oldest first, finished consumables and refunded ones
    /// included in v2; v1 omits finished consumables; a job that reads only the first page
    /// gets the first 20 (`hasMore` ignored).
    func historyList(_ policy: Policy) -> (list: [StoreTransaction], hasMore: Bool) {
        var list = transactions.filter { inHistory($0, policy) }
        let more = list.count > AppStore.historyPageSize
        if policy.serverHistoryPages == .first && more { list.removeLast(list.count - AppStore.historyPageSize) }
        return (list, more)
    }

    /// Whether Get Transaction History lists `t` (v1 leaves out finished consumables).
    func inHistory(_ t: StoreTransaction, _ policy: Policy) -> Bool {
        guard t.chargedAt != nil else { return false }
        guard policy.serverHistory == .v1, t.finished else { return true }
        return catalog.kind(of: t.productId) != .consumable
    }

    /// Transactions in one page of Get Transaction History (Apple).
    static let historyPageSize = 20

    /// Get Transaction History's answer, signed now.
    func history(now: VirtualTime, policy: Policy) -> [SignedTransaction] {
        historyList(policy).list.compactMap { sign($0, now: now) }
    }
}

/// Send Consumption Information (`PUT /inApps/v2/transactions/consumption/{id}`), from the
/// server's own records.
package struct ConsumptionInfo: Sendable, Hashable {
    package var txn: String
    /// `DELIVERED` when the server credited it, `UNDELIVERED_OTHER` otherwise.
    var deliveryStatus: String
    /// `GRANT_FULL`, `GRANT_PRORATED` or `DECLINE`.
    var refundPreference: String
    /// Whether a free sample or trial was given before the purchase (required by Apple).
    var sampleContentProvided = false
    /// `consumptionPercentage` in milliunits: the consumed share, sent with
    /// `GRANT_PRORATED` for a one-time product (never for an auto-renewable subscription:
    /// Apple computes it).
    var consumptionPercentage: Int?

    /// The fields as the log names them.
    var words: String {
        "customerConsented true, sampleContentProvided \(sampleContentProvided), deliveryStatus \(deliveryStatus)"
            + (consumptionPercentage.map { ", consumptionPercentage \($0)" } ?? "")
            + ", refundPreference \(refundPreference)"
    }
}
