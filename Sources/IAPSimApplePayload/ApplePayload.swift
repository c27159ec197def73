import IAPSimCore
import IAPSimSigned

/// The core's signed values as Apple's decoded payloads (dates in Unix milliseconds): what
/// the App Store Server API lookalike, `run --signed` and the StoreKit harness sign. Ids as
/// the caller shows them (the core's own by default).
package enum ApplePayload {
    /// Virtual milliseconds as Unix milliseconds (virtual 0 is 2026-01-01).
    package static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 {
        IAPSimSigned.VirtualTime.unixMilliseconds(virtual: Int64(virtual))
    }

    /// Apple's `JWSTransactionDecodedPayload` of a core value (`run --signed`, the API, serve):
    /// dates from virtual to Unix milliseconds, ids as `transactionId` and `appTransactionId` show them.
    package static func transaction(
        _ s: SignedTransaction, transactionId: (String) -> String = { $0 },
        appTransactionId: (String) -> String = { $0 }
    ) -> TransactionPayload {
        var p = TransactionPayload(
            transactionId: transactionId(s.transactionId), productId: s.productId,
            type: productType(s.type),
            purchaseDate: unix(s.purchaseDate), signedDate: unix(s.signedDate),
            price: Int64(s.price), appAccountToken: s.appAccountToken)
        p.originalTransactionId = transactionId(s.originalTransactionId)
        p.originalPurchaseDate = unix(s.originalPurchaseDate)
        p.revocationDate = s.revocationDate.map(unix)
        p.revocationReason = s.revocationReason.map(Int64.init)
        p.revocationType = s.revocationType
        p.revocationPercentage = s.revocationPercentage.map(Int64.init)
        p.appTransactionId = appTransactionId(s.appTransactionId)
        p.environment = s.environment
        p.inAppOwnershipType = s.inAppOwnershipType
        p.storefront = s.storefront
        p.storefrontId = s.storefrontId
        p.currency = s.currency
        if let f = s.subscription {
            p.type = .autoRenewable
            p.webOrderLineItemId = f.webOrderLineItemId
            p.subscriptionGroupIdentifier = f.group
            p.expiresDate = unix(f.expiresAt)
            p.transactionReason = f.reason == .renewal ? .renewal : .purchase
            p.isUpgraded = f.isUpgraded ? true : nil
            if let o = f.offer {
                p.offerType = Int64(o.type)
                p.offerIdentifier = o.identifier
                p.offerDiscountType = o.paymentMode.rawValue
                p.offerPeriod = o.period
            }
        }
        return p
    }

    /// Apple's `type` of a product kind.
    package static func productType(_ kind: ProductKind) -> TransactionPayload.ProductType {
        switch kind {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .nonRenewing: return .nonRenewing
        case .autoRenewable: return .autoRenewable
        }
    }

    /// Apple's `JWSRenewalInfoDecodedPayload` of a core value.
    package static func renewalInfo(
        _ r: RenewalInfo, transactionId: (String) -> String = { $0 },
        appTransactionId: (String) -> String = { $0 }
    ) -> RenewalInfoPayload {
        var p = RenewalInfoPayload(
            originalTransactionId: transactionId(r.originalTransactionId), productId: r.productId,
            signedDate: unix(r.signedDate), recentSubscriptionStartDate: unix(r.recentSubscriptionStartDate),
            renewalDate: unix(r.renewalDate), environment: r.environment)
        p.autoRenewProductId = r.autoRenewProductId
        p.autoRenewStatus = r.autoRenewStatus == 1 ? .on : .off
        p.isInBillingRetryPeriod = r.isInBillingRetryPeriod
        p.gracePeriodExpiresDate = r.gracePeriodExpiresDate.map(unix)
        p.expirationIntent = r.expirationIntent.flatMap { RenewalInfoPayload.ExpirationIntent(rawValue: Int64($0)) }
        p.renewalPrice = Int64(r.renewalPrice)
        p.priceIncreaseStatus = r.priceIncreaseStatus.map(Int64.init)
        p.currency = "USD"
        p.appAccountToken = r.appAccountToken
        p.appTransactionId = appTransactionId(r.appTransactionId)
        if let o = r.offer {
            p.offerType = Int64(o.type)
            p.offerIdentifier = o.identifier
            p.offerDiscountType = o.paymentMode.rawValue
            p.offerPeriod = o.period
        }
        if !r.eligibleWinBackOfferIds.isEmpty { p.eligibleWinBackOfferIds = r.eligibleWinBackOfferIds }
        return p
    }
}
