import Foundation
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
    package static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 {
        IAPSimSigned.VirtualTime.unixMilliseconds(virtual: Int64(virtual))
    }

    /// Apple's `JWSTransactionDecodedPayload` of a core value.
    package static func payload(_ s: SignedTransaction, ids: APIIds = .core) -> TransactionPayload {
        var p = TransactionPayload(
            transactionId: ids.transaction(s.transactionId), productId: s.productId,
            type: s.type == .consumable ? .consumable : .nonConsumable,
            purchaseDate: unix(s.purchaseDate), signedDate: unix(s.signedDate),
            price: Int64(s.price), appAccountToken: s.appAccountToken)
        p.originalTransactionId = ids.transaction(s.originalTransactionId)
        p.originalPurchaseDate = unix(s.originalPurchaseDate)
        p.revocationDate = s.revocationDate.map(unix)
        p.revocationReason = s.revocationReason.map(Int64.init)
        p.revocationType = s.revocationType
        p.revocationPercentage = s.revocationPercentage.map(Int64.init)
        p.appTransactionId = ids.appTransaction(s.appTransactionId)
        p.environment = s.environment
        return p
    }

    func transaction(_ s: SignedTransaction, ids: APIIds) throws -> String {
        try signer.sign(Self.payload(s, ids: ids))
    }

    /// A notification V2 `signedPayload`, its transaction signed inside.
    func notification(_ n: ServerNotification, ids: APIIds) throws -> String {
        let type = NotificationPayload.NotificationType(rawValue: n.type.rawValue) ?? .oneTimeCharge
        return try signer.sign(
            NotificationPayload(
                notificationType: type, notificationUUID: n.uuid, signedDate: Self.unix(n.signedDate),
                signedTransactionInfo: try transaction(n.transaction, ids: ids), environment: environment.payloadName))
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
