/// A subscription's status as Get All Subscription Statuses and
/// `Product.SubscriptionInfo.status` give it (Apple's numbers).
package enum SubscriptionStatus: Int, Sendable, Hashable, CaseIterable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case grace = 4
    case revoked = 5

    /// The word scenario files use (`expect: subscriptions: {alice: {status: grace}}`).
    package var word: String {
        switch self {
        case .active: return "active"
        case .expired: return "expired"
        case .billingRetry: return "billing-retry"
        case .grace: return "grace"
        case .revoked: return "revoked"
        }
    }

    /// Entitled by Apple's rules: active or in grace.
    package var entitled: Bool { self == .active || self == .grace }
}

/// Apple's `transactionReason`.
package enum TransactionReason: String, Sendable, Hashable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

/// What a subscription transaction adds to a transaction: the subscription it belongs to,
/// the end of the period it pays for, its `webOrderLineItemId`, why it exists.
package struct SubscriptionFields: Sendable, Hashable {
    package var originalTransactionId: String
    package var expiresAt: VirtualTime
    package var webOrderLineItemId: String
    package var reason: TransactionReason
    package var group: String
    /// `isUpgraded`: the customer upgraded away from this period (Apple sets it on the
    /// replaced transaction, and only when true).
    package var isUpgraded = false
    /// The introductory offer the period was bought or renewed at, if any.
    package var offer: OfferUse?
    /// What the period was charged when it is not the product's catalog price (a renewal
    /// after a price increase).
    package var chargedCents: Int?
}

/// One paid period of a subscription: what the auditor's timeline and the read API list.
package struct SubscriptionPeriod: Sendable, Hashable {
    package var start: VirtualTime
    package var end: VirtualTime
    package var productId: String
    package var priceCents: Int
    package var transactionId: String
    /// When Apple refunded it (`revocationDate`), if it did.
    package var refundedAt: VirtualTime?
    /// The money given back for it: a refund's share of the price, or an upgrade's prorated
    /// refund of the unused rest (0: none, or the refund was reversed).
    package var refundCents = 0

    package var refunded: Bool { refundedAt != nil }
    /// What Apple keeps of the period's price.
    package var keptCents: Int { priceCents - refundCents }
}

/// One billing retry of a subscription: from the expiry that failed to renew, through its
/// grace period (if the app has one), to its end (nil while it lasts).
package struct BillingRetrySpan: Sendable, Hashable {
    package var start: VirtualTime
    package var graceUntil: VirtualTime?
    package var end: VirtualTime?
}

