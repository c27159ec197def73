/// What a product is to the App Store: used up on finish, or owned forever.
package enum ProductKind: String, Sendable, Hashable {
    case consumable
    case nonConsumable = "non-consumable"
    /// An auto-renewable subscription (StoreKit 2 world only; docs/world.md, "Subscriptions").
    case autoRenewable = "auto-renewable"

    /// Apple's `type` field of a transaction payload.
    package var payloadType: String {
        switch self {
        case .consumable: return "Consumable"
        case .nonConsumable: return "Non-Consumable"
        case .autoRenewable: return "Auto-Renewable Subscription"
        }
    }
}

/// What makes a product an auto-renewable subscription: its group, its level in the group
/// (1 is the highest service) and its period, in calendar months.
package struct SubscriptionTerms: Sendable, Hashable {
    package var group: String
    package var level: Int
    package var months: Int

    package init(group: String, level: Int, months: Int) {
        self.group = group
        self.level = level
        self.months = months
    }
}

/// One in-app product. Prices are in cents so that money adds up exactly.
package struct Product: Sendable, Hashable {
    package var id: String
    package var kind: ProductKind
    package var priceCents: Int
    /// Coins credited for a consumable; 0 for a product that grants an entitlement.
    package var coins: Int
    package var title: String
    /// Its group, level and period when it is an auto-renewable subscription.
    package var subscription: SubscriptionTerms?

    package init(
        id: String, kind: ProductKind, priceCents: Int, coins: Int, title: String,
        subscription: SubscriptionTerms? = nil
    ) {
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
/// subscriptions (`subscriptions`, sold in the StoreKit 2 world only).
package struct Catalog: Sendable, Hashable {
    package var products: [Product]
    package var subscriptions: [Product]

    package init(products: [Product], subscriptions: [Product] = []) {
        self.products = products
        self.subscriptions = subscriptions
    }

    package static let standard = Catalog(
        products: [
            Product(id: "coins_100", kind: .consumable, priceCents: 99, coins: 100, title: "100 coins"),
            Product(id: "coins_550", kind: .consumable, priceCents: 499, coins: 550, title: "550 coins"),
            Product(id: "no_ads", kind: .nonConsumable, priceCents: 299, coins: 0, title: "No ads"),
        ],
        subscriptions: [
            Product(
                id: "pro_monthly", kind: .autoRenewable, priceCents: 499, coins: 0, title: "Pro, monthly",
                subscription: SubscriptionTerms(group: "pro", level: 2, months: 1)),
            Product(
                id: "plus_monthly", kind: .autoRenewable, priceCents: 999, coins: 0, title: "Plus, monthly",
                subscription: SubscriptionTerms(group: "pro", level: 1, months: 1)),
            Product(
                id: "pro_yearly", kind: .autoRenewable, priceCents: 4_999, coins: 0, title: "Pro, yearly",
                subscription: SubscriptionTerms(group: "pro", level: 2, months: 12)),
        ])

    /// The one-time products' ids (what explore and the buy menu draw from).
    package var ids: [String] { products.map(\.id) }

    /// Every product's id, subscriptions last: what a command may name.
    package var allIds: [String] { products.map(\.id) + subscriptions.map(\.id) }

    package func product(_ id: String) -> Product? {
        products.first { $0.id == id } ?? subscriptions.first { $0.id == id }
    }
}

/// Money for people: 99 -> "0.99".
package func formatMoney(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let c = abs(cents)
    let rest = c % 100
    return "\(sign)\(c / 100).\(rest < 10 ? "0" : "")\(rest)"
}
