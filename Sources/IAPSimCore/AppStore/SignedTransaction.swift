/// Who signed a JWS: the App Store (its chain ends at the simulator's root) or somebody
/// with a key of their own.
package enum Signer: String, Sendable, Hashable {
    case appStore = "App Store"
    case forger
}

/// A StoreKit 2 signed transaction (`jwsRepresentation`) as a value: the payload fields
/// as Apple's `JWSTransactionDecodedPayload` names them, dates in virtual milliseconds,
/// and who signed it. No bytes and no crypto here: the edge (IAPSimSigned) turns it into a
/// JWS when a run is asked for signed data. Fields that are the same for every simulated
/// transaction (bundleId, environment, storefront, currency) are the edge's.
package struct SignedTransaction: Sendable, Hashable {
    // Stored with the one-byte fields last: a fact holds one inline, and every fact is as
    // large as its largest payload.
    package var transactionId: String
    package var originalTransactionId: String
    package var productId: String
    package var purchaseDate: VirtualTime
    package var originalPurchaseDate: VirtualTime
    /// When this copy was signed: every delivery of a transaction is signed anew.
    package var signedDate: VirtualTime
    /// The price in milliunits of the currency (990 for 0.99).
    package var price: Int
    /// The UUID the app passed to `purchase(options: [.appAccountToken(_:)])`, if any.
    package var appAccountToken: String?
    /// When Apple refunded it.
    package var revocationDate: VirtualTime?
    package var type: ProductKind
    package var signer: Signer

    /// Why (`revocationReason`): 0, refunded for another reason, for every simulated refund.
    package var revocationReason: Int? { revocationDate.map { _ in 0 } }

    package init(
        transactionId: String, originalTransactionId: String, productId: String, type: ProductKind,
        purchaseDate: VirtualTime, originalPurchaseDate: VirtualTime, signedDate: VirtualTime,
        price: Int, appAccountToken: String?, signer: Signer, revocationDate: VirtualTime? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.signedDate = signedDate
        self.price = price
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.type = type
        self.signer = signer
    }

    /// Realistic size of the compact JWS: the x5c chain in the header, payload, signature.
    package var bytes: Int { 3_800 + (appAccountToken == nil ? 0 : 60) }

    /// The one entry a server reads from it: what a receipt's `in_app` entry was in StoreKit 1.
    package var entry: ReceiptEntry {
        ReceiptEntry(
            transactionId: transactionId, originalTransactionId: originalTransactionId,
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
            revocationDate: t.refundedAt)
    }
}