/// One auto-renewable subscription of the Apple ID (one per group), as the App Store keeps
/// it: who bought it (the app account the first purchase was made for), its current period,
/// its renewal preferences and its billing state.
package struct Subscription: Sendable, Hashable {
    /// The app account the subscription was bought for: the subscriber.
    package var user: String
    package var group: String
    package var originalTransactionId: String
    /// The product of the current (or last) period.
    package var productId: String
    /// The product the next renewal will be (`autoRenewProductId`): differs after a
    /// downgrade or crossgrade.
    package var autoRenewProductId: String
    package var autoRenew = true
    package var status: SubscriptionStatus = .active
    /// The end of the current (or last) paid period.
    package var expiresAt: VirtualTime
    /// Set while in billing retry with a grace period (`gracePeriodExpiresDate`).
    package var gracePeriodExpiresAt: VirtualTime?
    /// When billing retry began (the expiry that failed to renew).
    package var retryStartedAt: VirtualTime?
    /// Every billing retry, oldest first, kept after it ends (a recovery, a new purchase,
    /// the expiry): the history the Subscriptions view draws.
    package var billingRetries: [BillingRetrySpan] = []
    /// The introductory offer of the current run of periods, if it began with one.
    package var introOffer: IntroductoryOffer?
    /// How many renewals are still charged at the introductory offer's price (pay as you go).
    package var introPeriodsLeft = 0
    /// The product the offer's renewals are for when it is not `productId`: an offer code
    /// redeemed as a downgrade or crossgrade applies from the renewal to that product.
    package var introOfferProductId: String?
    /// `expirationIntent`: 1 voluntary, 2 billing, 3 price increase not consented, once expired.
    package var expirationIntent: Int?
    /// The price increase of the next renewal's product, until that renewal charges it.
    package var priceIncrease: PriceIncrease?
    /// The price this subscriber's renewals of a product are charged since a price increase
    /// (one charged to it, or one in force when it subscribed); nil: the catalog's.
    package var ownPrice: ProductPrice?
    /// `recentSubscriptionStartDate`: the start of the latest run of periods without a gap.
    package var recentStartAt: VirtualTime
    /// The newest transaction of the subscription.
    package var latestTransactionId: String
    /// Every paid period, oldest first.
    package var periods: [SubscriptionPeriod] = []
    /// The `appAccountToken` of the latest purchase (the first, or a resubscription: Apple,
    /// "when the customer purchases or changes the subscription, this property is the app
    /// account token you provide"), or the one Set App Account Token set: carried by the
    /// renewal info and the renewals that follow.
    package var appAccountToken: String?
    /// The time of the subscription's one pending clock event (renewal, retry, grace end).
    var clockAt: VirtualTime?
    /// Renewals charged (initial purchases and resubscriptions not counted).
    package var renewals = 0
    /// The status a refund of the current period revoked, restored if Apple reverses it.
    var statusBeforeRevoke: SubscriptionStatus?
    /// The renewal charge before the expiry failed: billing retry begins at the expiry.
    var chargeFailed = false
    /// The day of the month its periods end on (the first purchase's, or the day a new
    /// cycle began: a resubscription, an upgrade, a recovery after grace), clamped to
    /// shorter months: the simulator's reading of practitioners' "monthly anniversary".
    var anchorDay: Int?

    package var isInBillingRetryPeriod: Bool { status == .billingRetry || status == .grace }

    /// The end of the latest paid service: the last period's end, or its refund.
    var paidUntil: VirtualTime {
        guard let p = periods.last else { return expiresAt }
        return p.refundedAt.map { min($0, p.end) } ?? p.end
    }

    /// The renewal info the App Store signs now (`JWSRenewalInfoDecodedPayload`), with the
    /// subscription's status at that moment (`data.status` of a notification, the status of
    /// Get All Subscription Statuses: one source). `renewalDate` is always present, in the
    /// past once expired or revoked (Apple: "always present … even for expired
    /// subscriptions"); `renewalPriceCents` is the price of the upcoming renewal's product.
    package func renewalInfo(signedAt now: VirtualTime, environment: String, renewalPriceCents: Int) -> RenewalInfo {
        // The next renewal is still one of the introductory offer's periods (pay as you go):
        // the renewal info names the offer and its price.
        let offer = nextRenewalOffer
        var info = RenewalInfo(
            originalTransactionId: originalTransactionId, autoRenewProductId: autoRenewProductId,
            productId: productId, autoRenewStatus: autoRenew ? 1 : 0,
            isInBillingRetryPeriod: isInBillingRetryPeriod,
            gracePeriodExpiresDate: status == .grace ? gracePeriodExpiresAt : nil,
            // A subscription in billing retry (or its grace) has passed its expiresDate for a
            // billing error: Apple's renewal info says so (2) until it recovers or expires.
            expirationIntent: status == .expired ? expirationIntent : (isInBillingRetryPeriod ? 2 : nil),
            renewalDate: expiresAt, signedDate: now, environment: environment,
            recentSubscriptionStartDate: recentStartAt, status: status,
            renewalPrice: (offer?.priceCents ?? renewalPriceCents) * 10, appAccountToken: appAccountToken)
        info.offer = offer.map(OfferUse.init)
        return info
    }
}

