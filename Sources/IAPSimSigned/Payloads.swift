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
package struct TransactionPayload: Equatable, Sendable {
    package enum ProductType: String, Sendable { case consumable = "Consumable", nonConsumable = "Non-Consumable" }

    package var transactionId: String
    package var originalTransactionId: String
    package var bundleId: String
    package var productId: String
    package var purchaseDate: Int64
    package var originalPurchaseDate: Int64
    package var quantity: Int64
    package var type: ProductType
    package var inAppOwnershipType: String
    package var signedDate: Int64
    package var environment: String
    package var transactionReason: String
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
        self.transactionReason = "PURCHASE"
        self.storefront = "USA"
        self.storefrontId = "143441"
        self.price = price
        self.currency = "USD"
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
    }

    /// The payload as JSON, keys always in this order.
    package var json: JSONText {
        .members([
            ("transactionId", .string(transactionId)),
            ("originalTransactionId", .string(originalTransactionId)),
            ("bundleId", .string(bundleId)),
            ("productId", .string(productId)),
            ("purchaseDate", .integer(purchaseDate)),
            ("originalPurchaseDate", .integer(originalPurchaseDate)),
            ("quantity", .integer(quantity)),
            ("type", .string(type.rawValue)),
            ("inAppOwnershipType", .string(inAppOwnershipType)),
            ("signedDate", .integer(signedDate)),
            ("environment", .string(environment)),
            ("transactionReason", .string(transactionReason)),
            ("storefront", .string(storefront)),
            ("storefrontId", .string(storefrontId)),
            ("price", .integer(price)),
            ("currency", .string(currency)),
            ("appAccountToken", appAccountToken.map(JSONText.string)),
            ("revocationDate", revocationDate.map(JSONText.integer)),
            ("revocationReason", revocationReason.map(JSONText.integer)),
            ("revocationType", revocationType.map(JSONText.string)),
            ("revocationPercentage", revocationPercentage.map(JSONText.integer)),
            ("appTransactionId", appTransactionId.map(JSONText.string)),
        ])
    }
}

/// Apple's `ResponseBodyV2DecodedPayload` for a V2 notification about one transaction.
package struct NotificationPayload: Equatable, Sendable {
    package enum NotificationType: String, Sendable {
        case oneTimeCharge = "ONE_TIME_CHARGE", refund = "REFUND", consumptionRequest = "CONSUMPTION_REQUEST"
        case refundDeclined = "REFUND_DECLINED", refundReversed = "REFUND_REVERSED"
    }

    package var notificationType: NotificationType
    package var notificationUUID: String
    package var signedDate: Int64
    package var version: String
    package var bundleId: String
    /// `data.bundleVersion`: the app's build.
    package var bundleVersion: String
    /// `data.appAppleId`: the app's Apple ID (a number), which Apple's verifier needs in
    /// production.
    package var appAppleId: Int64
    package var environment: String
    /// The transaction, itself a JWS (`data.signedTransactionInfo`).
    package var signedTransactionInfo: String

    package init(
        notificationType: NotificationType, notificationUUID: String, signedDate: Int64,
        signedTransactionInfo: String, environment: String = SignedDataDefaults.environment
    ) {
        self.notificationType = notificationType
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.version = "2.0"
        self.bundleId = SignedDataDefaults.bundleId
        self.bundleVersion = SignedDataDefaults.bundleVersion
        self.appAppleId = SignedDataDefaults.appAppleId
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
    }

    /// The payload as JSON, keys always in this order.
    package var json: JSONText {
        .members([
            ("notificationType", .string(notificationType.rawValue)),
            ("notificationUUID", .string(notificationUUID)),
            (
                "data",
                .members([
                    ("appAppleId", .integer(appAppleId)),
                    ("bundleId", .string(bundleId)),
                    ("bundleVersion", .string(bundleVersion)),
                    ("environment", .string(environment)),
                    ("signedTransactionInfo", .string(signedTransactionInfo)),
                ])
            ),
            ("version", .string(version)),
            ("signedDate", .integer(signedDate)),
        ])
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
}
