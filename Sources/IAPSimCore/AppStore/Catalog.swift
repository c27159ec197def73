/// What a product is to the App Store: used up on finish, owned forever, bought for a time
/// the app counts itself, or renewed by the App Store.
package enum ProductKind: String, Sendable, Hashable {
    case consumable
    case nonConsumable = "non-consumable"
    /// A non-renewing subscription: sold again and again like a consumable, kept in the
    /// receipt like a non-consumable; the app, not the App Store, counts its time.
    case nonRenewing = "non-renewing"
    /// An auto-renewable subscription (StoreKit 2 world only; docs/world.md, "Subscriptions").
    case autoRenewable = "auto-renewable"

    /// Apple's `type` field of a transaction payload.
    package var payloadType: String {
        switch self {
        case .consumable: return "Consumable"
        case .nonConsumable: return "Non-Consumable"
        case .nonRenewing: return "Non-Renewing Subscription"
        case .autoRenewable: return "Auto-Renewable Subscription"
        }
    }
}

/// What makes a product an auto-renewable subscription: its group, its level in the group
/// (1 is the highest service), its period, and its introductory offer if it has one.
package struct SubscriptionTerms: Sendable, Hashable {
    package var group: String
    package var level: Int
    package var period: RenewalPeriod
    /// The introductory offer (free trial, pay as you go, pay up front) an eligible customer
    /// gets at the first purchase in the group.
    package var intro: IntroductoryOffer?
    /// The promotional offers (a `.storekit` file's `adHocOffers`), each with its
    /// `promotionalId`: applied only to a purchase that carries the merchant server's
    /// signature for it (`PromotionalOffer.swift`).
    package var promotional: [IntroductoryOffer] = []
    /// The offer codes (a `.storekit` file's `codeOffers`): redeemed with a code
    /// (`redeem-code`, `OfferCodes.swift`).
    package var codes: [OfferCode] = []
    /// The win-back offers (a `.storekit` file's `winbackOffers`): for lapsed subscribers
    /// who meet their rules (`OfferCodes.swift`).
    package var winBack: [WinBackOffer] = []

    package init(
        group: String, level: Int, period: RenewalPeriod, intro: IntroductoryOffer? = nil,
        promotional: [IntroductoryOffer] = []
    ) {
        self.group = group
        self.level = level
        self.period = period
        self.intro = intro
        self.promotional = promotional
    }

    package init(group: String, level: Int, months: Int) {
        self.init(group: group, level: level, period: RenewalPeriod(months, .month))
    }
}

/// One in-app product. Prices are in cents so that money adds up exactly.
package struct Product: Sendable, Hashable {
    package var id: String
    package var kind: ProductKind
    package var priceCents: Int
    /// What a consumable credits, in `unit`s; 0 for a product that grants an entitlement.
    package var coins: Int
    package var title: String
    /// Its group, level and period when it is an auto-renewable subscription.
    package var subscription: SubscriptionTerms?
    /// `familyShareable`: a subscription the purchaser's family shares (Family Sharing,
    /// Subscriptions/FamilySharing.swift); StoreKit's `Product.isFamilyShareable`.
    package var familyShareable = false

    package init(
        id: String, kind: ProductKind, priceCents: Int, coins: Int, title: String,
        subscription: SubscriptionTerms? = nil, familyShareable: Bool = false
    ) {
        self.familyShareable = familyShareable
        self.id = id
        self.kind = kind
        self.priceCents = priceCents
        self.coins = coins
        self.title = title
        self.subscription = subscription
    }
}

