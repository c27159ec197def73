import IAPSimCore

/// Reads an Xcode StoreKit configuration file (`Products.storekit`, JSON; format versions
/// 1 to 5) into a `LoadedCatalog`. Apple publishes no schema: the shapes read are the ones
/// Xcode writes (docs/storekit.md). Every refusal is one `ScenarioError.catalog` at the
/// file's own line and column, saying what is wrong and what is accepted.
package struct StoreKitFile {
    /// The format versions read (`version.major`).
    package static let versions = 1...5
    /// Bounds: far above a real app's catalog, small enough to read at once.
    package static let maxProducts = 2_000
    package static let maxGroups = 200
    package static let maxIdLength = 255
    /// The largest price read, in currency units (App Store Connect's highest tier is far below).
    package static let maxPriceCents = 100_000_000

    let file: String
    var ids: [String: (line: Int, column: Int)] = [:]
    var listed: [String] = []
    var notModelled: [String] = []
    var groupNames: [String: String] = [:]
    /// A one-time product's `familyShareable` was true (a subscription's is modelled); what
    /// each consumable counts (its own id).
    var familyShareable = false
    var units: [String: String] = [:]

    init(file: String) { self.file = file }

    /// Reads the file at `path` (bounded like a scenario file: `ScenarioParser.maxFileBytes`).
    package static func load(path: String) throws(ScenarioError) -> LoadedCatalog {
        try parse(bytes: ScenarioParser.readRegularFile(path), file: path)
    }

    /// Reads a StoreKit configuration file's bytes; `file` is the name errors show.
    package static func parse(bytes: [UInt8], file: String) throws(ScenarioError) -> LoadedCatalog {
        let root: JSONNode
        do {
            root = try JSONReader.read(bytes)
        } catch {
            throw .catalog(
                at: SourceLocation(file: file, line: error.line, column: error.column),
                problem: error.isLimit
                    ? "too large for a StoreKit configuration file: \(error.problem)"
                    : "not JSON: \(error.problem); a StoreKit configuration file is the JSON Xcode writes")
        }
        var reader = StoreKitFile(file: file)
        return try reader.catalog(root)
    }

    func fail(_ node: JSONNode, _ problem: String) -> ScenarioError {
        .catalog(at: SourceLocation(file: file, line: node.line, column: node.column), problem: problem)
    }

    mutating func catalog(_ root: JSONNode) throws(ScenarioError) -> LoadedCatalog {
        guard case .object(let members) = root.value else {
            throw fail(root, "the file holds \(root.kind); a StoreKit configuration file is a JSON object")
        }
        let version = try self.version(root)
        let read = ["identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version"]
        for m in members where !read.contains(m.key) {
            // The app's policies (EULA, privacy) are text for the purchase sheet; any other key is news.
            if m.key == "appPolicies" {
                listed.append("appPolicies")
            } else {
                notModelled.append("key \(VisibleText.escaped(m.key))")
            }
        }
        let settings = try self.settings(root["settings"])
        var products = try oneTimeProducts(root["products"], key: "products", types: ["Consumable", "NonConsumable"])
        products += try oneTimeProducts(
            root["nonRenewingSubscriptions"], key: "nonRenewingSubscriptions", types: ["NonRenewingSubscription"])
        let subscriptions = try groups(root["subscriptionGroups"])
        let total = products.count + subscriptions.count
        if total == 0 {
            throw fail(
                root,
                "the file sells no product; a catalog needs at least one in \"products\", \"nonRenewingSubscriptions\" or \"subscriptionGroups\""
            )
        }
        if total > Self.maxProducts {
            throw fail(root, "\(total) products; the limit is \(Self.maxProducts)")
        }
        if products.contains(where: { $0.kind == .nonRenewing }) {
            notModelled.append("non-renewing subscriptions' duration (sold as unlocks)")
        }
        if familyShareable { notModelled.append("Family Sharing of one-time products") }
        // A consumable with a built-in product's id grants what the built-in one does (a
        // copy of scenarios/iapsim.storekit keeps its 100 and 550 coins); `grants:` wins.
        for g in BuiltInStoreKit.grants {
            guard let i = products.firstIndex(where: { $0.id == g.product && $0.kind == .consumable }) else { continue }
            products[i].coins = g.amount
            units[g.product] = g.unit == "coins" ? nil : g.unit
        }
        var catalog = Catalog(products: products, subscriptions: subscriptions, settings: settings)
        catalog.units = units
        var loaded = LoadedCatalog(
            catalog: catalog, file: file,
            version: version, listed: listed, notModelled: notModelled)
        loaded.groupNames = groupNames
        return loaded
    }

    private func version(_ root: JSONNode) throws(ScenarioError) -> Int {
        let accepted = "accepted: \(Self.versions.map(String.init).joined(separator: ", "))"
        guard let node = root["version"] else {
            throw fail(
                root, "no \"version\"; Xcode writes \"version\" : { \"major\" : 3, \"minor\" : 0 } (\(accepted))")
        }
        guard let major = node["major"] else {
            throw fail(node, "\"version\" has no \"major\"; \(accepted)")
        }
        guard case .number(let text) = major.value, let n = Int(text), Self.versions.contains(n) else {
            throw fail(major, "unknown version \(describe(major)); \(accepted)")
        }
        return n
    }

    /// A value as a message quotes it: `"abc"`, `7`, `null`, `an object`.
    func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .string(let s): return "\"\(VisibleText.escaped(String(s.prefix(40))))\""
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .object, .array: return node.kind
        }
    }

    /// The items of an array member (absent or null: none).
    func items(_ node: JSONNode?, key: String, limit: Int) throws(ScenarioError) -> [JSONNode] {
        guard let node else { return [] }
        switch node.value {
        case .null: return []
        case .array(let items):
            guard items.count <= limit else { throw fail(node, "\(items.count) \(key); the limit is \(limit)") }
            return items
        default: throw fail(node, "\"\(key)\" is \(node.kind); it must be an array")
        }
    }

    func string(_ node: JSONNode, _ key: String) throws(ScenarioError) -> String? {
        guard let value = node[key] else { return nil }
        switch value.value {
        case .null: return nil
        case .string(let s): return s
        default: throw fail(value, "\"\(key)\" is \(value.kind); it must be a string")
        }
    }

    func bool(_ node: JSONNode?, _ key: String) throws(ScenarioError) -> Bool {
        guard let value = node?[key] else { return false }
        switch value.value {
        case .null: return false
        case .bool(let b): return b
        default: throw fail(value, "\"\(key)\" is \(describe(value)); it must be true or false")
        }
    }
}
