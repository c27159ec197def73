/// The values of the policy keys: one type per key that is neither a flag, a count nor a
/// duration. The keys themselves, with their words, help and presets, are the table in
/// `PolicyKey.swift`.
/// When the app registers its `SKPaymentTransactionObserver`.
package enum ObserverTiming: String, Sendable, Hashable, CaseIterable {
    case launch
    case storeScreen = "store-screen"
}

/// When the app calls `finishTransaction` for a purchased transaction.
package enum FinishTiming: String, Sendable, Hashable, CaseIterable {
    case afterCredit = "after-credit"
    case onPurchase = "on-purchase"
}

/// Where the app keeps a pending receipt before it sends it.
package enum PersistTier: String, Sendable, Hashable, CaseIterable {
    case none, file, keychain
}

/// Moments at which the app resends its pending receipts.
package enum ResendTrigger: String, Sendable, Hashable, CaseIterable {
    case launch, login, network, purchase
}

/// Whose uid a pending receipt is sent as.
package enum ResendAs: String, Sendable, Hashable, CaseIterable {
    /// The uid saved with the pending receipt (the account that bought).
    case buyer
    /// Whoever is logged in when it is sent.
    case currentUser = "current-user"
}

/// When the app saves a pending receipt where `persist` says.
package enum PersistWhen: String, Sendable, Hashable, CaseIterable {
    /// Before the first send.
    case beforeSend = "before-send"
    /// Only once the immediate retries have failed (in memory only until then).
    case afterRetries = "after-retries"
}

/// Which receipt a send carries.
package enum ReceiptRead: String, Sendable, Hashable, CaseIterable {
    /// The receipt read when the transaction was handled, kept and resent.
    case snapshot
    /// The receipt read again at each send (`appStoreReceiptURL` at send time).
    case fresh
}

/// How the app pairs a purchased transaction with an order.
package enum MatchRule: String, Sendable, Hashable, CaseIterable {
    case first, token
}

/// Whom the merchant server credits.
package enum CreditTarget: String, Sendable, Hashable, CaseIterable {
    case currentUser = "current-user"
    case orderOwner = "order-owner"
}

/// Which StoreKit the app is written against: the original API (the payment queue,
/// `verifyReceipt`) or StoreKit 2 (`purchase()`, `Transaction.updates`, signed transactions).
/// Chosen before a run: the two worlds do not mix within one.
package enum StoreKitWorld: String, Sendable, Hashable, CaseIterable {
    case one = "1"
    case two = "2"
}

extension ResendTrigger {
    var bit: UInt8 {
        switch self {
        case .launch: return 1
        case .login: return 2
        case .network: return 4
        case .purchase: return 8
        }
    }
}
