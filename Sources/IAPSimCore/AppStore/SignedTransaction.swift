/// Who signed a JWS: the App Store (its chain ends at the simulator's root) or somebody
/// with a key of their own.
public enum Signer: String, Sendable, Hashable {
    case appStore = "App Store"
    case forger
}

/// A StoreKit 2 signed transaction (`jwsRepresentation`) as a value: the payload fields
/// as Apple's `JWSTransactionDecodedPayload` names them, dates in virtual milliseconds,
/// and who signed it. No bytes and no crypto here: the edge (IAPSimSigned) turns it into a
/// JWS when a run is asked for signed data. Fields that are the same for every simulated
/// transaction (bundleId, environment, storefront, currency) are the edge's.
public struct SignedTransaction: Sendable, Hashable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var type: ProductKind
    public var purchaseDate: VirtualTime
    public var originalPurchaseDate: VirtualTime
    /// When this copy was signed: every delivery of a transaction is signed anew.
    public var signedDate: VirtualTime
    /// The price in milliunits of the currency (990 for 0.99).
    public var price: Int
    /// The UUID the app passed to `purchase(options: [.appAccountToken(_:)])`, if any.
    public var appAccountToken: String?
    public var signer: Signer
    /// When Apple refunded it, and why (`revocationReason`: 0, refunded for another reason).
    public var revocationDate: VirtualTime? = nil
    public var revocationReason: Int? = nil

    /// Realistic size of the compact JWS: the x5c chain in the header, payload, signature.
    public var bytes: Int { 3_800 + (appAccountToken == nil ? 0 : 60) }

    /// The one entry a server reads from it: what a receipt's `in_app` entry was in StoreKit 1.
    public var entry: ReceiptEntry {
        ReceiptEntry(transactionId: transactionId, originalTransactionId: originalTransactionId,
                     productId: productId, purchaseDateMs: purchaseDate, appAccountToken: appAccountToken)
    }
}

extension AppStore {
    /// Signs a transaction now, as the App Store does for each delivery (a purchase result,
    /// `Transaction.updates`, `Transaction.unfinished`): the same payload, a new `signedDate`.
    func sign(_ t: StoreTransaction, now: VirtualTime) -> SignedTransaction? {
        guard let product = catalog.product(t.productId) else { return nil }
        let original = t.originalId.flatMap(transaction) ?? t
        let charged = t.chargedAt ?? t.createdAt
        return SignedTransaction(
            transactionId: t.id, originalTransactionId: original.id, productId: t.productId,
            type: product.kind, purchaseDate: charged,
            originalPurchaseDate: original.chargedAt ?? charged, signedDate: now,
            price: t.originalId == nil ? product.priceCents * 10 : 0,
            appAccountToken: t.appAccountToken, signer: .appStore,
            revocationDate: t.refundedAt, revocationReason: t.refundedAt.map { _ in 0 })
    }
}