/// The products the App Store sells for the app, in a fixed order: the one-time products
/// (`products`, what explore and the UI's buy menu draw from) and the auto-renewable
/// subscriptions (`subscriptions`, sold in the StoreKit 2 world only), with the settings of
/// the StoreKit configuration file that mean something in the world.
package struct Catalog: Sendable, Hashable {
    package var products: [Product]
    package var subscriptions: [Product]
    package var settings: CatalogSettings
    /// What each consumable's `coins` count, by product id: the unit a scenario's `grants:`
    /// names, or the product's own id (one unit of itself); `coins` when it names none (the
    /// built-in catalog). Beside the products, not in them: a product is copied at every
    /// lookup of the hot path, and only the words of the UI and the catalog need its unit.
    package var units: [String: String] = [:]

    package init(products: [Product], subscriptions: [Product] = [], settings: CatalogSettings = CatalogSettings()) {
        self.products = products
        self.subscriptions = subscriptions
        self.settings = settings
    }

    /// The unit a consumable's `coins` count.
    package func unit(of product: String) -> String { units[product] ?? "coins" }

    /// The built-in catalog: `scenarios/iapsim.storekit` with its grants (100 and 550 coins).
    package static let standard = Catalog(
        products: [
            Product(id: "coins_100", kind: .consumable, priceCents: 99, coins: 100, title: "100 coins"),
            Product(id: "coins_550", kind: .consumable, priceCents: 499, coins: 550, title: "550 coins"),
            Product(id: "no_ads", kind: .nonConsumable, priceCents: 299, coins: 0, title: "No ads"),
        ],
        subscriptions: [
            Product(
                id: "pro_monthly", kind: .autoRenewable, priceCents: 499, coins: 0, title: "Pro, monthly",
                subscription: SubscriptionTerms(group: "pro", level: 2, months: 1), familyShareable: true),
            Product(
                id: "plus_monthly", kind: .autoRenewable, priceCents: 999, coins: 0, title: "Plus, monthly",
                subscription: SubscriptionTerms(group: "pro", level: 1, months: 1), familyShareable: true),
            Product(
                id: "pro_yearly", kind: .autoRenewable, priceCents: 4_999, coins: 0, title: "Pro, yearly",
                subscription: SubscriptionTerms(group: "pro", level: 2, period: RenewalPeriod(1, .year)),
                familyShareable: true),
        ])

    /// The one-time products' ids (what explore and the buy menu draw from).
    package var ids: [String] { products.map(\.id) }

    /// Every product's id, subscriptions last: what a command may name.
    package var allIds: [String] { products.map(\.id) + subscriptions.map(\.id) }

    package func product(_ id: String) -> Product? { read(id) { $0 } }

    /// What `field` reads of product `id`, read in place, or nil when there is no such
    /// product. By index: only the id of each product is read, and the one found is not
    /// copied (a copy of a product, its strings and terms, cost 2% of an explore run: a
    /// command's refusal, a payment, a receipt and a verification each look one up).
    @inline(__always)
    package func read<T>(_ id: String, _ field: (Product) -> T) -> T? {
        if let i = products.indices.first(where: { products[$0].id == id }) { return field(products[i]) }
        if let i = subscriptions.indices.first(where: { subscriptions[$0].id == id }) {
            return field(subscriptions[i])
        }
        return nil
    }

    /// The kind of product `id`, or nil when there is no such product.
    package func kind(of id: String) -> ProductKind? { read(id) { $0.kind } }

    /// True when product `id` is an auto-renewable subscription.
    package func isSubscription(_ id: String) -> Bool { read(id) { $0.subscription != nil } ?? false }

    /// True when the catalog sells product `id`.
    package func contains(_ id: String) -> Bool { read(id) { _ in true } ?? false }

    /// The word of an account's balance: the one unit every consumable grants, `coins` when
    /// there is no consumable, `units` when they grant different ones (an account keeps one
    /// balance: docs/storekit.md).
    package var balanceUnit: String {
        let units = products.filter { $0.kind == .consumable }.map { unit(of: $0.id) }
        guard let first = units.first else { return "coins" }
        return units.allSatisfy { $0 == first } ? first : "units"
    }

    /// An account's balance in words: `250 gems`, `1 gem`, `-1 coin`, `0 units`.
    package func balance(_ amount: Int) -> String {
        "\(amount) \(abs(amount) == 1 ? Self.singular(balanceUnit) : balanceUnit)"
    }

    /// A unit's word for one of it (`coins` -> `coin`, `rubies` -> `ruby`); a word that does
    /// not read as an English plural (`lives`, `gold`, `status`) is kept.
    package static func singular(_ unit: String) -> String {
        if unit.hasSuffix("ies"), unit.count > 3 { return String(unit.dropLast(3)) + "y" }
        if unit.hasSuffix("s"), !unit.hasSuffix("ss"), !unit.hasSuffix("us"), !unit.hasSuffix("ves") {
            return String(unit.dropLast())
        }
        return unit
    }
}

