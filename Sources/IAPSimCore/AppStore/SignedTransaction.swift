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
/// transaction (bundleId) are the edge's; the storefront and currency are the catalog's.
package struct SignedTransaction: Sendable, Hashable {
    // The fields live in one shared, copy-on-write box: a signed transaction rides in
    // requests, answers, notifications, facts and kept records, and each of those copies is
    // one reference (a fact, and every log entry, is as large as its largest payload).
    private var fields: Shared<Values>

    package var transactionId: String { fields.value.transactionId }
    package var originalTransactionId: String { fields.value.originalTransactionId }
    package var productId: String { fields.value.productId }
    package var purchaseDate: VirtualTime { fields.value.purchaseDate }
    package var originalPurchaseDate: VirtualTime { fields.value.originalPurchaseDate }
    /// When this copy was signed: every delivery of a transaction is signed anew.
    package var signedDate: VirtualTime {
        get { fields.value.signedDate }
        set { fields.value.signedDate = newValue }
    }
    /// The price in milliunits of the currency (990 for 0.99).
    package var price: Int { fields.value.price }
    /// The UUID the app passed to `purchase(options: [.appAccountToken(_:)])`, if any.
    package var appAccountToken: String? {
        get { fields.value.appAccountToken }
        set { fields.value.appAccountToken = newValue }
    }
    /// When Apple refunded it.
    package var revocationDate: VirtualTime? { fields.value.revocationDate }
    package var type: ProductKind { fields.value.type }
    package var signer: Signer { fields.value.signer }
    /// `inAppOwnershipType`: `PURCHASED`, or `FAMILY_SHARED` for a family member's
    /// transaction of a purchase shared through Family Sharing.
    package var inAppOwnershipType: String { fields.value.familyShared ? "FAMILY_SHARED" : "PURCHASED" }
    /// A family member's transaction (`FAMILY_SHARED`): nobody paid for it.
    package var isFamilyShared: Bool { fields.value.familyShared }

    /// Why (`revocationReason`): 0, refunded for another reason, for every simulated refund.
    package var revocationReason: Int? { revocationDate.map { _ in 0 } }
    /// `appTransactionId`: the customer's `AppTransaction.appTransactionID` (API 1.15).
    package var appTransactionId: String { fields.value.appTransactionId }
    /// The refunded share in thousandths of a percent (`revocationPercentage`: 100000 for
    /// all of it), present once refunded.
    /// A family member's revoked transaction has none: nothing was refunded to them.
    package var revocationPercentage: Int? {
        revocationDate == nil || isFamilyShared ? nil : fields.value.revocationPercentage
    }
    /// `revocationType`: `REFUND_FULL`, or `REFUND_PRORATED` for a share; `FAMILY_REVOKE` for a
    /// family member's transaction whose sharing ended.
    package var revocationType: String? {
        if isFamilyShared { return revocationDate.map { _ in "FAMILY_REVOKE" } }
        return revocationPercentage.map { $0 == 100_000 ? "REFUND_FULL" : "REFUND_PRORATED" }
    }
    /// The `environment` the payload claims: the world's (`Production`, `Sandbox`), or
    /// what a forger wrote (`Xcode`).
    package var environment: String { fields.value.environment }
    /// `storefront`, `storefrontId` and `currency`: the catalog's (`CatalogSettings`).
    package var storefront: String { fields.value.store.storefront }
    package var storefrontId: String { fields.value.store.storefrontId }
    package var currency: String { fields.value.store.currency }

    /// A subscription transaction's fields (nil for a one-time product).
    package var subscription: SubscriptionFields? { fields.value.subscription }
    /// `expiresDate`, for a subscription.
    package var expiresDate: VirtualTime? { subscription?.expiresAt }
    /// `webOrderLineItemId`, for a subscription.
    package var webOrderLineItemId: String? { subscription?.webOrderLineItemId }
    /// `subscriptionGroupIdentifier`, for a subscription.
    package var subscriptionGroupIdentifier: String? { subscription?.group }
    /// `transactionReason`: `RENEWAL` for a renewal, `PURCHASE` otherwise.
    package var transactionReason: TransactionReason { subscription?.reason ?? .purchase }
    /// Apple's `type`: `Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`.
    package var typeName: String { type.payloadType }

    package init(
        transactionId: String, originalTransactionId: String, productId: String, type: ProductKind,
        purchaseDate: VirtualTime, originalPurchaseDate: VirtualTime, signedDate: VirtualTime,
        price: Int, appAccountToken: String?, signer: Signer, revocationDate: VirtualTime? = nil,
        revocationPercentage: Int = 100_000, appTransactionId: String = AppStore.appTransactionId,
        environment: String = StoreEnvironment.production.payloadName,
        subscription: SubscriptionFields? = nil, store: CatalogSettings = CatalogSettings(),
        familyShared: Bool = false
    ) {
        fields = Shared(
            Values(
                transactionId: transactionId, originalTransactionId: originalTransactionId,
                productId: productId, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
                signedDate: signedDate, price: price, appAccountToken: appAccountToken,
                revocationDate: revocationDate, type: type, signer: signer,
                revocationPercentage: revocationPercentage, appTransactionId: appTransactionId,
                environment: environment, subscription: subscription, store: store, familyShared: familyShared))
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
        guard let (kind, priceCents) = catalog.read(t.productId, { ($0.kind, $0.priceCents) }) else { return nil }
        // Looked up in place: `.flatMap(transaction)` made a closure of the method, a copy of
        // the whole App Store in a context allocated at every signature.
        var original = t
        if let id = t.subscription?.originalTransactionId ?? t.originalId, let found = transaction(id) {
            original = found
        }
        let charged = t.chargedAt ?? t.createdAt
        return SignedTransaction(
            transactionId: t.id, originalTransactionId: original.id, productId: t.productId,
            type: kind, purchaseDate: charged,
            originalPurchaseDate: original.chargedAt ?? charged, signedDate: now,
            // What was paid: an introductory offer's price (0 for a free trial), else the product's.
            price: t.originalId == nil
                ? (t.subscription?.offer?.priceCents ?? t.subscription?.chargedCents ?? priceCents) * 10 : 0,
            appAccountToken: t.appAccountToken, signer: .appStore,
            revocationDate: t.refundedAt, revocationPercentage: t.refundPercent * 1_000,
            environment: environment.payloadName, subscription: t.subscription, store: catalog.settings)
    }
}

extension SignedTransaction {
    /// The payload's values, compared and hashed as one.
    struct Values: Hashable, Sendable {
        var transactionId: String
        var originalTransactionId: String
        var productId: String
        var purchaseDate: VirtualTime
        var originalPurchaseDate: VirtualTime
        var signedDate: VirtualTime
        var price: Int
        var appAccountToken: String?
        var revocationDate: VirtualTime?
        var type: ProductKind
        var signer: Signer
        var revocationPercentage: Int
        var appTransactionId: String
        var environment: String
        var subscription: SubscriptionFields?
        var store: CatalogSettings
        var familyShared: Bool
    }
}
