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
    ///
    /// With `code`, the change is an offer code's for another product of the group, which
    /// Apple handles as a plan change (Developer Forums 756304: "the standard plan change logic
    /// will apply"): an upgrade's new transaction is the offer's first period, a downgrade's or
    /// crossgrade's renewal is at the offer, and the notification is `OFFER_REDEEMED` /
    /// `UPGRADE` or `DOWNGRADE` where a plain change sends `DID_CHANGE_RENEWAL_PREF`.
    mutating func changePlan(to id: String, code: OfferCode? = nil, _ out: inout Outbox) {
        guard let i = liveSubscription, let product = catalog.product(id), let terms = product.subscription,
            let current = catalog.product(subscriptions[i].productId)?.subscription
        else { return }
        let s = subscriptions[i]
        guard terms.level < current.level else {
            book.subscriptions[i].autoRenewProductId = id
            if let code {
                book.subscriptions[i].introOffer = code.offer
                book.subscriptions[i].introPeriodsLeft = code.offer.charges
                book.subscriptions[i].introOfferProductId = id
            }
            noteChange(i, .planChangeScheduled, txn: nil, &out)
            // Apple sends DOWNGRADE for a change that waits for the next renewal; changing
            // back to the current product sends the notification without a subtype.
            notifySubscription(
                code == nil ? .didChangeRenewalPref : .offerRedeemed, id == s.productId ? nil : .downgrade, i, &out)
            return
        }
        // The rest of the old period is refunded, prorated to the millisecond; the replaced
        // transaction carries `isUpgraded: true` wherever it is signed again.
        update(s.latestTransactionId) { $0.subscription?.isUpgraded = true }
        if let last = s.periods.last, last.end > out.now {
            let refund = Self.unusedShare(last, at: out.now)
            book.subscriptions[i].periods[s.periods.count - 1].end = max(out.now, last.start)
            book.subscriptions[i].periods[s.periods.count - 1].refundCents = refund
            out.log(
                .appStore,
                .noted(
                    "upgrade from \(s.productId): \(formatMoney(refund)) refunded for the rest of the period"
                        + " (prorated; \(last.transactionId) ends now)"))
        }
        let offer = code?.offer
        let end = periodEnd(offer?.chargedSpan ?? terms.period, after: out.now)
        let t = chargePeriod(
            i, product, from: out.now, to: end, username: transaction(s.originalTransactionId)?.applicationUsername,
            reason: .purchase, offer: offer, &out)
        book.subscriptions[i].autoRenewProductId = id
        // After a free trial of days the paid periods end on the day the trial ended.
        book.subscriptions[i].anchorDay = SubscriptionCalendar.date(offer == nil ? out.now : end).day
        // An upgrade ends what was left of an introductory offer; a code's offer starts with it.
        book.subscriptions[i].introOffer = offer ?? s.introOffer
        book.subscriptions[i].introPeriodsLeft = offer.map { $0.charges - 1 } ?? 0
        book.subscriptions[i].introOfferProductId = nil
        if s.status == .grace {
            book.subscriptions[i].status = .active
            book.subscriptions[i].gracePeriodExpiresAt = nil
            book.subscriptions[i].retryStartedAt = nil
            endBillingRetry(i, at: out.now)
        }
        noteChange(i, .upgraded, txn: t.id, &out)
        out.after(0, .storeDeliver(txns: [t.id], redelivery: false, atForeground: false))
        notifySubscription(code == nil ? .didChangeRenewalPref : .offerRedeemed, .upgrade, i, &out)
        armRenewal(i, &out)
    }

    /// Apple refunded a subscription transaction (`cents` of it): its period is marked
    /// refunded; a refund of the current period revokes the subscription (status 5) until a
    /// new purchase or a reversal, one of an earlier period changes no access.
    mutating func refundSubscriptionPeriod(_ txn: String, cents: Int, _ out: inout Outbox) {
        guard let i = subscriptionIndex(ofTransaction: txn),
            let k = subscriptions[i].periods.firstIndex(where: { $0.transactionId == txn })
        else { return }
        book.subscriptions[i].periods[k].refundedAt = out.now
        book.subscriptions[i].periods[k].refundCents = cents
        let s = subscriptions[i]
        guard s.latestTransactionId == txn, s.status != .expired, s.status != .revoked else {
            return out.log(
                .appStore, .noted("\(txn) was an earlier period of \(s.originalTransactionId): access unchanged"))
        }
        book.subscriptions[i].statusBeforeRevoke = s.status
        book.subscriptions[i].status = .revoked
        noteChange(i, .revoked, txn: txn, &out)
    }

    /// Apple reversed the refund of a subscription period: the customer has paid it again.
    /// The period counts as paid, and a subscription its refund revoked gets back the status
    /// it had (Apple: the revocation fields "don't appear if the refund is reversed"); if its
    /// renewal fell due while revoked, it renews now (the simulator's choice of instant).
    mutating func reinstateSubscriptionPeriod(_ txn: String, _ out: inout Outbox) {
        guard let i = subscriptionIndex(ofTransaction: txn),
            let k = subscriptions[i].periods.firstIndex(where: { $0.transactionId == txn })
        else { return }
        book.subscriptions[i].periods[k].refundedAt = nil
        book.subscriptions[i].periods[k].refundCents = 0
        let s = subscriptions[i]
        guard s.status == .revoked, s.latestTransactionId == txn else { return }
        book.subscriptions[i].status = s.statusBeforeRevoke ?? .active
        book.subscriptions[i].statusBeforeRevoke = nil
        noteChange(i, .reinstated, txn: txn, &out)
        if s.clockAt == nil { armRenewal(i, &out) }
    }

    /// The unused share of a period at `now`, in cents: its price prorated to the
    /// millisecond over what is left of it.
    static func unusedShare(_ p: SubscriptionPeriod, at now: VirtualTime) -> Int {
        let length = p.end - p.start
        guard length > 0, p.end > now else { return 0 }
        return (p.priceCents * (p.end - max(now, p.start)) + length / 2) / length
    }

    /// The unused share of `txn`'s period at `now`, to the whole percent (0: none left, or
    /// not the current period of a subscription).
    func unusedPercent(_ txn: String, at now: VirtualTime) -> Int {
        guard let i = subscriptionIndex(ofTransaction: txn),
            let p = subscriptions[i].periods.last(where: { $0.transactionId == txn }), p.end > now
        else { return 0 }
        let length = max(1, p.end - p.start)
        return Int(min(100, max(1, ((p.end - max(now, p.start)) * 100 + length / 2) / length)))
    }

    /// Closes subscription `i`'s billing retry, if one lasts, at `t` (kept as history).
    mutating func endBillingRetry(_ i: Int, at t: VirtualTime) {
        guard let k = book.subscriptions[i].billingRetries.lastIndex(where: { $0.end == nil }) else { return }
        book.subscriptions[i].billingRetries[k].end = t
    }
}
