import Foundation
import IAPSimCore

extension Product {
    /// An auto-renewable subscription's terms and its status for the account.
    public struct SubscriptionInfo: Sendable, Hashable {
        /// The subscription group.
        public let subscriptionGroupID: String
        /// The level within the group (1 is the highest).
        public let groupLevel: Int
        let productID: String

        init(productID: String, terms: SubscriptionTerms) {
            self.productID = productID
            subscriptionGroupID = terms.group
            groupLevel = terms.level
        }

        /// The subscription's status in its group, one entry per subscription of the account.
        public var status: [Status] {
            get async throws {
                guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
                guard store.noteCall() else { throw CancellationError() }
                return store.subscriptionStatus(group: subscriptionGroupID)
            }
        }

        /// StoreKit's renewal state.
        public struct RenewalState: RawRepresentable, Sendable, Hashable {
            /// Apple's number of the state (1 subscribed ... 5 revoked).
            public let rawValue: Int
            /// The state numbered `rawValue`.
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let subscribed = RenewalState(rawValue: 1)
            public static let expired = RenewalState(rawValue: 2)
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            public static let inGracePeriod = RenewalState(rawValue: 4)
            public static let revoked = RenewalState(rawValue: 5)
        }

        /// One subscription's state and its latest transaction.
        public struct Status: Sendable {
            /// Subscribed, expired, in billing retry, in grace, revoked.
            public let state: RenewalState
            /// The subscription's latest transaction.
            public let transaction: VerificationResult<Transaction>
        }
    }
}

extension SimulatedStore {
    func subscriptionStatus(group: String) -> [Product.SubscriptionInfo.Status] {
        locked {
            sim.store.subscriptions.filter { $0.group == group }.compactMap { s in
                guard let v = verification(of: s.latestTransactionId) else { return nil }
                return Product.SubscriptionInfo.Status(
                    state: Product.SubscriptionInfo.RenewalState(rawValue: s.status.rawValue), transaction: v)
            }
        }
    }
}

/// The app's own signed record of its download (StoreKit 2's `AppTransaction`).
public struct AppTransaction: Sendable, Hashable {
    /// The customer's app transaction id (what the server can look history up by).
    public let appTransactionID: String
    /// `com.example.iapsim`.
    public let bundleID: String
    /// `1.0`.
    public let appVersion: String
    /// `1.0`.
    public let originalAppVersion: String
    /// `Production` or `Sandbox`, the world's.
    public let environment: String

    /// The app transaction of the simulated install.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
            guard store.noteCall() else { throw CancellationError() }
            let environment = store.locked { store.sim.config.environment.payloadName }
            return .verified(
                AppTransaction(
                    appTransactionID: AppStore.appTransactionId, bundleID: "com.example.iapsim", appVersion: "1.0",
                    originalAppVersion: "1.0", environment: environment))
        }
    }
}
