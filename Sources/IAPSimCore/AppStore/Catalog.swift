/// What a product is to the App Store: used up on finish, or owned forever.
package enum ProductKind: String, Sendable, Hashable {
    case consumable
    case nonConsumable = "non-consumable"
}

/// One in-app product. Prices are in cents so that money adds up exactly.
package struct Product: Sendable, Hashable {
    package var id: String
    package var kind: ProductKind
    package var priceCents: Int
    /// Coins credited for a consumable; 0 for a product that grants an entitlement.
    package var coins: Int
    package var title: String

    package init(id: String, kind: ProductKind, priceCents: Int, coins: Int, title: String) {
        self.id = id
        self.kind = kind
        self.priceCents = priceCents
        self.coins = coins
        self.title = title
    }
}

/// The products the App Store sells for the app, in a fixed order.
package struct Catalog: Sendable, Hashable {
    package var products: [Product]

    package init(products: [Product]) { self.products = products }

    package static let standard = Catalog(products: [
        Product(id: "coins_100", kind: .consumable, priceCents: 99, coins: 100, title: "100 coins"),
        Product(id: "coins_550", kind: .consumable, priceCents: 499, coins: 550, title: "550 coins"),
        Product(id: "no_ads", kind: .nonConsumable, priceCents: 299, coins: 0, title: "No ads"),
    ])

    package var ids: [String] { products.map(\.id) }

    package func product(_ id: String) -> Product? { products.first { $0.id == id } }
}

/// Money for people: 99 -> "0.99".
package func formatMoney(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let c = abs(cents)
    let rest = c % 100
    return "\(sign)\(c / 100).\(rest < 10 ? "0" : "")\(rest)"
}
