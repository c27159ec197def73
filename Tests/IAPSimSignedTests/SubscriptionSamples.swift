import IAPSimSigned

/// Synthetic payloads of one `pro_monthly` subscription: its first purchase on 2026-01-01,
/// its renewal on 2026-02-01 (refunded in one sample), and its renewal info as the App Store
/// signs it while active, in a grace period, after a voluntary expiry and with a downgrade
/// pending.
enum SubscriptionSamples {
    static let t0 = VirtualTime.epochMilliseconds
    static let day: Int64 = 86_400_000
    static let bought = t0 + 60_000
    /// 31 days of January later.
    static let renewed = bought + 31 * day
    /// 28 days of February later.
    static let renewedExpires = renewed + 28 * day

    static let purchase = TransactionPayload.subscription(
        transactionId: "2000000010", webOrderLineItemId: "900000001", productId: "pro_monthly",
        purchaseDate: bought, expiresDate: renewed, signedDate: bought + 500, price: 4990,
        appAccountToken: "6F9619FF-8B86-D011-B42D-00C04FC964FF")

    static let renewal = TransactionPayload.subscription(
        transactionId: "2000000011", original: (id: "2000000010", purchaseDate: bought),
        webOrderLineItemId: "900000002", productId: "pro_monthly", purchaseDate: renewed,
        expiresDate: renewedExpires, signedDate: renewed, price: 4990, reason: .renewal)

    static let refundedRenewal: TransactionPayload = {
        var p = renewal
        p.signedDate = renewed + 3 * day
        p.revocationDate = renewed + 3 * day
        p.revocationReason = 0
        return p
    }()

    static let active = RenewalInfoPayload(
        originalTransactionId: "2000000010", productId: "pro_monthly", signedDate: bought + 500,
        recentSubscriptionStartDate: bought, renewalDate: renewed)

    static let inGrace: RenewalInfoPayload = {
        var p = active
        p.signedDate = renewed
        p.isInBillingRetryPeriod = true
        p.gracePeriodExpiresDate = renewed + 16 * day
        return p
    }()

    static let expiredVoluntarily: RenewalInfoPayload = {
        var p = active
        p.signedDate = renewed
        p.autoRenewStatus = .off
        p.expirationIntent = .customerCancelled
        return p
    }()

    static let expiredBilling: RenewalInfoPayload = {
        var p = inGrace
        p.signedDate = renewed + 60 * day
        p.isInBillingRetryPeriod = false
        p.gracePeriodExpiresDate = nil
        p.expirationIntent = .billingError
        return p
    }()

    static let downgradePending: RenewalInfoPayload = {
        var p = active
        p.productId = "plus_monthly"
        p.autoRenewProductId = "pro_monthly"
        p.renewalPrice = 4990
        p.currency = "USD"
        return p
    }()
}
