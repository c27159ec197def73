/// The App Store Server Notifications V2 types the simulator sends (docs/world.md, "The server side").
package enum NotificationType: String, Sendable, Hashable {
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case refund = "REFUND"
    /// The customer asked for a refund of a consumable: Apple asks for consumption data.
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case refundDeclined = "REFUND_DECLINED"
    /// Apple reversed a refund: the customer has paid again.
    case refundReversed = "REFUND_REVERSED"
    // Auto-renewable subscriptions (docs/world.md, "Subscriptions").
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// A subscription bought or resumed with a promotional offer (or an offer code): Apple
    /// sends it with `INITIAL_BUY` or `RESUBSCRIBE` where a purchase without one gets
    /// `SUBSCRIBED` ("indicates that the customer redeemed a promotional offer or offer code").
    case offerRedeemed = "OFFER_REDEEMED"
    /// A price increase: `PENDING` until the customer consents, `ACCEPTED` then (or at once
    /// when it needs no consent).
    case priceIncrease = "PRICE_INCREASE"
    /// A family member's access through Family Sharing ended: the purchaser stopped sharing,
    /// left the family (or the member did), or was refunded (Subscriptions/FamilySharing.swift).
    case revoke = "REVOKE"
}

/// Why the customer asked for a refund: a `CONSUMPTION_REQUEST`'s
/// `data.consumptionRequestReason` (Apple's `ConsumptionRequestReason`).
package enum ConsumptionRequestReason: String, Sendable, Hashable, CaseIterable {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"
}

/// The `subtype` of a notification V2 about a subscription.
package enum NotificationSubtype: String, Sendable, Hashable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case billingRecovery = "BILLING_RECOVERY"
    case gracePeriod = "GRACE_PERIOD"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case upgrade = "UPGRADE"
    case downgrade = "DOWNGRADE"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    /// `EXPIRED` / `PRICE_INCREASE`: the customer did not consent to a price increase.
    case priceIncrease = "PRICE_INCREASE"
}

/// One App Store Server Notification V2 as a value: the decoded `signedPayload`
/// (`ResponseBodyV2DecodedPayload`). Bytes are the edge's, as for transactions.
package struct ServerNotification: Sendable, Hashable {
    /// `notificationUUID`: the same for every attempt of one notification.
    package var uuid: String
    package var type: NotificationType
    /// When this attempt was signed: each retry is signed anew.
    package var signedDate: VirtualTime
    /// `data.signedTransactionInfo`: the transaction as the App Store signs it now.
    package var transaction: SignedTransaction
    /// 1 for the first attempt, up to 6 (five retries).
    package var attempt: Int
    /// `subtype`, for the subscription notifications that have one.
    package var subtype: NotificationSubtype? = nil
    /// `data.signedRenewalInfo`: a subscription notification's renewal info, as signed at
    /// its event.
    package var renewalInfo: RenewalInfo? = nil
    /// `data.consumptionRequestReason`, on a `CONSUMPTION_REQUEST`.
    package var consumptionRequestReason: ConsumptionRequestReason? = nil

    /// `data.appAppleId` and `data.bundleVersion`, the same for every notification.
    package static let appAppleId = 6_450_000_001
    package static let bundleVersion = "1.0"

    /// Realistic size of the request: the outer JWS with its chain around the inner one.
    package var bytes: Int { 4_200 + transaction.bytes + (renewalInfo == nil ? 0 : 3_000) }
}

/// A notification the App Store keeps until the merchant server answers it with 2xx, or
/// until its retries are spent.
struct NotificationDelivery: Sendable, Hashable {
    var notification: ServerNotification
    /// The exchange of the newest attempt: only its answer counts.
    var exchange: Int
    var answered = false
    /// A delayed notification (`delay-next-notification`): its first attempt is sent as
    /// signed at its event, not signed anew.
    var keepsSignature = false
}

extension AppStore {
    var notifications: [NotificationDelivery] {
        get { deliveries ?? [] }
        // The list moves out and back: a change is made in place, never on a copy.
        _modify {
            var list = deliveries ?? []
            deliveries = nil
            defer { deliveries = list.isEmpty ? nil : list }
            yield &list
        }
    }

    /// Apple retries a notification not answered with HTTP 200-206 this long after the
    /// previous attempt, then drops it (docs/world.md, "The server side").
    static let notificationRetryMs: [VirtualTime] = [1, 12, 24, 48, 72].map { $0 * 3_600_000 }
    /// How long the App Store waits for the merchant server's answer to one attempt.
    static let notificationTimeoutMs: VirtualTime = 10_000

    /// Whether a notification of `type` about `txn` is still being delivered (sent and not
    /// acknowledged, or waiting for its retry).
    func notificationPending(_ txn: String, _ type: NotificationType) -> Bool {
        notifications.contains { $0.notification.type == type && $0.notification.transaction.transactionId == txn }
    }

    /// Notifications still being delivered, oldest first.
    var pendingNotifications: [ServerNotification] { notifications.map(\.notification) }