/// The settings of a StoreKit configuration file the world obeys; the defaults are the
/// built-in catalog's (a US storefront, every switch off).
package struct CatalogSettings: Sendable, Hashable {
    /// `_storefront`: the App Store country (ISO 3166 alpha-3), its id and currency.
    package var storefront = "USA"
    package var storefrontId = "143441"
    package var currency = "USD"
    /// `_askToBuyEnabled`: Ask to Buy is on when the world starts.
    package var askToBuy = false
    /// `_billingIssuesEnabled`: every renewal fails (`billing-fail on`) when the world starts.
    package var billingIssues = false
    /// `_billingGracePeriodEnabled`: the app has a billing grace period (its length is the
    /// scenario's `grace-period`, 16 days when it names none).
    package var billingGracePeriod = false
    /// Which renewals the billing grace period covers (App Store Connect's `renewalType`):
    /// every one, or only paid-to-paid ones (a free trial's conversion gets no grace).
    package var graceRenewals = GraceRenewals.all
    /// `_failTransactionsEnabled`: every purchase fails, as Xcode fails it (`SKError.unknown`,
    /// StoreKit 2's `StoreKitError.unknown`), unless `_storeKitErrors` names the purchase's error.
    package var failTransactions = false
    /// `_storeKitErrors`: the StoreKit APIs the file fails, each with its chosen error.
    package var storeKitErrors: [StoreKitAPI: ConfiguredStoreKitError] = [:]
    /// `_timeRate`: how fast subscription periods, grace and billing retry run.
    package var timeRate = TimeRate.realTime

    package init() {}

    /// What a purchase ends in under these settings: nil when purchases are not failed.
    package var purchaseFailure: PaymentFailure? {
        if let configured = storeKitErrors[.purchase] { return configured.paymentFailure }
        return failTransactions ? .unknown : nil
    }

    /// `cents` as the storefront's locale writes its currency, as StoreKit's `displayPrice`
    /// does (`$0.99`, `£0.99`, `¥120`, `0,99 €`): the symbol before the amount in the
    /// English-speaking storefronts and Japan (no minor unit for the yen), the amount with a
    /// decimal comma and the symbol after it in the euro area (but Ireland, Malta), the ISO
    /// code before it for the others. The one formatter of prices shown to people.
    package func displayPrice(_ cents: Int) -> String {
        let amount = formatMoney(cents)
        switch currency {
        case "USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN": return "$" + amount
        case "GBP": return "£" + amount
        case "JPY": return "¥" + String(cents / 100)
        case "CNY": return "¥" + amount
        case "INR": return "₹" + amount
        case "EUR" where storefront == "IRL" || storefront == "MLT": return "€" + amount
        case "EUR": return String(amount.map { $0 == "." ? "," : $0 }) + " €"
        default: return currency + " " + amount
        }
    }
}

