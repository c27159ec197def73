/// What a product is to the App Store: used up on finish, or owned forever.
public enum ProductKind: String, Sendable, Hashable {
    case consumable
    case nonConsumable = "non-consumable"
}

/// One in-app product. Prices are in cents so that money adds up exactly.
public struct Product: Sendable, Hashable {
    public var id: String
    public var kind: ProductKind
    public var priceCents: Int
    /// Coins credited for a consumable; 0 for a product that grants an entitlement.
    public var coins: Int
    public var title: String

    public init(id: String, kind: ProductKind, priceCents: Int, coins: Int, title: String) {
        self.id = id
        self.kind = kind
        self.priceCents = priceCents
        self.coins = coins
        self.title = title
    }
}

/// The products the App Store sells for the app, in a fixed order.
public struct Catalog: Sendable, Hashable {
    public var products: [Product]

    public init(products: [Product]) { self.products = products }

    public static let standard = Catalog(products: [
        Product(id: "coins_100", kind: .consumable, priceCents: 99, coins: 100, title: "100 coins"),
        Product(id: "coins_550", kind: .consumable, priceCents: 499, coins: 550, title: "550 coins"),
        Product(id: "no_ads", kind: .nonConsumable, priceCents: 299, coins: 0, title: "No ads"),
    ])

    public var ids: [String] { products.map(\.id) }

    public func product(_ id: String) -> Product? { products.first { $0.id == id } }
}

/// Money for people: 99 -> "0.99".
public func formatMoney(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let c = abs(cents)
    let rest = c % 100
    return "\(sign)\(c / 100).\(rest < 10 ? "0" : "")\(rest)"
}
