/// Apple's `ResponseBodyV2DecodedPayload` for a V2 notification about one transaction; a
/// subscription's also carries its renewal info (`data.signedRenewalInfo`), its status
/// (`data.status`) and, for most types, a `subtype`.
package struct NotificationPayload: Equatable, Sendable, JSONPayload {
    /// Apple's `NotificationTypeV2`, the types the simulator sends.
    package enum NotificationType: String, Sendable, CaseIterable {
        case oneTimeCharge = "ONE_TIME_CHARGE", refund = "REFUND", consumptionRequest = "CONSUMPTION_REQUEST"
        case refundDeclined = "REFUND_DECLINED", refundReversed = "REFUND_REVERSED"
        case subscribed = "SUBSCRIBED", didRenew = "DID_RENEW", didFailToRenew = "DID_FAIL_TO_RENEW"
        case gracePeriodExpired = "GRACE_PERIOD_EXPIRED", expired = "EXPIRED"
        case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS", didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
        case offerRedeemed = "OFFER_REDEEMED"
        case priceIncrease = "PRICE_INCREASE"
        case revoke = "REVOKE"

        /// The subtypes Apple sends with this type, as far as the simulator models them; a
        /// type whose list holds `nil` may come without one (`DID_RENEW` after a plain renewal,
        /// `DID_FAIL_TO_RENEW` without a grace period, `REFUND`, `GRACE_PERIOD_EXPIRED`).
        package var subtypes: [Subtype?] {
            switch self {
            case .subscribed, .offerRedeemed: [.initialBuy, .resubscribe]
            case .didRenew: [nil, .billingRecovery]
            case .didFailToRenew: [nil, .gracePeriod]
            case .expired: [.voluntary, .billingRetry, .priceIncrease]
            case .priceIncrease: [.pending, .accepted]
            case .didChangeRenewalStatus: [.autoRenewEnabled, .autoRenewDisabled]
            case .didChangeRenewalPref: [.upgrade, .downgrade, nil]
            case .oneTimeCharge, .refund, .consumptionRequest, .refundDeclined, .refundReversed,
                .gracePeriodExpired, .revoke:
                [nil]
            }
        }
    }

    /// Apple's `Subtype`, the ones the simulator's subscriptions send.
    package enum Subtype: String, Sendable, CaseIterable {
        case initialBuy = "INITIAL_BUY", resubscribe = "RESUBSCRIBE", billingRecovery = "BILLING_RECOVERY"
        case gracePeriod = "GRACE_PERIOD", voluntary = "VOLUNTARY", billingRetry = "BILLING_RETRY"
        case autoRenewEnabled = "AUTO_RENEW_ENABLED", autoRenewDisabled = "AUTO_RENEW_DISABLED"
        case upgrade = "UPGRADE", downgrade = "DOWNGRADE"
        case pending = "PENDING", accepted = "ACCEPTED", priceIncrease = "PRICE_INCREASE"
    }

    /// Apple's `Status` of an auto-renewable subscription (`data.status`).
    package enum SubscriptionStatus: Int64, Sendable, CaseIterable {
        case active = 1, expired = 2, billingRetry = 3, gracePeriod = 4, revoked = 5
    }

    package var notificationType: NotificationType
    package var subtype: Subtype?
    package var notificationUUID: String
    package var signedDate: Int64
    package var version: String
    package var bundleId: String
    /// `data.bundleVersion`: the app's build.
    package var bundleVersion: String
    /// `data.appAppleId`: the app's Apple ID (a number), which Apple's verifier needs in
    /// production.
    package var appAppleId: Int64
    package var environment: String
    /// The transaction, itself a JWS (`data.signedTransactionInfo`).
    package var signedTransactionInfo: String
    /// A subscription's renewal info, itself a JWS (`data.signedRenewalInfo`).
    package var signedRenewalInfo: String?
    /// A subscription's status when the notification was signed (`data.status`).
    package var status: SubscriptionStatus?
    /// A `CONSUMPTION_REQUEST`'s `data.consumptionRequestReason` (Notifications 2.11):
    /// `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`, `LEGAL`, `OTHER`.
    package var consumptionRequestReason: String?

    package init(
        notificationType: NotificationType, subtype: Subtype? = nil, notificationUUID: String, signedDate: Int64,
        signedTransactionInfo: String, signedRenewalInfo: String? = nil, status: SubscriptionStatus? = nil,
        environment: String = SignedDataDefaults.environment
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.version = "2.0"
        self.bundleId = SignedDataDefaults.bundleId
        self.bundleVersion = SignedDataDefaults.bundleVersion
        self.appAppleId = SignedDataDefaults.appAppleId
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
    }

    /// Room for the two JWS inside.
    package var jsonCapacity: Int { 1024 + signedTransactionInfo.utf8.count + (signedRenewalInfo?.utf8.count ?? 0) }

    /// The payload's members, keys always in this order; `subtype`, `signedRenewalInfo` and
    /// `status` only when set.
    package func members(into m: inout some JSONMembers) {
        m.add("notificationType", notificationType.rawValue)
        m.add("subtype", subtype?.rawValue)
        m.add("notificationUUID", notificationUUID)
        m.add("data") { data in
            data.add("appAppleId", appAppleId)
            data.add("bundleId", bundleId)
            data.add("bundleVersion", bundleVersion)
            data.add("environment", environment)
            data.add("signedTransactionInfo", signedTransactionInfo)
            data.add("signedRenewalInfo", signedRenewalInfo)
            data.add("status", status?.rawValue)
            data.add("consumptionRequestReason", consumptionRequestReason)
        }
        m.add("version", version)
        m.add("signedDate", signedDate)
    }
}
