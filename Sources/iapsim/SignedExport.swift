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
            try writer.notification(
                NotificationPayload.NotificationType(rawValue: n.type.rawValue) ?? .oneTimeCharge, uuid: n.uuid,
                signedDate: unix(n.signedDate), transaction: payload(n.transaction),
                at: Int64(e.time))
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
        return p
    }

    static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 {
        IAPSimSigned.VirtualTime.unixMilliseconds(virtual: Int64(virtual))
    }
}
