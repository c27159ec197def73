/// What the App Store keeps for auto-renewable subscriptions (docs/world.md,
/// "Subscriptions"); nil in a world that never sold one, so that it copies nothing more.
struct SubscriptionBook: Sendable, Hashable {
    var subscriptions: [Subscription] = []
    /// `billing-fail on`: every renewal and retry fails until `billing-fail off`.
    var billingFails = false
    /// `delay-next-notification`: the next notification V2 leaves this much later.
    var delayNextMs: VirtualTime?
    /// Who each subscription payment in progress was made for: the subscriber.
    var buyers: [Buyer] = []
    /// Subscription clock events in the queue (renewals, retries, grace ends), stale ones
    /// included: `settle` stops when only these (and status polls) remain.
    var clockEvents = 0
    /// The nonces of the promotional offer signatures the App Store accepted: each once.
    var offerNonces: Set<String> = []
    /// The offer codes redeemed (`redeem-code`): a one-time code once, a custom code once per
    /// Apple ID (the simulator has one).
    var redeemedCodes: Set<String> = []
    /// The win-back offers redeemed, oldest first: their wait is counted from their end.
    var winBackUses: [WinBackUse] = []
    /// The first transactions of codes redeemed outside the app that the app has not yet sent
    /// for an account (`claimRedeemedCode`).
    var unclaimedCodes: [String] = []
    /// What a new subscriber of a product pays after a price increase of it.
    var newPrices: [String: Int] = [:]
    /// `messages defer`: the app defers StoreKit's messages (no `display(in:)`).
    var defersMessages = false

    struct Buyer: Sendable, Hashable {
        var txn: String
        var user: String
        /// The offer the payment carries: a promotional offer accepted with its signature, a
        /// win-back offer the customer is eligible for, an offer code redeemed.
        var promotional: IntroductoryOffer?
    }
}

extension AppStore {
    /// The simulator retries a failed renewal once a day (its own choice; Apple does not
    /// say how often), for up to 60 days (Apple's figure); a catalog's time rate shrinks
    /// both (`TimeRate.retryEveryMs`).
    static let retryDays = 60
    /// The catalog's time rate: the renewal lead (a day before `expiresDate` in real time:
    /// "during the 24-hour period before the subscription expires, the App Store starts
    /// trying to automatically renew it", Apple, quoted in Developer Forums 72214), the
    /// retries, grace and the 60-day lapse of `recentSubscriptionStartDate` follow it.
    var timeRate: TimeRate { catalog.settings.timeRate }

    /// The end of a period of `period` starting at `t`, at the catalog's time rate.
    func periodEnd(_ period: RenewalPeriod, after t: VirtualTime, day: Int? = nil) -> VirtualTime {
        timeRate.end(of: period, after: t, day: day)
    }

    var book: SubscriptionBook {
        get { subscriptionBook ?? SubscriptionBook() }
        _modify {
            var b = subscriptionBook ?? SubscriptionBook()
            subscriptionBook = nil
            defer { subscriptionBook = b }
            yield &b
        }
    }

    /// Every subscription of the Apple ID, oldest first.
    package var subscriptions: [Subscription] { subscriptionBook?.subscriptions ?? [] }
    /// `billing-fail on`.
    package var billingFails: Bool { subscriptionBook?.billingFails ?? false }
    /// Subscription clock events waiting in the queue.
    var subscriptionClockEvents: Int { subscriptionBook?.clockEvents ?? 0 }

    /// The subscription of `group`, if the Apple ID ever had one.
    func subscriptionIndex(group: String) -> Int? {
        subscriptionBook?.subscriptions.firstIndex { $0.group == group }
    }

    /// The subscription a transaction belongs to.
    func subscriptionIndex(ofTransaction txn: String) -> Int? {
        guard let t = transaction(txn), let f = t.subscription else { return nil }
        return subscriptionBook?.subscriptions.firstIndex { $0.originalTransactionId == f.originalTransactionId }
    }

    /// Notes who a subscription payment is for (called when the payment is added).
    mutating func noteSubscriptionBuyer(_ txn: String, user: String, promotional: IntroductoryOffer? = nil) {
        book.buyers.append(SubscriptionBook.Buyer(txn: txn, user: user, promotional: promotional))
    }

