/// The customer's changes to a subscription (auto-renew, plan changes) and Apple's refunds
/// of subscription transactions (docs/world.md, "Subscriptions").
extension AppStore {
    /// The subscription still running (not expired, not revoked), if any.
    var liveSubscription: Int? {
        subscriptionBook?.subscriptions.lastIndex { $0.status != .expired && $0.status != .revoked }
    }

    /// `auto-renew off|on`: `DID_CHANGE_RENEWAL_STATUS`.
    mutating func setAutoRenew(_ on: Bool, _ out: inout Outbox) {
        guard let i = liveSubscription else { return }
        book.subscriptions[i].autoRenew = on
        noteChange(i, on ? .autoRenewOn : .autoRenewOff, txn: nil, &out)
        notifySubscription(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled, i, &out)
    }

    /// `change-plan PRODUCT`: an upgrade (a higher level: level 1 is the highest) takes
    /// effect at once, with a prorated refund of the rest of the old period and a new
    /// transaction; a downgrade or a crossgrade (same level, other duration) at the next
    /// renewal. Changing back to the current product cancels a pending change.
    mutating func changePlan(to id: String, _ out: inout Outbox) {
        guard let i = liveSubscription, let product = catalog.product(id), let terms = product.subscription,
            let current = catalog.product(subscriptions[i].productId)?.subscription
        else { return }
        let s = subscriptions[i]
        guard terms.level < current.level else {
            book.subscriptions[i].autoRenewProductId = id
            noteChange(i, .planChangeScheduled, txn: nil, &out)
            // Apple sends DOWNGRADE for a change that waits for the next renewal; changing
            // back to the current product sends the notification without a subtype.
            notifySubscription(.didChangeRenewalPref, id == s.productId ? nil : .downgrade, i, &out)
            return
        }
        // The rest of the old period is refunded, prorated to the millisecond.
        if let last = s.periods.last, last.end > out.now {
            let length = last.end - last.start
            let refund = length > 0 ? (last.priceCents * (last.end - out.now) + length / 2) / length : 0
            book.subscriptions[i].periods[s.periods.count - 1].end = out.now
            out.log(
                .appStore,
                .noted(
                    "upgrade from \(s.productId): \(formatMoney(refund)) refunded for the rest of the period"
                        + " (prorated; \(last.transactionId) ends now)"))
        }
        let end = terms.period.end(after: out.now)
        let t = newTransaction(
            product: id, username: transaction(s.originalTransactionId)?.applicationUsername,
            now: out.now, outcome: .charge)
        update(t.id) {
            $0.state = .purchased
            $0.chargedAt = out.now
            $0.subscription = SubscriptionFields(
                originalTransactionId: s.originalTransactionId, expiresAt: end,
                webOrderLineItemId: Self.webOrderLineItemId(s.originalTransactionId, s.periods.count),
                reason: .purchase, group: s.group)
        }
        book.subscriptions[i].periods.append(
            SubscriptionPeriod(
                start: out.now, end: end, productId: id, priceCents: product.priceCents, transactionId: t.id))
        book.subscriptions[i].productId = id
        book.subscriptions[i].autoRenewProductId = id
        book.subscriptions[i].expiresAt = end
        book.subscriptions[i].latestTransactionId = t.id
        if s.status == .grace {
            book.subscriptions[i].status = .active
            book.subscriptions[i].gracePeriodExpiresAt = nil
            book.subscriptions[i].retryStartedAt = nil
        }
        noteChange(i, .upgraded, txn: t.id, &out)
        out.after(0, .storeDeliver(txns: [t.id], redelivery: false, atForeground: false))
        notifySubscription(.didChangeRenewalPref, .upgrade, i, &out)
        armClock(i, at: end, &out)
    }

    /// Apple refunded a subscription transaction: its period is marked refunded; a refund of
    /// the current period revokes the subscription (status 5) until a new purchase, one of
    /// an earlier period changes no access.
    mutating func refundSubscriptionPeriod(_ txn: String, _ out: inout Outbox) {
        guard let i = subscriptionIndex(ofTransaction: txn),
            let k = subscriptions[i].periods.firstIndex(where: { $0.transactionId == txn })
        else { return }
        book.subscriptions[i].periods[k].refundedAt = out.now
        let s = subscriptions[i]
        guard s.latestTransactionId == txn, s.status != .expired, s.status != .revoked else {
            return out.log(
                .appStore, .noted("\(txn) was an earlier period of \(s.originalTransactionId): access unchanged"))
        }
        book.subscriptions[i].status = .revoked
        book.subscriptions[i].gracePeriodExpiresAt = nil
        noteChange(i, .revoked, txn: txn, &out)
    }
}
