import IAPSimCore

extension StoreKitFile {
    /// `products` or `nonRenewingSubscriptions`: each with a `type` among `types`.
    mutating func oneTimeProducts(_ node: JSONNode?, key: String, types: [String]) throws(ScenarioError) -> [Product] {
        var products: [Product] = []
        for item in try items(node, key: key, limit: Self.maxProducts) {
            guard case .object = item.value else {
                throw fail(item, "each of \"\(key)\" must be an object (a product), not \(item.kind)")
            }
            let typeNode = item["type"]
            let type = try string(item, "type")
            guard let type, types.contains(type) else {
                let accepted = types.map { "\"\($0)\"" }.joined(separator: ", ")
                throw fail(
                    typeNode ?? item,
                    "a product of \"\(key)\" with type \(typeNode.map(describe) ?? "missing"); accepted: \(accepted)")
            }
            let kind: ProductKind =
                type == "Consumable" ? .consumable : type == "NonConsumable" ? .nonConsumable : .nonRenewing
            let id = try productId(item)
            if try bool(item, "familyShareable") { familyShareable = true }
            if kind == .consumable { units[id] = id }
            products.append(
                Product(
                    id: id, kind: kind, priceCents: try price(item, id), coins: kind == .consumable ? 1 : 0,
                    title: try title(item, id)))
        }
        return products
    }

    /// `productID`: present, one word, never seen before in the file.
    mutating func productId(_ item: JSONNode) throws(ScenarioError) -> String {
        guard let node = item["productID"] else {
            throw fail(
                item,
                "a product without \"productID\"; every product needs one (a string such as \"com.example.gems_100\")")
        }
        guard case .string(let id) = node.value, !id.isEmpty else {
            throw fail(node, "\"productID\" is \(describe(node)); it must be a non-empty string")
        }
        guard id.count <= Self.maxIdLength,
            id.unicodeScalars.allSatisfy({
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
            })
        else {
            throw fail(
                node,
                "the product id \(describe(node)) is not one word of at most \(Self.maxIdLength) letters, digits, '.', '_' and '-'"
            )
        }
        if let first = ids[id] {
            throw fail(
                node,
                "two products with the id \"\(id)\" (the first at \(file):\(first.line):\(first.column)); each product id is unique"
            )
        }
        ids[id] = (node.line, node.column)
        return id
    }

    /// `displayPrice`: a decimal string (`"4.99"`, `"1500"`), at most two decimals, as cents.
    func price(_ item: JSONNode, _ id: String) throws(ScenarioError) -> Int {
        let accepted = "a price is a decimal such as \"0.99\" or \"1500\", at most two decimals"
        guard let node = item["displayPrice"] else {
            throw fail(item, "the product \"\(id)\" has no \"displayPrice\"; \(accepted)")
        }
        let text: String
        switch node.value {
        case .string(let s): text = s
        case .number(let n): text = n
        default: throw fail(node, "the price of \"\(id)\" is \(describe(node)), not a price; \(accepted)")
        }
        guard let cents = Self.cents(text), cents <= Self.maxPriceCents else {
            throw fail(
                node,
                "the price of \"\(id)\" is \(describe(node)), not a price; \(accepted), up to \(formatMoney(Self.maxPriceCents))"
            )
        }
        return cents
    }

    /// `"4.99"` -> 499; nil unless digits with at most two decimals.
    static func cents(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 9,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var cents = Int(whole)! * 100
        if parts.count == 2 {
            let frac = parts[1]
            guard (1...2).contains(frac.count), frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            cents += Int(frac)! * (frac.count == 1 ? 10 : 1)
        }
        return cents
    }

    /// The first localization's `displayName`, else `referenceName`, else the id.
    func title(_ item: JSONNode, _ id: String) throws(ScenarioError) -> String {
        for loc in try items(item["localizations"], key: "localizations", limit: 500) {
            if let name = try string(loc, "displayName"), !name.isEmpty { return VisibleText.escaped(name) }
        }
        if let name = try string(item, "referenceName"), !name.isEmpty { return VisibleText.escaped(name) }
        return id
    }
}
