import Foundation
import IAPSimCore
import IAPSimScenario

/// What the simulated App Store sells: iapsim's built-in catalog or an Xcode `.storekit` file.
public struct StoreCatalog: Sendable {
    let catalog: Catalog

    /// The built-in catalog: `coins_100`, `coins_550`, `no_ads` and the `pro` subscriptions.
    public static var standard: StoreCatalog { StoreCatalog(catalog: .standard) }

    /// An Xcode StoreKit configuration file (docs/storekit.md), with what each consumable
    /// grants (`["gems_small": "100 gems"]`, as `grants:` and `--grants` read them): a
    /// consumable no grant names credits one unit of its own product.
    public init(storekitFile path: String, grants: [String: String] = [:]) throws {
        let loaded = try Self.load(path)
        var read: [Grant] = []
        for (product, text) in grants.sorted(by: { $0.key < $1.key }) {
            let consumables = loaded.catalog.products.filter { $0.kind == .consumable }.map(\.id)
            guard let p = loaded.catalog.product(product) else {
                throw SimulatedStoreError.badCatalog(
                    "grants: the catalog has no product '\(product)'; its consumables: "
                        + consumables.joined(separator: ", "))
            }
            guard p.kind == .consumable else {
                throw SimulatedStoreError.badCatalog(
                    "grants: '\(product)' is \(p.kind.rawValue); only a consumable grants an amount")
            }
            guard let (amount, unit) = Grant.read(text) else {
                throw SimulatedStoreError.badCatalog("grants: '\(product)' grants '\(text)'; a grant is \(Grant.form)")
            }
            read.append(Grant(product: product, amount: amount, unit: unit))
        }
        catalog = loaded.granting(read).catalog
    }

    /// An Xcode StoreKit configuration file with the grants of the YAML file at `grantsFile`
    /// (the `--grants` file: `{gems_small: 100 gems, gems_chest: 1200 gems}`).
    public init(storekitFile path: String, grantsFile: String) throws {
        let loaded = try Self.load(path)
        do {
            catalog = loaded.granting(try Grant.load(path: grantsFile, catalog: loaded.catalog)).catalog
        } catch {
            throw SimulatedStoreError.badCatalog(error.description)
        }
    }

    static func load(_ path: String) throws -> LoadedCatalog {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            return try StoreKitFile.parse(bytes: [UInt8](data), file: path)
        } catch {
            throw SimulatedStoreError.badCatalog(error.description)
        }
    }

    init(catalog: Catalog) { self.catalog = catalog }

    /// The ids of what it sells, subscriptions last.
    public var productIDs: [String] { catalog.allIds }
}

/// A mistake in how a test uses the store.
public enum SimulatedStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line of the scenario vocabulary that does not read: the reader's words.
    case badCommand(String)
    /// A command that cannot run now, and why.
    case refused(String)
    /// `buy`: your app buys, through its own code; the store cannot tap its button.
    case buyIsTheAppsJob
    /// `launch` before any `launch { ... }` gave the store your app's factory.
    case noApp
    /// A `.storekit` file that does not read.
    case badCatalog(String)
    /// A `serve.yaml` that does not read (file:line:column, what is wrong, what is accepted).
    case badRoutes(String)
    /// A backend (`ServedBackend`) that cannot be started or reached, and why.
    case badBackend(String)

    /// The mistake, in words.
    public var description: String {
        switch self {
        case .badCommand(let why): return why
        case .refused(let why): return "refused: \(why)"
        case .buyIsTheAppsJob: return "buy: your app buys through its own code (call it), the store cannot"
        case .noApp: return "launch: no app yet (call launch { YourApp() } first)"
        case .badCatalog(let why): return why
        case .badRoutes(let why): return why
        case .badBackend(let why): return "backend: " + why
        }
    }
}
