import IAPSimSigned

/// Synthetic payloads covering what a run signs: a consumable, a non-consumable bought with
/// an appAccountToken, a refunded consumable.
enum Samples {
    static let t0 = VirtualTime.epochMilliseconds

    static let consumable = TransactionPayload(
        transactionId: "2000000001", productId: "coins100", type: .consumable,
        purchaseDate: t0 + 60_000, signedDate: t0 + 60_500, price: 990)

    static let withToken = TransactionPayload(
        transactionId: "2000000002", productId: "noads", type: .nonConsumable,
        purchaseDate: t0 + 120_000, signedDate: t0 + 120_000, price: 2990,
        appAccountToken: "6F9619FF-8B86-D011-B42D-00C04FC964FF")

    static let refunded = TransactionPayload(
        transactionId: "2000000003", productId: "coins500", type: .consumable,
        purchaseDate: t0 + 180_000, signedDate: t0 + 7_200_000, price: 4990,
        revocationDate: t0 + 7_200_000, revocationReason: 0)
}
