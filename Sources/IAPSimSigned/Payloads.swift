/// The simulator's clock in the units of Apple's signed data.
package enum VirtualTime {
    /// Virtual time 0 is 2026-01-01T00:00:00Z.
    package static let epochMilliseconds: Int64 = 1_767_225_600_000

    /// Milliseconds since the Unix epoch for a virtual time in milliseconds.
    package static func unixMilliseconds(virtual milliseconds: Int64) -> Int64 {
        epochMilliseconds + milliseconds
    }
}

/// The fields of Apple's `JWSTransactionDecodedPayload` the simulator fills, with Apple's
/// names and JSON types; dates are milliseconds since the Unix epoch, `price` in milliunits.
/// An auto-renewable subscription's transaction adds `webOrderLineItemId`,
/// `subscriptionGroupIdentifier` and `expiresDate` (and `isUpgraded` on the transaction an
/// upgrade replaced); a period bought or renewed at an introductory offer adds `offerType` 1,
/// `offerDiscountType` and `offerPeriod`, and its `price` is what was paid (0 for a free trial).
package struct TransactionPayload: Equatable, Sendable, JSONPayload {
    package enum ProductType: String, Sendable {
        case consumable = "Consumable", nonConsumable = "Non-Consumable"
        case nonRenewing = "Non-Renewing Subscription"
        case autoRenewable = "Auto-Renewable Subscription"
    }

    /// Apple's `TransactionReason`: a purchase the customer made, or one the App Store made
    /// by renewing a subscription.
    package enum Reason: String, Sendable { case purchase = "PURCHASE", renewal = "RENEWAL" }

    package var transactionId: String
    package var originalTransactionId: String
    /// A subscription's: the id of this purchase or renewal (a new one each period), as a
    /// string of digits.
    package var webOrderLineItemId: String?
    package var bundleId: String
    package var productId: String
    /// A subscription's group (`pro`).
    package var subscriptionGroupIdentifier: String?
    package var purchaseDate: Int64
    package var originalPurchaseDate: Int64
    /// A subscription's: when this period ends (renews or expires).
    package var expiresDate: Int64?
    package var quantity: Int64
    package var type: ProductType
    package var inAppOwnershipType: String
    package var signedDate: Int64
    /// `true` on a subscription transaction the customer upgraded away from.
    package var isUpgraded: Bool?
    package var environment: String
    package var transactionReason: Reason
    package var storefront: String
    package var storefrontId: String
    package var price: Int64
    package var currency: String
    /// A UUID string, present when the app passed `.appAccountToken(_:)` to `purchase`.
    package var appAccountToken: String?
    /// Present once the purchase is refunded, with `revocationReason` (0 other, 1 app issue).
    package var revocationDate: Int64?
    package var revocationReason: Int64?
    /// `REFUND_FULL` or `REFUND_PRORATED`, with `revocationPercentage` (thousandths of a
    /// percent), present on refunded transactions (App Store Server Notifications 2.20).
    package var revocationType: String?
    package var revocationPercentage: Int64?
    /// The customer's `AppTransaction.appTransactionID` (App Store Server API 1.15).
    package var appTransactionId: String?
    /// `1` introductory, `2` promotional, `3` an offer code, `4` win-back (Apple's `OfferType`); absent without an offer.
    package var offerType: Int64?
    /// The offer's identifier, with `offerType` 2 (promotional), 3 (an offer code's reference name) or 4 (win-back).
    package var offerIdentifier: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`, with `offerType`.
    package var offerDiscountType: String?
    /// The offer's duration (ISO 8601, `P3D`), with `offerType`.
    package var offerPeriod: String?

    /// A first purchase (original id and date are its own) in the simulator's sandbox
    /// storefront; the fixed fields take the values docs/world.md gives.
    package init(
        transactionId: String, productId: String, type: ProductType, purchaseDate: Int64,
        signedDate: Int64, price: Int64, appAccountToken: String? = nil,
        revocationDate: Int64? = nil, revocationReason: Int64? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = transactionId
        self.bundleId = SignedDataDefaults.bundleId
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = purchaseDate
        self.quantity = 1
        self.type = type
        self.inAppOwnershipType = "PURCHASED"
        self.signedDate = signedDate
        self.environment = SignedDataDefaults.environment
        self.transactionReason = .purchase
        self.storefront = "USA"
        self.storefrontId = "143441"
        self.price = price
        self.currency = "USD"
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
    }

    /// One period of an auto-renewable subscription: its first purchase (`originalTransactionId`
    /// and `originalPurchaseDate` its own) or a renewal of `original` (reason `RENEWAL`), in
    /// group `pro` unless told otherwise.
    package static func subscription(
        transactionId: String, original: (id: String, purchaseDate: Int64)? = nil, webOrderLineItemId: String,
        productId: String, purchaseDate: Int64, expiresDate: Int64, signedDate: Int64, price: Int64,
        reason: Reason = .purchase, appAccountToken: String? = nil,
        groupIdentifier: String = SignedDataDefaults.subscriptionGroup
    ) -> TransactionPayload {
        var p = TransactionPayload(
            transactionId: transactionId, productId: productId, type: .autoRenewable, purchaseDate: purchaseDate,
            signedDate: signedDate, price: price, appAccountToken: appAccountToken)
        if let original {
            p.originalTransactionId = original.id
            p.originalPurchaseDate = original.purchaseDate
        }
        p.webOrderLineItemId = webOrderLineItemId
        p.subscriptionGroupIdentifier = groupIdentifier
        p.expiresDate = expiresDate
        p.transactionReason = reason
        return p
    }

    /// The payload's members, keys always in this order (Apple's, for the fields both have).
    package func members(into m: inout some JSONMembers) {
        m.add("transactionId", transactionId)
        m.add("originalTransactionId", originalTransactionId)
        m.add("webOrderLineItemId", webOrderLineItemId)
        m.add("bundleId", bundleId)
        m.add("productId", productId)
        m.add("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
        m.add("purchaseDate", purchaseDate)
        m.add("originalPurchaseDate", originalPurchaseDate)
        m.add("expiresDate", expiresDate)
        m.add("quantity", quantity)
        m.add("type", type.rawValue)
        m.add("inAppOwnershipType", inAppOwnershipType)
        m.add("signedDate", signedDate)
        m.add("isUpgraded", isUpgraded)
        m.add("offerType", offerType)
        m.add("offerIdentifier", offerIdentifier)
        m.add("environment", environment)
        m.add("transactionReason", transactionReason.rawValue)
        m.add("storefront", storefront)
        m.add("storefrontId", storefrontId)
        m.add("price", price)
        m.add("currency", currency)
        m.add("appAccountToken", appAccountToken)
        m.add("revocationDate", revocationDate)
        m.add("revocationReason", revocationReason)
        m.add("revocationType", revocationType)
        m.add("revocationPercentage", revocationPercentage)
        m.add("offerDiscountType", offerDiscountType)
        m.add("appTransactionId", appTransactionId)
        m.add("offerPeriod", offerPeriod)
    }
}

/// The simulated app and App Store environment every payload names.
package enum SignedDataDefaults {
    package static let bundleId = "com.example.iapsim"
    /// The environment of a payload made without a run's (tests, samples). A run's payloads
    /// name its own environment (`Production` by default); none passes for Apple's, since
    /// the simulator signs with a root of its own.
    package static let environment = "Sandbox"
    package static let bundleVersion = "1.0"
    /// The simulated app's Apple ID.
    package static let appAppleId: Int64 = 6_450_000_001
    /// The one subscription group of the catalog.
    package static let subscriptionGroup = "pro"
}
