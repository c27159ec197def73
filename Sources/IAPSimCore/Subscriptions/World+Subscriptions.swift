/// The engine's side of subscriptions (docs/world.md, "Subscriptions"): their commands, the
/// server's status poll, and the read API.
///
/// Read API (for the UI, the edge and the checks): `World.subscribers` lists one
/// `SubscriberView` per subscription of the Apple ID, in the order bought: its `status`
/// (1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked), its `renewalInfo` (the
/// `JWSRenewalInfoDecodedPayload` fields as signed now), its `periods` (start, end, product,
/// price, transaction id, refunded) and the merchant server's granted `access`. The
/// subscription fields of a transaction are on `SignedTransaction` (`expiresDate`,
/// `webOrderLineItemId`, `subscriptionGroupIdentifier`, `typeName`, `transactionReason`),
/// and a subscription notification carries its `renewalInfo` (`data.signedRenewalInfo`).
extension World {
    /// Every subscription of the Apple ID, with what the server grants its subscriber now.
    package var subscribers: [SubscriberView] {
        store.subscriptions.indices.map { i in
            let s = store.subscriptions[i]
            let access = server.subscriberAccess.first { $0.originalTransactionId == s.originalTransactionId }
            let until = access?.until(policy.serverGrace)
            return SubscriberView(
                user: s.user, subscription: s,
                renewalInfo: store.renewalInfo(i, at: now),
                access: until.map { now < $0 } ?? false, accessUntil: until)
        }
    }

    /// Queue entries that are the subscription clock (renewals, retries, grace ends, status
    /// polls): `settle` stops when only these remain.
    var subscriptionClockEvents: Int { store.subscriptionClockEvents + (statusPollArmed ? 1 : 0) }

    /// The status poll's tick: Get All Subscription Statuses for each subscriber the server
    /// knows (route `server-api`), then the next tick.
    mutating func statusPollDue() {
        statusPollArmed = false
        guard let interval = policy.serverStatusPollMs, !server.subscriberAccess.isEmpty else { return }
        for a in server.subscriberAccess {
            let exchange = outbox.newExchange()
            outbox.send(
                .serverAPI, .request, .app, exchange: exchange,
                .statusRequest(originalTransactionId: a.originalTransactionId))
        }
        statusPollArmed = true
        outbox.after(interval, .serverStatusPoll)
    }

    /// `server-status-poll`: arms the poll once the server knows a subscriber.
    mutating func armStatusPollIfDue() {
        guard !statusPollArmed, let interval = policy.serverStatusPollMs, !server.subscriberAccess.isEmpty else {
            return
        }
        statusPollArmed = true
        schedule(interval, .serverStatusPoll)
    }

    /// The App Store answers Get All Subscription Statuses for one subscription.
    mutating func answerStatus(_ original: String, exchange: Int) {
        // By index: `firstIndex(where:)` copied each subscription it looked at.
        guard
            let i = store.subscriptions.indices.first(where: {
                store.subscriptions[$0].originalTransactionId == original
            }),
            let t = store.transaction(store.subscriptions[i].latestTransactionId),
            let signed = store.sign(t, now: now)
        else { return }
        let info = store.renewalInfo(i, at: now)
        let answer = StatusAnswer(status: info.status, transaction: signed, renewalInfo: info)
        outbox.send(.serverAPI, .response, .app, exchange: exchange, .statusResponse(answer))
    }
}

/// One subscription's entry in Get All Subscription Statuses: its status, its newest
/// transaction and its renewal info, signed at the answer.
package struct StatusAnswer: Sendable, Hashable {
    package var status: SubscriptionStatus
    package var transaction: SignedTransaction
    package var renewalInfo: RenewalInfo
}

extension World {
    /// Subscription payments the App Store charged: purchases, renewals, recoveries, upgrades.
    package var subscriptionCharges: Int {
        // A free trial's period charges nothing: no payment.
        store.subscriptions.reduce(0) { $0 + $1.periods.filter { $0.priceCents > 0 }.count }
    }
    /// Subscription payments Apple gave money back for (a refund in effect, whole or a
    /// share, or an upgrade's prorated refund).
    package var subscriptionRefunds: Int {
        store.subscriptions.reduce(0) { $0 + $1.periods.filter { $0.refundCents > 0 }.count }
    }
}