    /// Sends a notification about `txn` to the merchant server, if it has a notification
    /// URL (`server-notifications`).
    /// A `ONE_TIME_CHARGE` leaves the App Store within seconds of the charge, "in parallel of
    /// the purchase transaction" (Apple): after a delay of 1 to 20 s drawn for the
    /// transaction, so that the app's report and the notification arrive in either order.
    mutating func notify(
        _ type: NotificationType, _ txn: String, reason: ConsumptionRequestReason? = nil, _ out: inout Outbox
    ) {
        guard out.policy.serverNotifications, let t = transaction(txn), let signed = sign(t, now: out.now) else {
            return
        }
        var n = ServerNotification(uuid: rng.uuid(), type: type, signedDate: out.now, transaction: signed, attempt: 1)
        n.consumptionRequestReason = reason
        guard type == .oneTimeCharge else {
            if let i = subscriptionIndex(ofTransaction: txn) {
                n.renewalInfo = renewalInfo(i, at: out.now)
            }
            return enqueueNotification(n, &out)
        }
        // Drawn from the transaction's own generator: the store's draws do not move.
        var draw = rng.derive("notify-" + txn)
        var delay = 1_000 + VirtualTime(draw.below(19_001))
        if let late = subscriptionBook?.delayNextMs {
            book.delayNextMs = nil
            delay += late
        }
        var waiting = n
        waiting.attempt = 0
        let exchange = out.newExchange()
        notifications.append(NotificationDelivery(notification: waiting, exchange: exchange))
        out.after(delay, .storeNotifyRetry(exchange: exchange))
    }

    /// Sends attempt `notification.attempt` of delivery `i`, and looks at its answer after
    /// the timeout.
    mutating func sendNotification(_ i: Int, _ out: inout Outbox) {
        let exchange = out.newExchange()
        notifications[i].exchange = exchange
        notifications[i].answered = false
        let n = notifications[i].notification
        out.log(.appStore, .notificationSent(n))
        out.send(.notify, .request, .app, exchange: exchange, .notification(n))
        out.after(AppStore.notificationTimeoutMs, .storeNotifyCheck(exchange: exchange))
    }

    /// The merchant server answered an attempt: 200-206 ends the delivery.
    mutating func notificationAnswered(exchange: Int, status: Int) {
        guard let i = notifications.firstIndex(where: { $0.exchange == exchange }) else { return }
        if (200...206).contains(status) { notifications.remove(at: i) } else { notifications[i].answered = true }
    }

    /// The timeout of the attempt sent as `exchange`: unanswered (or answered with an
    /// error), it is retried after the next delay, counted from this attempt; after the
    /// fifth retry it is dropped.
    mutating func notificationCheck(exchange: Int, _ out: inout Outbox) {
        guard let i = notifications.firstIndex(where: { $0.exchange == exchange }) else { return }
        let n = notifications[i].notification
        let uuid = n.uuid, attempt = n.attempt
        guard environment.retriesNotifications else {
            notifications.remove(at: i)
            return out.log(
                .appStore,
                .noted(
                    "\(n.type.rawValue) \(String(uuid.prefix(8)))… for \(n.transaction.transactionId)"
                        + " not answered with 200-206; sandbox sends once"))
        }
        guard attempt <= AppStore.notificationRetryMs.count else {
            notifications.remove(at: i)
            out.log(.appStore, .notificationDropped(uuid: uuid, type: n.type, txn: n.transaction.transactionId))
            return
        }
        let delay = AppStore.notificationRetryMs[attempt - 1]
        out.log(
            .appStore,
            .notificationUnanswered(
                uuid: uuid, type: n.type, txn: n.transaction.transactionId,
                retryInMs: delay))
        out.after(delay - AppStore.notificationTimeoutMs, .storeNotifyRetry(exchange: exchange))
    }

    /// The next attempt of the notification last sent as `exchange`, signed anew.
    mutating func notificationRetry(exchange: Int, _ out: inout Outbox) {
        guard let i = notifications.firstIndex(where: { $0.exchange == exchange }) else { return }
        if notifications[i].keepsSignature {
            notifications[i].keepsSignature = false
            notifications[i].notification.attempt += 1
            return sendNotification(i, &out)
        }
        let txn = notifications[i].notification.transaction.transactionId
        notifications[i].notification.renewalInfo?.signedDate = out.now
        // `data.status` is the subscription's status at the new signedDate.
        if let k = subscriptionIndex(ofTransaction: txn) {
            let status = subscriptions[k].status
            notifications[i].notification.renewalInfo?.status = status
        }
        if let t = transaction(txn), let signed = sign(t, now: out.now) {
            notifications[i].notification.transaction = signed
        } else if let signed = signMember(id: txn, now: out.now) {
            notifications[i].notification.transaction = signed
        }
        notifications[i].notification.signedDate = out.now
        notifications[i].notification.attempt += 1
        sendNotification(i, &out)
    }
}
