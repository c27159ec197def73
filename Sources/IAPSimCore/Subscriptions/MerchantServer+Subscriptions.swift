/// The access a merchant server grants one subscriber, from what it heard: the app's
/// reports, notifications V2, status polls. What `G(t)` of the auditor's timeline is.
package struct SubscriberAccess: Sendable, Hashable {
    package var user: String
    package var originalTransactionId: String
    package var productId: String
    /// The `expiresDate` the server believes.
    package var expiresAt: VirtualTime
    /// `gracePeriodExpiresDate`, while the server knows of a grace period.
    package var graceUntil: VirtualTime?
    /// The server ended access for a refund (`server-revoke`).
    package var revoked = false
    /// The transaction whose refund ended it: only a reversal of that refund gives access
    /// back (a reversal of an earlier period's refund, which took none, gives none).
    var revokedBy: String?
    /// The newest `signedDate` the server applied (`server-subscription-order signed-date`).
    package var newestSignedDate: VirtualTime
    /// The newest `purchaseDate` of a transaction it applied: a `REVOKE` of an older one (a
    /// family member's share revoked, then shared again) ends nothing under `signed-date`.
    var newestPurchase: VirtualTime = 0

    /// Until when access is granted (nil: none), under the server's grace rule.
    package func until(_ grace: GraceRule) -> VirtualTime? {
        if revoked { return nil }
        guard grace == .honor, let g = graceUntil else { return expiresAt }
        return max(expiresAt, g)
    }
}

/// Where the server heard of a subscription.
enum SubscriptionNews {
    case report
    case notification(NotificationType, NotificationSubtype?)
    case poll(SubscriptionStatus)

    var words: String {
        switch self {
        case .report: return "the app's report"
        case .notification(let t, let s): return t.rawValue + (s.map { "/\($0.rawValue)" } ?? "")
        case .poll(let s): return "Get All Subscription Statuses: status \(s.rawValue)"
        }
    }
}

extension MerchantServer {
    /// How long after now the server's next status poll may come (0: it polls not): how far
    /// the verdict's healed copy runs before it says what the timelines left.
    func statusPollWithin(policy: Policy) -> VirtualTime { policy.serverStatusPollMs ?? 0 }

    /// Whether the server grants `user` access at `time`.
    package func hasAccess(_ user: String, at time: VirtualTime, policy: Policy) -> Bool {
        subscriberAccess.contains { $0.user == user && ($0.until(policy.serverGrace).map { time < $0 } ?? false) }
    }

    /// A subscription transaction the server accepted from the app (a report, the unfinished
    /// sweep) or from reconciliation: it grants access to its `expiresDate`, marks its order
    /// and answers the app so that it finishes.
    mutating func grantSubscription(_ p: PendingVerification, _ signed: SignedTransaction, _ out: inout Outbox) {
        let r = p.request
        let byId: Order? = r.orderId.flatMap { self.order($0) }
        let found: Order? = byId ?? signed.appAccountToken.flatMap { self.order(token: $0) }
        let user = (out.policy.creditTo == .orderOwner ? found?.user : nil) ?? r.uid
        if let o = found, let i = orderIndex(o.id), o.state == Order.State.created {
            orders[i].state = .credited
            orders[i].transactionId = signed.transactionId
        }
        // A report is news of its transaction's moment (its purchase), however late the app
        // sends it: a JWS is signed anew at every delivery, so its signedDate says nothing.
        hear(signed, .report, renewal: nil, user: user, signedAt: signed.purchaseDate, &out)
        answer(p, .credited([signed.transactionId]), out: &out)
    }

