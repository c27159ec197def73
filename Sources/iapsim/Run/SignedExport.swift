import IAPSimCore
import IAPSimScenario
import IAPSimServe
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
                status: n.renewalInfo.map { status($0) },
                consumptionRequestReason: n.consumptionRequestReason?.rawValue,
                at: Int64(e.time))
        default: return
        }
    }

    /// Apple's payloads of the core's values: one set of functions for `run --signed`, the
    /// App Store Server API and `iapsim serve` (`APISigner`).
    static func payload(_ s: SignedTransaction) -> TransactionPayload { APISigner.payload(s) }
    static func payload(_ r: RenewalInfo) -> RenewalInfoPayload { APISigner.payload(r) }
    static func status(_ r: RenewalInfo) -> NotificationPayload.SubscriptionStatus { APISigner.status(r) }
    static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 { APISigner.unix(virtual) }
}
