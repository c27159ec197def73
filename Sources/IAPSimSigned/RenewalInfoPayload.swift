/// Apple's `JWSRenewalInfoDecodedPayload`: what the App Store will do at a subscription's next
/// renewal date, signed like a transaction. Names and JSON types are Apple's; dates are
/// milliseconds since the Unix epoch. A field that does not apply is absent, as Apple leaves it
/// out (`expirationIntent` only once the subscription expired, `gracePeriodExpiresDate` only in
/// a grace period); `offerType`, `offerDiscountType` and `offerPeriod` only while the next
/// renewal is still at an introductory offer's price (pay as you go).
package struct RenewalInfoPayload: Equatable, Sendable, JSONPayload {
    /// Apple's `ExpirationIntent`, the three reasons a simulated subscription expires.
    package enum ExpirationIntent: Int64, Sendable, CaseIterable {
        /// The customer turned auto-renew off.
        case customerCancelled = 1
        /// Billing failed and the retries ended.
        case billingError = 2
        /// The customer did not consent to a price increase that needed consent.
        case didNotConsentToPriceIncrease = 3
    }

    /// Apple's `AutoRenewStatus`: 0 off, 1 on.
    package enum AutoRenewStatus: Int64, Sendable, CaseIterable { case off = 0, on = 1 }

    package var expirationIntent: ExpirationIntent?
    package var originalTransactionId: String
    /// The product the subscription renews to (another one after a downgrade or crossgrade).
    package var autoRenewProductId: String
    /// The product of the current period.
    package var productId: String
    package var autoRenewStatus: AutoRenewStatus
    /// Whether the App Store is still trying to bill an expired period.
    package var isInBillingRetryPeriod: Bool
    /// The end of the grace period, while in one.
    package var gracePeriodExpiresDate: Int64?
    package var signedDate: Int64
    package var environment: String
    /// The start of the current run of periods without a gap of more than 60 days.
    package var recentSubscriptionStartDate: Int64
    /// When the current period ends, where the App Store renews it.
    package var renewalDate: Int64?
    /// The price of the next renewal, in milliunits, with its currency.
    package var renewalPrice: Int64?
    package var currency: String?
    /// The token the app passed to its first purchase, when it passed one.
    package var appAccountToken: String?
    /// The customer's `AppTransaction.appTransactionID`.
    package var appTransactionId: String?
    /// The offer of the next renewal: `1` introductory, `2` promotional, `3` an offer code, absent without one.
    package var offerType: Int64?
    /// The offer's identifier, with `offerType` 2 (promotional), 3 (an offer code's reference name) or 4 (win-back).
    package var offerIdentifier: String?
    /// `PAY_AS_YOU_GO` (the only introductory offer that renews), with `offerType`.
    package var offerDiscountType: String?
    /// The offer's duration (ISO 8601), with `offerType`.
    package var offerPeriod: String?
    /// Apple's `priceIncreaseStatus` while a price increase applies to the next renewal: 0
    /// the customer has not responded, 1 consented or told; absent without one.
    package var priceIncreaseStatus: Int64?
    /// The win-back offers the customer may redeem now, best first (a lapsed subscription
    /// only); absent when none.
    package var eligibleWinBackOfferIds: [String]?

    /// Renewal info of a subscription that renews to the product it has, auto-renew on, not
    /// in billing retry; the caller changes what differs.
    package init(
        originalTransactionId: String, productId: String, signedDate: Int64, recentSubscriptionStartDate: Int64,
        renewalDate: Int64?, environment: String = SignedDataDefaults.environment
    ) {
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = productId
        self.productId = productId
        self.autoRenewStatus = .on
        self.isInBillingRetryPeriod = false
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
    }

    /// The payload's members, keys always in this order (the order of Apple's model).
    package func members(into m: inout some JSONMembers) {
        m.add("expirationIntent", expirationIntent?.rawValue)
        m.add("originalTransactionId", originalTransactionId)
        m.add("autoRenewProductId", autoRenewProductId)
        m.add("productId", productId)
        m.add("autoRenewStatus", autoRenewStatus.rawValue)
        m.add("isInBillingRetryPeriod", isInBillingRetryPeriod)
        m.add("priceIncreaseStatus", priceIncreaseStatus)
        m.add("offerType", offerType)
        m.add("offerIdentifier", offerIdentifier)
        m.add("gracePeriodExpiresDate", gracePeriodExpiresDate)
        m.add("signedDate", signedDate)
        m.add("environment", environment)
        m.add("recentSubscriptionStartDate", recentSubscriptionStartDate)
        m.add("renewalDate", renewalDate)
        m.add("currency", currency)
        m.add("renewalPrice", renewalPrice)
        m.add("appAccountToken", appAccountToken)
        m.add("offerDiscountType", offerDiscountType)
        m.add("appTransactionId", appTransactionId)
        m.add("offerPeriod", offerPeriod)
        m.add("eligibleWinBackOfferIds", strings: eligibleWinBackOfferIds)
    }
}