/// The token a subscription's new period carries (`AppStore.newTransaction`): its own,
/// whatever the username of the purchase that started it says.
struct SubscriptionToken: Sendable, Hashable {
    var value: String?
}

/// `JWSRenewalInfoDecodedPayload` as a value: Apple's field names, dates in virtual
/// milliseconds. Notifications about a subscription carry it (`data.signedRenewalInfo`);
/// the edge signs it.
package struct RenewalInfo: Sendable, Hashable {
    package var originalTransactionId: String
    package var autoRenewProductId: String
    package var productId: String
    /// 1 on, 0 off.
    package var autoRenewStatus: Int
    package var isInBillingRetryPeriod: Bool
    package var gracePeriodExpiresDate: VirtualTime?
    /// 1 voluntary, 2 billing error, 3 price increase not consented.
    package var expirationIntent: Int?
    /// When the next renewal is due (or was: in the past once expired or revoked).
    package var renewalDate: VirtualTime
    package var signedDate: VirtualTime
    package var environment: String
    package var recentSubscriptionStartDate: VirtualTime
    /// The subscription's status when signed: a notification's `data.status`.
    package var status: SubscriptionStatus
    /// `renewalPrice` in milliunits of `currency` (USD), the upcoming renewal's product.
    package var renewalPrice: Int
    /// The token that applies to the upcoming renewal: the latest purchase's (or the one
    /// Set App Account Token set).
    package var appAccountToken: String?
    /// The customer's `appTransactionId`.
    package var appTransactionId: String = AppStore.appTransactionId
    /// The offer that applies to the next renewal (`offerType`, `offerDiscountType`,
    /// `offerPeriod`), if any: the rest of a pay-as-you-go introductory offer.
    package var offer: OfferUse?
    /// `priceIncreaseStatus` while a price increase applies to the next renewal: 0 the
    /// customer has not responded, 1 consented (or told of one that needs no consent).
    package var priceIncreaseStatus: Int?
    /// `eligibleWinBackOfferIds`: the win-back offers the customer may redeem now, best first.
    package var eligibleWinBackOfferIds: [String] = []
}

/// What the read API gives per subscriber (`Simulation.subscribers`): the App Store's
/// subscription (status, renewal info, periods) and the merchant server's granted access.
package struct SubscriberView: Sendable, Hashable {
    package var user: String
    package var subscription: Subscription
    /// The renewal info as the App Store would sign it now.
    package var renewalInfo: RenewalInfo
    /// Whether the merchant server grants access now.
    package var access: Bool
    /// Until when the server grants access (nil: it grants none, or it is your backend's,
    /// whose ledger has no expiry).
    package var accessUntil: VirtualTime?
    /// Under `serve`: the entitlement of the backend's last ledger that grants the access (the
    /// subscription's product or another of its group), nil when it lists none.
    package var ledgerEntitlement: String? = nil
    /// True under `serve` with a ledger: `access` is what the backend's last ledger lists.
    package var fromLedger = false

    package var status: SubscriptionStatus { subscription.status }
    package var periods: [SubscriptionPeriod] { subscription.periods }

    /// What the merchant server grants, in the words of where it is read (after "grants"): the
    /// simulated server's record (until when), or under `serve` the backend's last ledger.
    package var accessWords: String {
        guard fromLedger else {
            return access ? "access until \(accessUntil.map(SubscriptionCalendar.iso) ?? "?")" : "no access"
        }
        return ledgerEntitlement.map { "access (the ledger lists \($0))" }
            ?? "no access (the ledger lists no product of its group)"
    }
}

extension Subscription {
    /// The offer the next renewal is charged at, if any: the rest of a pay-as-you-go offer,
    /// or an offer code redeemed for the product the subscription renews to. A plan change
    /// to another product ends it.
    package var nextRenewalOffer: IntroductoryOffer? {
        introPeriodsLeft > 0 && autoRenewProductId == (introOfferProductId ?? productId) ? introOffer : nil
    }
}