    mutating func setBillingFails(_ on: Bool) { book.billingFails = on }
    mutating func delayNextNotification(_ ms: VirtualTime) { book.delayNextMs = ms }

    /// Subscription `i`'s renewal info signed at `now`, its status at that moment with it:
    /// the one source of `data.status`, Get All Subscription Statuses and the read API.
    package func renewalInfo(_ i: Int, at now: VirtualTime) -> RenewalInfo {
        // Read in place from the book (`subscriptions` is the book's list or none, and a
        // copy of the subscription and of its product cost a renewal info each).
        let s = subscriptionBook!.subscriptions
        var info = s[i].renewalInfo(
            signedAt: now, environment: environment.payloadName,
            renewalPriceCents: renewalPrice(s[i], of: s[i].autoRenewProductId) ?? 0)
        // A price increase of the next renewal: its status (0 not yet responded, 1 consented).
        if increasedRenewalPrice(s[i]) != nil { info.priceIncreaseStatus = s[i].priceIncrease?.status }
        if s[i].status == .expired {
            info.eligibleWinBackOfferIds = eligibleWinBackOfferIds(group: s[i].group, now: now)
        }
        return info
    }

    /// Schedules subscription `i`'s renewal charge: `renewalLeadMs` before its expiry (now,
    /// if that has passed).
    mutating func armRenewal(_ i: Int, _ out: inout Outbox) {
        armClock(i, at: max(out.now, subscriptions[i].expiresAt - timeRate.renewalLeadMs), &out)
    }

    /// Schedules subscription `i`'s next clock event at `time`.
    mutating func armClock(_ i: Int, at time: VirtualTime, _ out: inout Outbox) {
        book.subscriptions[i].clockAt = time
        book.clockEvents += 1
        out.after(time - out.now, .storeSubscriptionClock(index: i))
    }

    /// A subscription payment was charged: a new subscription, or a resubscription to the
    /// group of an expired or revoked one (the same `originalTransactionId`).
    mutating func startSubscription(_ id: String, product: Product, terms: SubscriptionTerms, _ out: inout Outbox) {
        guard let t = transaction(id) else { return }
        // After a price increase a new subscriber is charged the new price.
        var product = product
        let newPrice = book.newPrices[product.id]
        if let newPrice { product.priceCents = newPrice }
        let user = book.buyers.first { $0.txn == id }?.user ?? t.applicationUsername ?? "?"
        // An offer the payment carried (a promotional offer signed by the merchant server, a
        // win-back offer, an offer code) applies; else an eligible customer's first period is
        // the introductory offer's (a free trial, or its first reduced charge): Apple applies
        // it by itself.
        let offer = promotionalOffer(of: id) ?? introOffer(for: terms)
        book.buyers.removeAll { $0.txn == id }
        let end = periodEnd(offer?.chargedSpan ?? terms.period, after: out.now)
        let existing = subscriptionIndex(group: terms.group)
        let original = existing.map { book.subscriptions[$0].originalTransactionId } ?? id
        let number = existing.map { book.subscriptions[$0].periods.count } ?? 0
        update(id) {
            $0.state = .purchased
            $0.chargedAt = out.now
            $0.subscription = SubscriptionFields(
                originalTransactionId: original, expiresAt: end,
                webOrderLineItemId: Self.webOrderLineItemId(original, number), reason: .purchase, group: terms.group,
                offer: offer.map(OfferUse.init))
            if newPrice != nil { $0.subscription?.chargedCents = product.priceCents }
        }
        let period = SubscriptionPeriod(
            start: out.now, end: end, productId: product.id, priceCents: offer?.priceCents ?? product.priceCents,
            transactionId: id)
        let i: Int
        if let k = existing {
            i = k
            book.subscriptions[k].autoRenewProductId = product.id
            book.subscriptions[k].autoRenew = true
            book.subscriptions[k].status = .active
            book.subscriptions[k].gracePeriodExpiresAt = nil
            book.subscriptions[k].retryStartedAt = nil
            endBillingRetry(k, at: out.now)
            book.subscriptions[k].expirationIntent = nil
            // A new purchase is charged the price in force: no increase waits for consent.
            book.subscriptions[k].priceIncrease = nil
            // The resubscription's token applies from now on (renewal info, renewals).
            book.subscriptions[k].appAccountToken = t.appAccountToken
            if out.now - book.subscriptions[k].paidUntil > timeRate.lapseResetMs {
                book.subscriptions[k].recentStartAt = out.now
            }
            appendPeriod(k, period)
        } else {
            i = book.subscriptions.count
            var s = Subscription(
                user: user, group: terms.group, originalTransactionId: id, productId: product.id,
                autoRenewProductId: product.id, expiresAt: end, recentStartAt: out.now, latestTransactionId: id)
            s.periods = [period]
            s.appAccountToken = t.appAccountToken
            book.subscriptions.append(s)
        }
        // After a free trial of days the paid periods end on the day the trial ended.
        book.subscriptions[i].anchorDay = SubscriptionCalendar.date(offer == nil ? out.now : end).day
        book.subscriptions[i].introOffer = offer
        book.subscriptions[i].introPeriodsLeft = offer.map { $0.charges - 1 } ?? 0
        book.subscriptions[i].introOfferProductId = nil
        book.subscriptions[i].ownPrice = newPrice.map { ProductPrice(productId: product.id, cents: $0) }
        let event: SubscriptionEvent = existing == nil ? .started : .resubscribed
        noteChange(i, event, txn: id, &out)
        if let offer {
            let regular = periodEnd(offer.span, after: out.now)
            out.log(
                .appStore,
                .noted(
                    "\(offer.name) of \(product.id)"
                        + " applied to \(id): \(offer.summary);"
                        + " \(formatMoney(product.priceCents)) is charged from \(SubscriptionCalendar.iso(regular))"))
        }
        out.log(.storeKit, .transactionUpdated(txn: id, product: product.id, state: .purchased))
        out.after(0, .storeDeliver(txns: [id], redelivery: false, atForeground: false))
        notifySubscription(
            (offer?.kind ?? .introductory) == .introductory ? .subscribed : .offerRedeemed,
            existing == nil ? .initialBuy : .resubscribe, i,
            &out)
        armRenewal(i, &out)
    }

