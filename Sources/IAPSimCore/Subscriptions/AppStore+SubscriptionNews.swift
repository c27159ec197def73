/// What the App Store says of a subscription's change: the fact the auditor reads
/// (`noteChange`) and the notifications V2 (`notifySubscription`), with the rate a day of
/// billing retry is worth.
extension AppStore {
    /// Writes the fact of a subscription's change, with its status after it.
    mutating func noteChange(_ i: Int, _ event: SubscriptionEvent, txn: String?, _ out: inout Outbox) {
        let s = book.subscriptions[i]
        let last = s.periods.last
        var rate = (start: last?.start ?? s.expiresAt, cents: last?.priceCents ?? 0)
        if s.isInBillingRetryPeriod, let last, transaction(last.transactionId)?.subscription?.offer != nil {
            rate = pendingRate(s)
        }
        var note = SubscriptionNote(
            event: event, user: s.user, productId: s.productId, txn: txn,
            status: s.status, expiresAt: s.expiresAt, graceUntil: s.gracePeriodExpiresAt,
            periodStart: rate.start, priceCents: rate.cents)
        if event == .started || event == .resubscribed, let txn, let offer = transaction(txn)?.subscription?.offer,
            offer.type == 2
        {
            note.promotionalOffer = offer.identifier
            note.regularCents = catalog.product(s.productId)?.priceCents ?? 0
        }
        out.log(.appStore, .subscriptionChanged(note))
        noteFamilyChange(i, event, &out)
    }

    /// What a day of billing retry after an offer's period is worth: the pending renewal's
    /// price over its period (the offer's while a pay-as-you-go offer has periods left, else
    /// the product's), since a recovery charges those days at it, not at the offer's period
    /// that ended (a free trial's: nothing). Given as the start of a period of that length
    /// ending at `expiresAt`.
    func pendingRate(_ s: Subscription) -> (start: VirtualTime, cents: Int) {
        let terms = catalog.product(s.autoRenewProductId).flatMap { p in p.subscription.map { (p.priceCents, $0) } }
        guard let (regular, t) = terms else { return (s.expiresAt, 0) }
        let offer = s.introPeriodsLeft > 0 ? s.introOffer : nil
        let length = periodEnd(offer?.period ?? t.period, after: s.expiresAt) - s.expiresAt
        return (s.expiresAt - length, offer?.priceCents ?? regular)
    }

    /// Sends a notification about subscription `i` (its newest transaction and its renewal
    /// info, signed now), if the merchant server has a notification URL.
    mutating func notifySubscription(
        _ type: NotificationType, _ subtype: NotificationSubtype?, _ i: Int, _ out: inout Outbox
    ) {
        let s = book.subscriptions[i]
        guard out.policy.serverNotifications, let t = transaction(s.latestTransactionId),
            let signed = sign(t, now: out.now)
        else { return }
        let n = ServerNotification(
            uuid: rng.uuid(), type: type, signedDate: out.now, transaction: signed, attempt: 1, subtype: subtype,
            renewalInfo: renewalInfo(i, at: out.now))
        enqueueNotification(n, &out)
        notifyFamily(type, subtype, i, &out)
    }

    /// Sends a notification now, or, after `delay-next-notification`, as signed now but
    /// that much later.
    mutating func enqueueNotification(_ n: ServerNotification, _ out: inout Outbox) {
        guard let delay = subscriptionBook?.delayNextMs else {
            notifications.append(NotificationDelivery(notification: n, exchange: 0))
            return sendNotification(notifications.count - 1, &out)
        }
        book.delayNextMs = nil
        var waiting = n
        waiting.attempt = 0
        let exchange = out.newExchange()
        notifications.append(NotificationDelivery(notification: waiting, exchange: exchange, keepsSignature: true))
        out.log(
            .appStore,
            .noted(
                "\(n.type.rawValue) for \(n.transaction.transactionId) signed now, held back"
                    + " \(DurationText.format(delay)) (delay-next-notification)"))
        out.after(delay, .storeNotifyRetry(exchange: exchange))
    }
}
