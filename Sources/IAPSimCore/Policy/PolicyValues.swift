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

/// `server-clawback`: what a refund takes back.
package enum ClawbackRule: String, Sendable, Hashable, CaseIterable {
    /// Nothing: the coins are kept.
    case off
    /// Every coin credited for the transaction, whatever share was refunded.
    case full
    /// The refunded share of the credited coins (`revocationPercentage`), rounded down.
    case refundedShare = "refunded-share"
}

/// `server-refund-reversed`: what the server does with `REFUND_REVERSED`.
package enum RefundReversedRule: String, Sendable, Hashable, CaseIterable {
    case ignore, restore
}

/// `server-history`: the Get Transaction History version the reconciliation job calls.
package enum HistoryVersion: String, Sendable, Hashable, CaseIterable {
    /// v2: finished consumables included.
    case v2
    /// v1 (the default of Apple's Python client until 2025): finished consumables omitted.
    case v1
}

/// `server-history-pages`: whether the job follows `hasMore` (20 transactions a page).
package enum HistoryPages: String, Sendable, Hashable, CaseIterable {
    case all, first
}

/// `server-verify`: who checks a JWS, and with a verifier built for which environment.
package enum VerifyRule: String, Sendable, Hashable, CaseIterable {
    /// A verifier built for the world's environment: signature, chain, bundle, environment.
    case yes = "true"
    /// The JWS is decoded and believed.
    case no = "false"
    /// A verifier built for the environment the JWS claims: one that claims `Xcode` or
    /// `LocalTesting` is accepted unchecked (Apple's verifier checks no signature there).
    case claimedEnvironment = "claimed-environment"
}

/// `server-subscription-order`: in which order the server applies what it hears of a
/// subscription.
/// (`server-subscription-order`, and `server-refund-order` for a one-time purchase's refund news.)
package enum SubscriptionOrder: String, Sendable, Hashable, CaseIterable {
    /// As it arrives.
    case arrival
    /// Ignoring a message signed before the newest one applied for that subscription.
    case signedDate = "signed-date"
}

/// `server-price-increase`: what the server makes of a subscription's price increase.
package enum PriceIncreaseRule: String, Sendable, Hashable, CaseIterable {
    /// `PRICE_INCREASE` grants the next period at once; `EXPIRED` / `PRICE_INCREASE` is a
    /// subtype the handler does not know, and ignores.
    case assumeRenewal = "assume-renewal"
    /// Access follows the transactions; every `EXPIRED` ends it.
    case awaitRenewal = "await-renewal"
}

/// `server-grace`: whether the server keeps access through the billing grace period.
package enum GraceRule: String, Sendable, Hashable, CaseIterable {
    /// Access ends at `expiresDate`.
    case ignore
    /// Access lasts until `gracePeriodExpiresDate`.
    case honor
}

/// `server-offer-signing`: for whom the merchant server signs a promotional offer.
package enum OfferSigning: String, Sendable, Hashable, CaseIterable {
    /// For whoever asks.
    case any
    /// Only for an account that has subscribed in the offer's group (current or lapsed).
    case subscribers
}