    /// The grace a subscription of `period` gets from the app's billing grace period
    /// `setting` (3, 16 or 28 days): a weekly one gets 6 days where the setting is 16 or 28,
    /// 3 where it is 3. Apple's announcement of Billing Grace Period (September 2019) gave
    /// weekly subscriptions 6 days and every longer one 16; the 3- and 28-day choices came
    /// later and Apple says nothing of weeks for them: the simulator keeps 6 at most.
    /// A catalog's time rate shrinks it (`TimeRate.grace`).
    func billingGrace(_ setting: VirtualTime, period: RenewalPeriod?) -> VirtualTime {
        timeRate.grace(setting, weekly: period?.unit == .week)
    }

    /// `webOrderLineItemId` of a subscription's period `n`: one per period, unique.
    static func webOrderLineItemId(_ original: String, _ n: Int) -> String {
        "\(original.dropFirst(3))\(n < 10 ? "0" : "")\(n)"
    }

    /// The subscription clock: the renewal charge `renewalLeadMs` before the expiry, the
    /// expiry itself (no auto-renew, or the charge failed), a billing retry (once a day), the
    /// end of grace, the end of the retry window.
    mutating func subscriptionClock(_ i: Int, _ out: inout Outbox) {
        book.clockEvents -= 1
        guard i < subscriptions.count, book.subscriptions[i].clockAt == out.now else { return }
        book.subscriptions[i].clockAt = nil
        let s = book.subscriptions[i]
        switch s.status {
        case .active where out.now < s.expiresAt:
            // The renewal charge, before the expiry: found failing now, the subscription
            // enters billing retry at its expiresDate.
            if s.autoRenew, s.priceIncrease?.blocksRenewal == true {
                // No consent to the price increase yet: nothing is charged; the subscription
                // expires at its expiresDate unless the customer consents before.
                out.log(
                    .appStore,
                    .noted(
                        "renewal of \(s.originalTransactionId) not charged: the customer has not consented to the price"
                            + " increase; it expires at \(SubscriptionCalendar.iso(s.expiresAt)) without consent"))
                return armClock(i, at: s.expiresAt, &out)
            }
            if s.autoRenew && book.billingFails {
                book.subscriptions[i].chargeFailed = true
                out.log(
                    .appStore,
                    .noted(
                        "renewal charge of \(s.originalTransactionId) failed: the payment method fails;"
                            + " billing retry begins at expiresDate \(SubscriptionCalendar.iso(s.expiresAt))"))
            }
            if !s.autoRenew || book.billingFails { return armClock(i, at: s.expiresAt, &out) }
            renew(i, recovered: false, &out)
        case .active:
            if !s.autoRenew { return expire(i, intent: 1, &out) }
            if s.priceIncrease?.blocksRenewal == true { return expire(i, intent: 3, &out) }
            if s.chargeFailed || book.billingFails { return failRenewal(i, &out) }
            renew(i, recovered: false, &out)
        case .billingRetry, .grace:
            let start = s.retryStartedAt ?? s.expiresAt
            let day = Int((out.now - start) / timeRate.retryEveryMs)
            if day >= Self.retryDays || !s.autoRenew { return expire(i, intent: s.autoRenew ? 2 : 1, &out) }
            if s.priceIncrease?.blocksRenewal == true { return expire(i, intent: 3, &out) }
            if !book.billingFails { return renew(i, recovered: true, &out) }
            out.log(
                .appStore,
                .noted("billing retry \(day) of \(s.originalTransactionId) failed: the payment method still fails"))
            if s.status == .grace, let end = s.gracePeriodExpiresAt, out.now >= end {
                book.subscriptions[i].status = .billingRetry
                noteChange(i, .graceExpired, txn: nil, &out)
                notifySubscription(.gracePeriodExpired, nil, i, &out)
            }
            armClock(i, at: out.now + timeRate.retryEveryMs, &out)
        case .expired, .revoked:
            return
        }
    }