    /// Applies what the server heard of a subscription, under its rules, and writes the
    /// change of access it makes.
    mutating func hear(
        _ signed: SignedTransaction, _ news: SubscriptionNews, renewal: RenewalInfo?, user: String?,
        signedAt: VirtualTime, _ out: inout Outbox
    ) {
        let original = signed.originalTransactionId
        let k: Int
        // By index: `firstIndex(where:)` copied each subscriber's access it looked at.
        if let found = subscriberAccess.indices.first(where: { subscriberAccess[$0].originalTransactionId == original })
        {
            k = found
        } else {
            let owner = user ?? signed.appAccountToken.flatMap { order(token: $0)?.user }
            guard let owner else {
                return out.log(
                    .server, .notificationUnbound(txn: signed.transactionId, reason: "no order names its subscriber"))
            }
            subscriberAccess.append(
                SubscriberAccess(
                    user: owner, originalTransactionId: original, productId: signed.productId,
                    expiresAt: signed.purchaseDate, newestSignedDate: signedAt))
            k = subscriberAccess.count - 1
        }
        // A report is news of its purchase, and a refund of a purchase always comes after it:
        // at the same millisecond too, the revocation the server heard is the newer news.
        let revokedTie: Bool
        if case .report = news { revokedTie = subscriberAccess[k].revoked } else { revokedTie = false }
        if out.policy.serverSubscriptionOrder == .signedDate,
            signedAt < subscriberAccess[k].newestSignedDate
                || (revokedTie && signedAt == subscriberAccess[k].newestSignedDate)
        {
            return out.log(
                .server,
                .noted(
                    "\(news.words) for \(signed.transactionId) ignored: signed \(DurationText.clock(signedAt)), before"
                        + " the newest applied (\(DurationText.clock(subscriberAccess[k].newestSignedDate)))"))
        }
        subscriberAccess[k].newestSignedDate = max(subscriberAccess[k].newestSignedDate, signedAt)
        let before = subscriberAccess[k].until(out.policy.serverGrace)
        var a = subscriberAccess[k]
        guard apply(news, signed, renewal: renewal, signedAt: signedAt, to: &a, &out) else { return }
        subscriberAccess[k] = a
        let after = a.until(out.policy.serverGrace)
        // Access granted through this transaction: its period is the one the server grants.
        if after != nil, !a.revoked, signed.revocationDate == nil, signed.expiresDate == a.expiresAt,
            !subscriptionCredits.contains(signed.transactionId)
        {
            subscriptionCredits.append(signed.transactionId)
        }
        if after != before {
            out.log(
                .server,
                .accessChanged(
                    user: a.user, productId: a.productId, until: after,
                    why: news.words + " (\(signed.transactionId))"))
        }
    }

