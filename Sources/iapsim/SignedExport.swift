import IAPSimCore
import IAPSimScenario
import IAPSimSigned

/// `run --signed`: the core's signed values, in run order, made into real JWS by the edge.
/// Signing happens here and only here: a run that asks for no bytes signs nothing.
enum SignedExport {
    /// Signs every transaction the App Store signed, every notification V2 it sent (each
    /// attempt, with its transaction inside) and every one the attacker forged during the
    /// run, in the order the log holds them.
    static func sign(_ records: [RunRecord], with writer: SignedDataWriter) throws {
        for case .entry(let e) in records { try sign(e, with: writer) }
    }

    /// Signs what one log entry holds, if it holds anything signed.
    static func sign(_ e: LogEntry, with writer: SignedDataWriter) throws {
        switch e.fact {
        case .transactionSigned(let s): try writer.transaction(payload(s), at: Int64(e.time))
        case .forgeryPrepared(let s): try writer.forged(payload(s), at: Int64(e.time))
        case .notificationSent(let n):
            let renewal = n.renewalInfo.map(payload)
            if let renewal { try writer.renewalInfo(renewal, at: Int64(e.time)) }
            try writer.notification(
                NotificationPayload.NotificationType(rawValue: n.type.rawValue) ?? .oneTimeCharge,
                subtype: n.subtype.flatMap { NotificationPayload.Subtype(rawValue: $0.rawValue) }, uuid: n.uuid,
                signedDate: unix(n.signedDate), transaction: payload(n.transaction), renewalInfo: renewal,
                status: n.renewalInfo.map { status($0, n.transaction) }, at: Int64(e.time))
        default: return
        }
    }

    /// Apple's payload of a core value: dates from virtual to Unix milliseconds; the fields
    /// every simulated transaction shares come from the edge.
    static func payload(_ s: SignedTransaction) -> TransactionPayload {
        var p = TransactionPayload(
            transactionId: s.transactionId, productId: s.productId,
            type: s.type == .consumable ? .consumable : .nonConsumable,
            purchaseDate: unix(s.purchaseDate), signedDate: unix(s.signedDate),
            price: Int64(s.price), appAccountToken: s.appAccountToken)
        p.originalTransactionId = s.originalTransactionId
        p.originalPurchaseDate = unix(s.originalPurchaseDate)
        p.revocationDate = s.revocationDate.map(unix)
        p.revocationReason = s.revocationReason.map(Int64.init)
        p.revocationType = s.revocationType
        p.revocationPercentage = s.revocationPercentage.map(Int64.init)
        p.appTransactionId = s.appTransactionId
        p.environment = s.environment
        if let f = s.subscription {
            p.type = .autoRenewable
            p.webOrderLineItemId = f.webOrderLineItemId
            p.subscriptionGroupIdentifier = f.group
            p.expiresDate = unix(f.expiresAt)
            p.transactionReason = f.reason == .renewal ? .renewal : .purchase
        }
        return p
    }

    /// Apple's `JWSRenewalInfoDecodedPayload` of a core value.
    static func payload(_ r: RenewalInfo) -> RenewalInfoPayload {
        var p = RenewalInfoPayload(
            originalTransactionId: r.originalTransactionId, productId: r.productId, signedDate: unix(r.signedDate),
            recentSubscriptionStartDate: unix(r.recentSubscriptionStartDate), renewalDate: r.renewalDate.map(unix),
            environment: r.environment)
        p.autoRenewProductId = r.autoRenewProductId
        p.autoRenewStatus = r.autoRenewStatus == 1 ? .on : .off
        p.isInBillingRetryPeriod = r.isInBillingRetryPeriod
        p.gracePeriodExpiresDate = r.gracePeriodExpiresDate.map(unix)
        p.expirationIntent = r.expirationIntent.flatMap { RenewalInfoPayload.ExpirationIntent(rawValue: Int64($0)) }
        return p
    }

    /// A notification's `data.status`, from what it carries: 5 revoked, 2 expired, 4 grace,
    /// 3 billing retry, else 1 active.
    static func status(_ r: RenewalInfo, _ t: SignedTransaction) -> NotificationPayload.SubscriptionStatus {
        if t.revocationDate != nil { return .revoked }
        if r.expirationIntent != nil { return .expired }
        if r.isInBillingRetryPeriod { return r.gracePeriodExpiresDate == nil ? .billingRetry : .gracePeriod }
        return .active
    }

    static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 {
        IAPSimSigned.VirtualTime.unixMilliseconds(virtual: Int64(virtual))
    }
}