    /// The renewal charge failed and the period ended: billing retry from the expiry, in
    /// grace when the app has one.
    mutating func failRenewal(_ i: Int, _ out: inout Outbox) {
        let period = catalog.product(book.subscriptions[i].autoRenewProductId)?.subscription?.period
        // A free trial's conversion is no paid-to-paid renewal: with `PAID_TO_PAID_ONLY` it
        // gets no grace.
        let fromTrial = book.subscriptions[i].periods.last.map { $0.priceCents == 0 } ?? false
        let covered = !(fromTrial && catalog.settings.graceRenewals == .paidToPaidOnly)
        let grace =
            out.policy.storekit == .two && covered ? gracePeriodMs.map { billingGrace($0, period: period) } : nil
        book.subscriptions[i].chargeFailed = false
        book.subscriptions[i].retryStartedAt = out.now
        book.subscriptions[i].billingRetries.append(
            BillingRetrySpan(start: out.now, graceUntil: grace.map { out.now + $0 }, end: nil))
        if let grace {
            book.subscriptions[i].status = .grace
            book.subscriptions[i].gracePeriodExpiresAt = out.now + grace
        } else {
            book.subscriptions[i].status = .billingRetry
        }
        noteChange(i, .renewalFailed, txn: nil, &out)
        notifySubscription(.didFailToRenew, grace == nil ? nil : .gracePeriod, i, &out)
        armClock(i, at: out.now + timeRate.retryEveryMs, &out)
    }