    /// Changes the access `a` as the server's rules read `news`; false when the server
    /// leaves it as it was on purpose (and has said why).
    func apply(
        _ news: SubscriptionNews, _ signed: SignedTransaction, renewal: RenewalInfo?, signedAt: VirtualTime,
        to a: inout SubscriberAccess, _ out: inout Outbox
    ) -> Bool {
        switch news {
        case .report, .notification(.subscribed, _), .notification(.offerRedeemed, _), .notification(.didRenew, _),
            .notification(.didChangeRenewalPref, _), .notification(.didChangeRenewalStatus, _):
            // The transaction a notification carries is taken as the subscription's state
            // (under `arrival`, even when an older one arrives after a newer).
            a.productId = signed.productId
            a.expiresAt = signed.expiresDate ?? a.expiresAt
            a.graceUntil = nil
            a.newestPurchase = max(a.newestPurchase, signed.purchaseDate)
            a.revoked = out.policy.serverRevoke && signed.revocationDate != nil
            a.revokedBy = a.revoked ? signed.transactionId : nil
        case .notification(.didFailToRenew, _):
            a.graceUntil = renewal?.gracePeriodExpiresDate
        case .notification(.gracePeriodExpired, _):
            a.graceUntil = nil
        case .notification(.priceIncrease, _), .notification(.expired, .priceIncrease):
            return applyPriceIncrease(news, signed, renewal: renewal, signedAt: signedAt, to: &a, &out)
        case .notification(.expired, _):
            a.expiresAt = min(a.expiresAt, signedAt)
            a.graceUntil = nil
        case .notification(.refund, _):
            let current = (signed.expiresDate ?? 0) >= a.expiresAt
            let revokes = out.policy.serverRevoke
            guard revokes, current else {
                out.log(
                    .server,
                    .noted(
                        revokes
                            ? "REFUND of \(signed.transactionId), an earlier period: access unchanged"
                            : "REFUND of \(signed.transactionId) heard; access unchanged (server-revoke false)"))
                return false
            }
            a.revoked = true
            a.revokedBy = signed.transactionId
        case .notification(.revoke, _):
            // Family Sharing ended for the member: access ends, as for a refund
            // (`server-revoke`, which covers both).
            guard out.policy.serverRevoke else {
                out.log(
                    .server,
                    .noted("REVOKE of \(signed.transactionId) heard; access unchanged (server-revoke false)"))
                return false
            }
            if out.policy.serverSubscriptionOrder == .signedDate, signed.purchaseDate < a.newestPurchase {
                out.log(.server, .noted("REVOKE of \(signed.transactionId), an earlier transaction: access unchanged"))
                return false
            }
            a.revoked = true
            a.revokedBy = signed.transactionId
        case .notification(.refundReversed, _):
            // Apple reinstated the period: a server that restores on REFUND_REVERSED grants
            // access again; one that ignores it keeps it cut (the auditor catches it).
            guard out.policy.serverRefundReversed == .restore else {
                out.log(
                    .server,
                    .reversalHeard(
                        txn: signed.transactionId, outcome: "ignored: access stays cut (server-refund-reversed ignore)")
                )
                return false
            }
            // Only the reversal of the refund that ended access gives it back: an earlier
            // period's refund took none, so its reversal gives none.
            if a.revoked, let by = a.revokedBy, by != signed.transactionId {
                out.log(
                    .server,
                    .reversalHeard(
                        txn: signed.transactionId,
                        outcome: "access stays cut: the refund of \(by) ended it, not this one")
                )
                return false
            }
            a.revoked = false
            a.revokedBy = nil
        case .notification:
            break
        case .poll(let status):
            a.productId = signed.productId
            a.expiresAt = signed.expiresDate ?? a.expiresAt
            a.graceUntil = status == .grace ? renewal?.gracePeriodExpiresDate : nil
            a.revoked = status == .revoked
            a.revokedBy = a.revoked ? signed.transactionId : nil
        }
        return true
    }

    /// `PRICE_INCREASE`, and `EXPIRED` / `PRICE_INCREASE`, under `server-price-increase`:
    /// `assume-renewal` grants the next period (its length: the transaction's) at once and
    /// ignores the `EXPIRED` subtype its handler does not know; `await-renewal` changes no
    /// access for a price increase and ends it at `EXPIRED`.
    func applyPriceIncrease(
        _ news: SubscriptionNews, _ signed: SignedTransaction, renewal: RenewalInfo?, signedAt: VirtualTime,
        to a: inout SubscriberAccess, _ out: inout Outbox
    ) -> Bool {
        let assumes = out.policy.serverPriceIncrease == .assumeRenewal
        guard case .notification(.priceIncrease, _) = news else {
            guard assumes else {
                a.expiresAt = min(a.expiresAt, signedAt)
                a.graceUntil = nil
                return true
            }
            out.log(
                .server,
                .noted(
                    "EXPIRED/PRICE_INCREASE for \(signed.transactionId) ignored: a subtype the handler does not know"
                        + " (server-price-increase assume-renewal)"))
            return false
        }
        guard assumes, let end = signed.expiresDate else { return false }
        let next = (renewal?.renewalDate ?? end) + (end - signed.purchaseDate)
        a.expiresAt = max(a.expiresAt, next)
        return true
    }

    /// A notification V2 about a subscription reached the server.
    mutating func receiveSubscriptionNotification(_ n: ServerNotification, _ out: inout Outbox) {
        hear(
            n.transaction, .notification(n.type, n.subtype), renewal: n.renewalInfo, user: nil,
            signedAt: n.signedDate, &out)
    }
}
