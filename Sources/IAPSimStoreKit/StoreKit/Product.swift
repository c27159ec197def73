import Foundation
import IAPSimCore

/// A product of the simulated App Store's catalog, with StoreKit 2's names.
public struct Product: Sendable, Hashable, Identifiable {
    /// The product identifier (`coins_100`).
    public let id: String
    /// Consumable, non-consumable, non-renewing or auto-renewable.
    public let type: ProductType
    /// The name the catalog gives it.
    public let displayName: String
    /// The catalog's description (its name: the simulated catalog keeps one text).
    public let description: String
    /// The price in the storefront's currency.
    public let price: Decimal
    /// The price as the purchase sheet shows it, in the storefront's locale (`$0.99`,
    /// `£0.99`, `¥120`, `0,99 €`).
    public let displayPrice: String
    /// For an auto-renewable subscription: its group and period.
    public let subscription: SubscriptionInfo?
    /// Whether the purchaser's family shares it (the catalog's `familyShareable`): a family
    /// member gets a `FAMILY_SHARED` transaction of each period (docs/world.md, "Family Sharing").
    public let isFamilyShareable: Bool

    init(_ p: IAPSimCore.Product, storefront: String, currency: String) {
        id = p.id
        type = ProductType(p.kind)
        displayName = p.title
        isFamilyShareable = p.familyShareable
        description = p.title
        price = Decimal(p.priceCents) / 100
        displayPrice = Self.displayPrice(cents: p.priceCents, storefront: storefront, currency: currency)
        subscription = p.subscription.map {
            SubscriptionInfo(productID: p.id, terms: $0, storefront: storefront, currency: currency)
        }
    }

    /// The products of `identifiers` the catalog sells, in the catalog's order; unknown ids
    /// are left out (StoreKit's behaviour).
    public static func products<Identifiers: Collection>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers.Element == String {
        guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
        guard store.noteCall() else { throw CancellationError() }
        if let configured = store.configuredError(.loadProducts) { throw configured }
        let settings = store.catalog.settings
        return (store.catalog.products + store.catalog.subscriptions)
            .filter { identifiers.contains($0.id) }
            .map { Product($0, storefront: settings.storefront, currency: settings.currency) }
    }

    /// `cents` as the storefront's locale writes its currency (`CatalogSettings.displayPrice`,
    /// the one formatter the terminal UI shows too).
    static func displayPrice(cents: Int, storefront: String, currency: String) -> String {
        var settings = CatalogSettings()
        settings.storefront = storefront
        settings.currency = currency
        return settings.displayPrice(cents)
    }

    /// Buys the product. The result comes back to this call: `.success` with the signed
    /// transaction, `.userCancelled` (also what an interrupted purchase returns first; its
    /// charge arrives later on `Transaction.updates`), `.pending` (Ask to Buy; the outcome
    /// comes on `Transaction.updates`), or a thrown `StoreKitError` / `PurchaseError`.
    public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
        let token = options.compactMap(\.token).first
        let promotional = options.compactMap(\.promotional).first
        let winBack = options.compactMap(\.winBack).first
        return try await store.purchase(product: id, token: token, promotional: promotional, winBack: winBack)
    }

    /// Buys the product, the confirmation shown in `scene` (StoreKit's `purchase(confirmIn:options:)`,
    /// a `UIScene`, `UIViewController` or `NSWindow` on a device): here as `purchase(options:)`.
    public func purchase(confirmIn scene: some Any, options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        try await purchase(options: options)
    }

    /// What a purchase call returns.
    public enum PurchaseResult: Sendable {
        /// Paid: the signed transaction, verified or not. Deliver, then `finish()`.
        case success(VerificationResult<Transaction>)
        /// The user cancelled, or the purchase was interrupted (its charge, if any, comes later
        /// on `Transaction.updates`).
        case userCancelled
        /// Waiting for approval (Ask to Buy): the outcome comes on `Transaction.updates`.
        case pending
    }

    /// An option of a purchase call.
    public struct PurchaseOption: Sendable, Hashable {
        let token: UUID?
        /// A promotional offer with your server's signature (`PromotionalOffer.swift`).
        let promotional: PromotionalSignature?
        /// A win-back offer's id (`winBackOffer(_:)`).
        let winBack: String?

        init(token: UUID? = nil, promotional: PromotionalSignature? = nil, winBack: String? = nil) {
            self.token = token
            self.promotional = promotional
            self.winBack = winBack
        }

        /// Applies a win-back offer (one of `SubscriptionInfo.winBackOffers`): the App Store
        /// applies it if the customer is eligible, else `purchase` throws `ineligibleForOffer`.
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> PurchaseOption {
            PurchaseOption(winBack: offer.id ?? "")
        }

        /// Ties the transaction to your account: the App Store signs it into the transaction
        /// (`appAccountToken`) and your server can credit the order it names.
        public static func appAccountToken(_ token: UUID) -> PurchaseOption { PurchaseOption(token: token) }
    }

    /// What a purchase call throws when the product cannot be bought. The simulated store
    /// throws `productUnavailable` (an unknown product, or the `invalid` payment failure),
    /// `invalidOfferIdentifier` and `invalidOfferSignature` (a promotional offer the App Store
    /// refuses), `ineligibleForOffer` (a win-back offer the customer may not have); the other
    /// cases exist for code written against StoreKit.
    public enum PurchaseError: Error, Sendable, Equatable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }

    /// The kind of a product.
    public struct ProductType: RawRepresentable, Sendable, Hashable {
        /// Apple's name of the kind (`Consumable`).
        public let rawValue: String
        /// The kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")

        init(_ kind: ProductKind) {
            switch kind {
            case .consumable: self = .consumable
            case .nonConsumable: self = .nonConsumable
            case .nonRenewing: self = .nonRenewable
            case .autoRenewable: self = .autoRenewable
            }
        }
    }
}

/// What StoreKit throws for a failure that is not the product's. The simulated store throws
/// `networkError` (the `network` payment failure), `notEntitled` (nobody logged in),
/// `unknown` (no store, or the app not running); the others exist for code written
/// against StoreKit.
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
}
