import Foundation
import IAPSimCore
import IAPSimScenario

/// What the simulated App Store sells: iapsim's built-in catalog or an Xcode `.storekit` file.
public struct StoreCatalog: Sendable {
    let catalog: Catalog

    /// The built-in catalog: `coins_100`, `coins_550`, `no_ads` and the `pro` subscriptions.
    public static var standard: StoreCatalog { StoreCatalog(catalog: .standard) }

    /// An Xcode StoreKit configuration file (docs/storekit.md); `grants` as `--grants` reads them.
    public init(storekitFile path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            catalog = try StoreKitFile.parse(bytes: [UInt8](data), file: path).catalog
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
