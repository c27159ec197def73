import IAPSimCore
import Yams

/// What a consumable grants: `grants: {PRODUCT: N UNIT}` in a scenario, or a `--grants`
/// file holding the same map. A StoreKit configuration file says nothing of coins, so a
/// consumable no grant names credits one unit of its own product.
package struct Grant: Sendable, Hashable {
    package var product: String
    package var amount: Int
    package var unit: String

    package init(product: String, amount: Int, unit: String) {
        self.product = product
        self.amount = amount
        self.unit = unit
    }

    /// The largest amount one purchase may grant.
    package static let maxAmount = 1_000_000
    package static let form = "a whole number from 1 to \(maxAmount) and a unit, such as `100 coins` or `5 gems`"

    /// `100 coins` -> (100, "coins").
    package static func read(_ text: String) -> (amount: Int, unit: String)? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0].allSatisfy({ $0.isASCII && $0.isNumber }), words[0].count <= 7,
            let amount = Int(words[0]), (1...maxAmount).contains(amount), words[1].count <= 40,
            ScenarioVocabulary.isUserName(String(words[1]))
        else { return nil }
        return (amount, String(words[1]))
    }

    /// A `grants:` map read against `catalog`: every key a consumable of it.
    static func read(_ node: Node, reader: NodeReader, catalog: Catalog) throws(ScenarioError) -> [Grant] {
        var grants: [Grant] = []
        for entry in try reader.entries(node, what: "'grants'") {
            guard let product = catalog.product(entry.key) else {
                let consumables = catalog.products.filter { $0.kind == .consumable }.map(\.id)
                throw .catalog(
                    at: reader.location(entry.keyNode),
                    problem: "grants: the catalog has no product '\(entry.key)'; its consumables: "
                        + ScenarioVocabulary.list(consumables))
            }
            guard product.kind == .consumable else {
                throw .catalog(
                    at: reader.location(entry.keyNode),
                    problem: "grants: '\(entry.key)' is \(product.kind.rawValue); only a consumable grants an amount")
            }
            let text = try reader.string(entry.value, what: "the grant of '\(entry.key)'")
            guard let (amount, unit) = read(text) else {
                throw .catalog(
                    at: reader.location(entry.value),
                    problem: "grants: '\(entry.key)' grants '\(text)'; a grant is \(form)")
            }
            grants.append(Grant(product: entry.key, amount: amount, unit: unit))
        }
        return grants
    }

    /// A `--grants` file: a YAML map of the same form, held to a scenario's bounds
    /// (`FileLimits`: 1,000 keys in one map among them) before its tree is built.
    package static func load(path: String, catalog: Catalog) throws(ScenarioError) -> [Grant] {
        let bytes = try ScenarioParser.readRegularFile(path)
        let text = try InputCheck.text(from: bytes, file: path)
        if let problem = YAMLPreScan.problem(in: text, kind: "a grants file") {
            throw .catalog(
                at: SourceLocation(file: path, line: problem.line, column: problem.column),
                problem: "YAML not accepted in a grants file: \(problem.text)")
        }
        let reader = NodeReader(file: path, text: text)
        guard let root = try ScenarioParser.compose(text, reader: reader) else {
            throw .emptyFile(at: SourceLocation(file: path, line: 1, column: 1))
        }
        return try read(root, reader: reader, catalog: catalog)
    }
}

extension LoadedCatalog {
    /// This catalog with `grants` applied: each named consumable credits its amount of its unit.
    package func granting(_ grants: [Grant]) -> LoadedCatalog {
        var copy = self
        for g in grants {
            guard let i = copy.catalog.products.firstIndex(where: { $0.id == g.product }) else { continue }
            copy.catalog.products[i].coins = g.amount
            // `coins` is what a product no unit names counts: the built-in catalog stays `Catalog.standard`.
            copy.catalog.units[g.product] = g.unit == "coins" ? nil : g.unit
            copy.grants.removeAll { $0.product == g.product }
            copy.grants.append(g)
        }
        return copy
    }

    /// The built-in catalog read from its embedded text (what `iapsim catalog` prints).
    package static func builtInFile() -> LoadedCatalog {
        // The embedded text is checked by a test: reading it cannot fail.
        var loaded =
            (try? StoreKitFile.parse(bytes: Array(BuiltInStoreKit.text.utf8), file: "built-in"))
            ?? LoadedCatalog(catalog: .standard)
        loaded = loaded.granting(
            BuiltInStoreKit.grants.map { Grant(product: $0.product, amount: $0.amount, unit: $0.unit) })
        loaded.file = nil
        loaded.grants = []
        return loaded
    }
}