    /// A renewal (or a recovery from billing retry): a new transaction with the same
    /// `originalTransactionId`, a charge, `DID_RENEW`. Inside grace the dates continue as
    /// if nothing happened; after it, the new period starts now.
    mutating func renew(_ i: Int, recovered: Bool, _ out: inout Outbox) {
        let s = book.subscriptions[i]
        guard var product = catalog.product(s.autoRenewProductId), let terms = product.subscription,
            let first = transaction(s.originalTransactionId)
        else { return }
        // A price increase the customer consented to (or was told of) is charged now, and at
        // every renewal after it.
        if let raised = increasedRenewalPrice(s) {
            product.priceCents = raised
            book.subscriptions[i].priceIncrease = nil
            book.subscriptions[i].ownPrice = ProductPrice(productId: product.id, cents: raised)
        } else if let own = s.ownPrice, own.productId == product.id {
            product.priceCents = own.cents
        }
        // A pay-as-you-go introductory offer renews at its price for its remaining periods;
        // an offer code an active subscriber redeemed is the next renewal's.
        let offer = s.nextRenewalOffer
        let period = offer?.chargedSpan ?? terms.period
        let restarts = recovered && s.status == .billingRetry
        let start = restarts ? out.now : s.expiresAt
        let day = restarts ? nil : s.anchorDay
        var end = periodEnd(period, after: start, day: day)
        while end <= out.now { end = periodEnd(period, after: end, day: day) }
        if restarts { book.subscriptions[i].anchorDay = SubscriptionCalendar.date(start).day }
        book.subscriptions[i].introPeriodsLeft = offer == nil ? 0 : s.introPeriodsLeft - 1
        let t = chargePeriod(
            i, product, from: start, to: end, username: first.applicationUsername, reason: .renewal, offer: offer,
            &out)
        book.subscriptions[i].status = .active
        book.subscriptions[i].gracePeriodExpiresAt = nil
        book.subscriptions[i].retryStartedAt = nil
        endBillingRetry(i, at: out.now)
        book.subscriptions[i].renewals += 1
        // A billing-retry lapse lasts under 60 days: recentSubscriptionStartDate keeps.
        noteChange(i, recovered ? .recovered : .renewed, txn: t.id, &out)
        out.after(0, .storeDeliver(txns: [t.id], redelivery: false, atForeground: false))
        notifySubscription(.didRenew, recovered ? .billingRecovery : nil, i, &out)
        armRenewal(i, &out)
    }

    /// Charges subscription `i`'s next period, `start` to `end`, for `product`: the
    /// transaction (purchased, charged now, its subscription fields) and the period, which
    /// becomes the subscription's product, expiry and latest transaction (`appendPeriod`).
    mutating func chargePeriod(
        _ i: Int, _ product: Product, from start: VirtualTime, to end: VirtualTime, username: String?,
        reason: TransactionReason, offer: IntroductoryOffer? = nil, _ out: inout Outbox
    ) -> StoreTransaction {
        let s = book.subscriptions[i]
        // Charged other than the catalog's price: a renewal after a price increase.
        let raised = catalog.read(product.id) { $0.priceCents } != product.priceCents
        let t = newTransaction(
            product: product.id, username: username, now: out.now, outcome: .charge,
            token: SubscriptionToken(value: s.appAccountToken))
        update(t.id) {
            $0.state = .purchased
            $0.chargedAt = out.now
            $0.subscription = SubscriptionFields(
                originalTransactionId: s.originalTransactionId, expiresAt: end,
                webOrderLineItemId: Self.webOrderLineItemId(s.originalTransactionId, s.periods.count),
                reason: reason, group: s.group,
                offer: offer.map(OfferUse.init))
            if raised { $0.subscription?.chargedCents = product.priceCents }
        }
        appendPeriod(
            i,
            SubscriptionPeriod(
                start: start, end: end, productId: product.id, priceCents: offer?.priceCents ?? product.priceCents,
                transactionId: t.id))
        return t
    }

    /// The one period append: subscription `i`'s new paid period, which becomes its product,
    /// expiry and latest transaction (a resubscription, a renewal, a plan change).
    mutating func appendPeriod(_ i: Int, _ period: SubscriptionPeriod) {
        book.subscriptions[i].periods.append(period)
        book.subscriptions[i].productId = period.productId
        book.subscriptions[i].expiresAt = period.end
        book.subscriptions[i].latestTransactionId = period.transactionId
    }

    /// The subscription ends: auto-renew off (1, voluntary) or billing retry over (2).
    mutating func expire(_ i: Int, intent: Int, _ out: inout Outbox) {
        book.subscriptions[i].status = .expired
        book.subscriptions[i].expirationIntent = intent
        book.subscriptions[i].gracePeriodExpiresAt = nil
        endBillingRetry(i, at: out.now)
        noteChange(i, .expired, txn: nil, &out)
        let subtype: NotificationSubtype = intent == 1 ? .voluntary : intent == 3 ? .priceIncrease : .billingRetry
        notifySubscription(.expired, subtype, i, &out)
    }

}