/// Xcode's StoreKit Errors (`_storeKitErrors`, StoreKit Test's `FailableStoreKitAPI`): the
/// APIs a configuration file can fail, by the name Xcode writes.
package enum StoreKitAPI: String, Sendable, Hashable, CaseIterable {
    case loadProducts = "Load Products"
    case purchase = "Purchase"
    case verification = "Verification"
    case appStoreSync = "App Store Sync"
    case subscriptionStatus = "Subscription Status"
    case appTransaction = "App Transaction"
    case manageSubscriptions = "Manage Subscriptions Sheet"
    case refundRequest = "Refund Request Sheet"
    case offerCodeRedeem = "Offer Code Redeem Sheet"

    /// The kinds of error StoreKit Test lets this API fail with (`SKTestFailures`).
    package var kinds: [StoreKitErrorKind] {
        switch self {
        case .purchase: return [.generic, .purchase]
        case .verification: return [.verification]
        case .appTransaction: return [.generic, .verification]
        case .refundRequest: return [.generic, .refundRequest]
        case .loadProducts, .appStoreSync, .subscriptionStatus, .manageSubscriptions, .offerCodeRedeem:
            return [.generic]
        }
    }

    /// The API named `name` (Xcode's words; " Sheet" may be left out, case is ignored).
    package static func named(_ name: String) -> StoreKitAPI? {
        let wanted = name.lowercased()
        return allCases.first {
            let own = $0.rawValue.lowercased()
            return own == wanted || own == wanted + " sheet"
        }
    }
}

/// The kind of a configured error (`current.type`), its Swift type and its cases in
/// StoreKit's declaration order (`current.index` counts them).
package enum StoreKitErrorKind: String, Sendable, Hashable, CaseIterable {
    case generic, purchase, verification, refundRequest

    package var typeName: String {
        switch self {
        case .generic: return "StoreKitError"
        case .purchase: return "Product.PurchaseError"
        case .verification: return "VerificationResult.VerificationError"
        case .refundRequest: return "Transaction.RefundRequestError"
        }
    }

    package var cases: [String] {
        switch self {
        case .generic:
            return [
                "unknown", "userCancelled", "networkError", "systemError", "notAvailableInStorefront", "notEntitled",
                "unsupported",
            ]
        case .purchase:
            return [
                "invalidQuantity", "productUnavailable", "purchaseNotAllowed", "ineligibleForOffer",
                "invalidOfferIdentifier", "invalidOfferPrice", "invalidOfferSignature", "missingOfferParameters",
            ]
        case .verification:
            return [
                "revokedCertificate", "invalidCertificateChain", "invalidDeviceVerification", "invalidEncoding",
                "invalidSignature", "missingRequiredProperties",
            ]
        case .refundRequest: return ["duplicateRequest", "failed"]
        }
    }
}

/// One API's configured error: `kind.cases[index]`.
package struct ConfiguredStoreKitError: Sendable, Hashable {
    package let kind: StoreKitErrorKind
    package let index: Int

    package init(kind: StoreKitErrorKind, index: Int) {
        self.kind = kind
        self.index = index
    }

    /// Its case name (`networkError`).
    package var caseName: String { kind.cases[index] }
    /// As code names it (`StoreKitError.networkError`).
    package var name: String { kind.typeName + "." + caseName }

    /// The world's payment failure nearest to it (the harness throws the error itself).
    package var paymentFailure: PaymentFailure {
        switch (kind, caseName) {
        case (.generic, "userCancelled"): return .cancelled
        case (.generic, "networkError"): return .network
        case (.purchase, _): return .invalid
        default: return .unknown
        }
    }
}

/// App Store Connect's billing grace `renewalType`: `ALL_RENEWALS` or `PAID_TO_PAID_ONLY`.
package enum GraceRenewals: String, Sendable, Hashable, CaseIterable {
    case all
    case paidToPaidOnly = "paid-to-paid-only"
}

/// Money for people: 99 -> "0.99".
package func formatMoney(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let c = abs(cents)
    let rest = c % 100
    return "\(sign)\(c / 100).\(rest < 10 ? "0" : "")\(rest)"
}
