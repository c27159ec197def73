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
    /// Under `serve` (a backend with a ledger) the access is what the backend's last ledger
    /// lists: an entitlement of the subscription's product or another product of its group.
    package var subscribers: [SubscriberView] {
        store.subscriptions.indices.map { i in
            let s = store.subscriptions[i]
            let renewalInfo = store.renewalInfo(i, at: now)
            if let link = external, !link.blind {
                let listed = ledgerEntitlement(of: s.user, for: s.productId, in: link.ledger)
                var view = SubscriberView(
                    user: s.user, subscription: s, renewalInfo: renewalInfo, access: listed != nil, accessUntil: nil)
                view.ledgerEntitlement = listed
                view.fromLedger = true
                return view
            }
            let access = server.subscriberAccess.first { $0.originalTransactionId == s.originalTransactionId }
            let until = access?.until(policy.serverGrace)
            return SubscriberView(
                user: s.user, subscription: s, renewalInfo: renewalInfo,
                access: until.map { now < $0 } ?? false, accessUntil: until)
        }
    }

    /// Whether the merchant server grants `user` a subscription's access now: the simulated
    /// server's own record, or under `serve` the backend's last ledger (an entitlement of a
    /// subscription product the user has subscribed, or of its group).
    package func grantsSubscriptionAccess(_ user: String) -> Bool {
        guard let link = external, !link.blind else { return server.hasAccess(user, at: now, policy: policy) }
        return store.subscriptions.contains {
            $0.user == user && ledgerEntitlement(of: user, for: $0.productId, in: link.ledger) != nil
        }
    }

    /// The entitlement of `ledger`'s account `user` that grants `product`'s access: the product
    /// itself, or another product of its subscription group.
    func ledgerEntitlement(of user: String, for product: String, in ledger: LedgerSnapshot?) -> String? {
        let listed = ledger?.accounts.first { $0.id == user }?.entitlements ?? []
        if listed.contains(product) { return product }
        guard let group = config.catalog.product(product)?.subscription?.group else { return nil }
        return listed.first { config.catalog.product($0)?.subscription?.group == group }
    }

    /// Queue entries that are the subscription clock (renewals, retries, grace ends, status
    /// polls): `settle` stops when only these remain.
    var subscriptionClockEvents: Int { store.subscriptionClockEvents + (server.jobs.statusPollArmed ? 1 : 0) }

    /// The status poll's tick: Get All Subscription Statuses for each subscriber the server
    /// knows (route `server-api`), then the next tick.
    mutating func statusPollDue() {
        server.jobs.statusPollArmed = false
        guard let interval = policy.serverStatusPollMs, !server.subscriberAccess.isEmpty else { return }
        for a in server.subscriberAccess {
            let exchange = outbox.newExchange()
            outbox.send(
                .serverAPI, .request, .app, exchange: exchange,
                .statusRequest(originalTransactionId: a.originalTransactionId))
        }
        server.jobs.statusPollArmed = true
        outbox.after(interval, .serverStatusPoll)
    }

    /// `server-status-poll`: arms the poll once the server knows a subscriber.
    mutating func armStatusPollIfDue() {
        guard !server.jobs.statusPollArmed, let interval = policy.serverStatusPollMs, !server.subscriberAccess.isEmpty
        else {
            return
        }
        server.jobs.statusPollArmed = true
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
        else {
            // A family member's subscription (FamilySharing.swift), or none.
            guard let answer = store.memberStatus(original: original, at: now) else { return }
            return outbox.send(.serverAPI, .response, .app, exchange: exchange, .statusResponse(answer))
        }
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

extension World {
    /// A code redeemed outside the app is the account's the server first bound it to: once the
    /// server applied a send of `txn` (its access names the account), a later send for another
    /// account (a retry after a lost answer, made as whoever is logged in then) moves nothing.
    /// Without this the App Store's guess would follow the retry while the server, rightly,
    /// keeps the subscription with the account it first heard of.
    mutating func settleBoundCode(_ txn: String) {
        guard store.subscriptionBook?.unclaimedCodes.contains(txn) == true,
            let bound = server.subscriberAccess.first(where: { $0.originalTransactionId == txn })?.user
        else { return }
        store.claimRedeemedCode(txn, by: bound, &outbox)
        store.settleRedeemedCode(txn)
    }
}
