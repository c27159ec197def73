import Foundation
import IAPSimApplePayload
import IAPSimCore
import IAPSimSigned

/// The core's signed values as Apple's payloads, signed by the simulator's App Store chain
/// (the chain of `iapsim run --signed`): the only bytes the API answers with.
package struct APISigner: Sendable {
    let signer: JWSSigner
    let environment: StoreEnvironment

    package init(environment: StoreEnvironment) throws {
        signer = JWSSigner(chain: try SigningChain.appStore())
        self.environment = environment
    }

    /// Virtual milliseconds as Unix milliseconds (virtual 0 is 2026-01-01).
    package static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 { ApplePayload.unix(virtual) }

    /// Apple's `JWSTransactionDecodedPayload` of a core value (`run --signed`, the API, serve):
    /// dates from virtual to Unix milliseconds, ids as `ids` shows them.
    package static func payload(_ s: SignedTransaction, ids: APIIds = .core) -> TransactionPayload {
        ApplePayload.transaction(s, transactionId: ids.transaction, appTransactionId: ids.appTransaction)
    }

    /// Apple's `JWSRenewalInfoDecodedPayload` of a core value.
    package static func payload(_ r: RenewalInfo, ids: APIIds = .core) -> RenewalInfoPayload {
        ApplePayload.renewalInfo(r, transactionId: ids.transaction, appTransactionId: ids.appTransaction)
    }

    /// A notification's `data.status`: the subscription's status at its `signedDate`, as the
    /// App Store kept it when it signed the renewal info (the same value Get All
    /// Subscription Statuses and the log give; Apple's `Status`: 1 active, 2 expired,
    /// 3 billing retry, 4 grace, 5 revoked).
    package static func status(_ r: RenewalInfo) -> NotificationPayload.SubscriptionStatus {
        NotificationPayload.SubscriptionStatus(rawValue: Int64(r.status.rawValue)) ?? .active
    }

    func transaction(_ s: SignedTransaction, ids: APIIds) throws -> String {
        try signer.sign(Self.payload(s, ids: ids))
    }

    func renewalInfo(_ r: RenewalInfo, ids: APIIds) throws -> String {
        try signer.sign(Self.payload(r, ids: ids))
    }

    /// A notification V2 `signedPayload`, its transaction (and a subscription's renewal
    /// info) signed inside.
    func notification(_ n: ServerNotification, ids: APIIds) throws -> String {
        let type = NotificationPayload.NotificationType(rawValue: n.type.rawValue) ?? .oneTimeCharge
        var payload = NotificationPayload(
            notificationType: type, notificationUUID: ids.notification(n.uuid), signedDate: Self.unix(n.signedDate),
            signedTransactionInfo: try transaction(n.transaction, ids: ids), environment: environment.payloadName)
        payload.subtype = n.subtype.flatMap { NotificationPayload.Subtype(rawValue: $0.rawValue) }
        if let r = n.renewalInfo {
            payload.signedRenewalInfo = try signer.sign(Self.payload(r, ids: ids))
            payload.status = Self.status(r)
        }
        payload.consumptionRequestReason = n.consumptionRequestReason?.rawValue
        return try signer.sign(payload)
    }

    /// A `TEST` notification: `data` holds no transaction.
    func testNotification(uuid: String, signedDate: IAPSimCore.VirtualTime) throws -> String {
        try signer.sign(
            JSONText.members([
                ("notificationType", .string("TEST")),
                ("notificationUUID", .string(uuid)),
                (
                    "data",
                    .members([
                        ("appAppleId", .integer(SignedDataDefaults.appAppleId)),
                        ("bundleId", .string(SignedDataDefaults.bundleId)),
                        ("bundleVersion", .string(SignedDataDefaults.bundleVersion)),
                        ("environment", .string(environment.payloadName)),
                    ])
                ),
                ("version", .string("2.0")),
                ("signedDate", .integer(Self.unix(signedDate))),
            ]))
    }
}
