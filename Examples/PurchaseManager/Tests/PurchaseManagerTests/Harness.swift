import Foundation
import IAPSimStoreKit
import PurchaseManager

/// A store with the example's app launched in it.
func launched(
    _ bugs: PurchaseManager.PlantedBug = [], server: SimulatedStore.ServerPolicy = .appDependent,
    seed: UInt64 = 1, users: [String] = ["alice"]
) async throws -> (SimulatedStore, PurchaseManager) {
    let store = try SimulatedStore(serverPolicy: server, seed: seed, users: users)
    let app = await store.launch { manager(store, bugs) }
    return (store, app)
}

/// The app's factory: what the app makes at launch, given the store's clock and network.
func manager(_ store: SimulatedStore, _ bugs: PurchaseManager.PlantedBug) -> PurchaseManager {
    PurchaseManager(
        configuration: store.urlSessionConfiguration, baseURL: store.routes.baseURL, clock: store.clock,
        keychain: StorageKeychain(storage: store.storage), account: { store.currentUser }, bugs: bugs)
}

/// The manager's keychain in the store's storage: it outlives a crash, as a keychain does.
struct StorageKeychain: OrderKeychain {
    let storage: SimulatedStorage

    func orders() -> [String: String] {
        guard let data = storage.data("orders") else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    func save(_ orders: [String: String]) {
        storage.set(try? JSONEncoder().encode(orders), for: "orders")
    }
}
