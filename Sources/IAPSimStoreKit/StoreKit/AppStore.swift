import Foundation
import IAPSimCore

/// The App Store of the simulated world, with StoreKit 2's names (`AppStore`).
public enum AppStore {
    /// The server environment the App Store signs for (`Production`, `Sandbox`, `Xcode`).
    public struct Environment: RawRepresentable, Sendable, Hashable {
        /// Apple's name of the environment.
        public let rawValue: String
        /// The environment named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The App Store.
        public static let production = Environment(rawValue: "Production")
        /// The sandbox.
        public static let sandbox = Environment(rawValue: "Sandbox")
        /// Xcode's local testing.
        public static let xcode = Environment(rawValue: "Xcode")
    }

    /// Syncs the account's transactions and subscription statuses with the App Store (a
    /// restore button's call): throws `StoreKitError.networkError` while the device is offline
    /// and `StoreKitError.notEntitled` while nobody is logged in. Afterwards
    /// `Transaction.currentEntitlements`, `Transaction.all` and the statuses read the App
    /// Store's record (in the simulated world they always do: one device, one record).
    public static func sync() async throws {
        guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
        guard store.noteCall() else { throw CancellationError() }
        try store.sync()
    }
}

extension SimulatedStore {
    /// `AppStore.sync()`: refused offline or logged out.
    func sync() throws {
        let refusal: StoreKitError? = locked {
            guard callerAlive else { return .unknown }
            if !sim.world.network.deviceOnline { return .networkError(URLError(.notConnectedToInternet)) }
            guard sim.app.loggedIn != nil else { return .notEntitled }
            return nil
        }
        if let refusal { throw refusal }
        if let configured = configuredError(.appStoreSync) { throw configured }
    }

    /// The server environment of the world's signed data.
    var environment: AppStore.Environment {
        AppStore.Environment(rawValue: sim.config.environment.payloadName)
    }
}
