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
        account: { store.currentUser }, bugs: bugs)
}
