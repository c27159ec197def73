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

// The App Store of 2026 (docs/world.md, "Where each rule comes from"): the values of the
// keys added with it, kept together.

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

/// Every toggle of DOMAIN.md: the app's rules and the merchant server's rules.
/// `presetName` is the preset the policy started from, or "custom" once a key differs.
package struct Policy: Sendable, Hashable {
    package var observer: ObserverTiming
    package var finish: FinishTiming
    package var finishFailed: Bool
    package var persist: PersistTier
    package var persistWhen: PersistWhen
    package var retryImmediate: Int
    /// Periodic retry interval in virtual milliseconds; nil means `off`.
    package var retryIntervalMs: VirtualTime?
    /// The cap of the periodic retry's back-off: while no periodic round gets a definite
    /// answer the interval doubles up to it; nil (`off`) keeps it at `retryIntervalMs`.
    package var retryMaxIntervalMs: VirtualTime? {
        get { retryMaxMs == 0 ? nil : VirtualTime(retryMaxMs) }
        set { retryMaxMs = newValue.map { UInt32(clamping: $0) } ?? 0 }
    }
    /// Resend triggers in the fixed order launch, login, network, purchase: a set, so any
    /// order given reads back in that order.
    package var resendOn: [ResendTrigger] {
        get { ResendTrigger.allCases.filter(resends(on:)) }
        set { resendMask = newValue.reduce(0) { $0 | $1.bit } }
    }
    /// The set of `resendOn` as bits (see ARCHITECTURE.md, "The hot path").
    var resendMask: UInt8
    package var resendAs: ResendAs
    package var receipt: ReceiptRead
    package var match: MatchRule
    package var serverDedup: Bool
    package var serverBindOrder: Bool
    package var creditTo: CreditTarget
    // StoreKit 2 (STOREKIT2.md); read only when `storekit` is 2.
    package var storekit: StoreKitWorld = .one
    /// Iterate `Transaction.unfinished` at launch and at foreground and send each.
    package var sweepUnfinished = false
    /// `purchase(options: [.appAccountToken(orderToken)])`.
    package var accountToken = false
    /// The server checks the JWS signature, chain, bundleId and environment itself.
    package var serverVerify = VerifyRule.no
    // The server side (STOREKIT2.md flow steps 5-6), read in both worlds.
    /// The server has a notification URL and handles App Store Server Notifications V2.
    package var serverNotifications = false
    /// On a refund the server takes the coins back (a balance may go negative: debt).
    package var serverClawback = ClawbackRule.off
    // The App Store of 2026, kept together.
    /// The app sends `AppTransaction.appTransactionID` to the server at every login.
    package var reportAppTransaction = false
    package var serverRefundReversed = RefundReversedRule.ignore
    /// The server answers `CONSUMPTION_REQUEST` with Send Consumption Information.
    package var serverConsumptionAnswer = false
    package var serverHistory = HistoryVersion.v2
    package var serverHistoryPages = HistoryPages.all
    /// `serverReconcileMs` in 32 bits, 0 for `off`: every event copies the policy, and the
    /// two one-byte keys and this fit where an optional 64-bit duration would not.
    var reconcileMs: UInt32 = 0
    /// `retryMaxIntervalMs` in 32 bits, 0 for `off`, declared here beside `reconcileMs`:
    /// the policy stays 48 bytes with it.
    var retryMaxMs: UInt32 = 0
    /// How often the server calls Get Transaction History; nil means `off`.
    package var serverReconcileMs: VirtualTime? {
        get { reconcileMs == 0 ? nil : VirtualTime(reconcileMs) }
        set { reconcileMs = newValue.map { UInt32(clamping: $0) } ?? 0 }
    }

    /// Whether any server-side key is on: when none is, nothing of the server side runs.
    package var serverSide: Bool { serverNotifications || serverReconcileMs != nil || serverClawback != .off }

    package init(
        observer: ObserverTiming, finish: FinishTiming, finishFailed: Bool, persist: PersistTier,
        retryImmediate: Int, retryIntervalMs: VirtualTime?, resendOn: [ResendTrigger],
        match: MatchRule, serverDedup: Bool, serverBindOrder: Bool, creditTo: CreditTarget,
        resendAs: ResendAs = .buyer, persistWhen: PersistWhen = .beforeSend,
        receipt: ReceiptRead = .snapshot, retryMaxIntervalMs: VirtualTime? = nil
    ) {
        self.observer = observer
        self.finish = finish
        self.finishFailed = finishFailed
        self.persist = persist
        self.persistWhen = persistWhen
        self.retryImmediate = retryImmediate
        self.retryIntervalMs = retryIntervalMs
        self.resendMask = resendOn.reduce(0) { $0 | $1.bit }
        self.resendAs = resendAs
        self.receipt = receipt
        self.match = match
        self.serverDedup = serverDedup
        self.serverBindOrder = serverBindOrder
        self.creditTo = creditTo
        self.retryMaxIntervalMs = retryMaxIntervalMs
    }

    package func resends(on trigger: ResendTrigger) -> Bool { resendMask & trigger.bit != 0 }

    /// Whether any moment resends pending receipts.
    package var resendsAtAll: Bool { resendMask != 0 }
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

/// A named policy preset.
package enum PolicyPreset: String, Sendable, Hashable, CaseIterable {
    case naive, hardened
    case localTable = "local-table"
    case retransmit
    case retryFile = "retry-file"
    case sk2Naive = "sk2-naive"
    case sk2Hardened = "sk2-hardened"

    package var policy: Policy {
        switch self {
        case .naive:
            return Policy(
                observer: .storeScreen, finish: .onPurchase, finishFailed: false,
                persist: .none, retryImmediate: 0, retryIntervalMs: nil, resendOn: [],
                match: .first, serverDedup: false, serverBindOrder: false,
                creditTo: .currentUser, resendAs: .currentUser)
        case .hardened:
            // The periodic retry backs off to once a day while nothing gets through, as
            // Apple's own notification retries do (1h, 12h, 24h, 48h, 72h).
            return Policy(
                observer: .launch, finish: .afterCredit, finishFailed: true,
                persist: .keychain, retryImmediate: 3, retryIntervalMs: 300_000,
                resendOn: ResendTrigger.allCases, match: .token, serverDedup: true,
                serverBindOrder: true, creditTo: .orderOwner, retryMaxIntervalMs: 86_400_000)
        case .localTable:
            // A local table of transactions (paid / credited) in a file, the observer at
            // launch, and a server that deduplicates and binds orders. No retries: a row
            // marked paid is only looked at again when StoreKit redelivers at launch. Each
            // row holds the buyer's uid, and its resend carries it.
            return Policy(
                observer: .launch, finish: .afterCredit, finishFailed: false,
                persist: .file, retryImmediate: 0, retryIntervalMs: nil,
                resendOn: [.launch], match: .token, serverDedup: true,
                serverBindOrder: true, creditTo: .currentUser)
        case .retransmit:
            // The observer moved to app launch (didFinishLaunchingWithOptions); store the
            // request before sending; resend at launch, when the network returns and when a
            // new purchase starts, as the buyer; finish after the server answers.
            return Policy(
                observer: .launch, finish: .afterCredit, finishFailed: false,
                persist: .file, retryImmediate: 0, retryIntervalMs: nil,
                resendOn: [.launch, .network, .purchase], match: .first,
                serverDedup: false, serverBindOrder: false, creditTo: .currentUser)
        case .retryFile:
            // Three immediate retries; only when they fail, a file per user and order,
            // retried every 5m and at launch and login, as the file's uid.
            return Policy(
                observer: .storeScreen, finish: .afterCredit, finishFailed: false,
                persist: .file, retryImmediate: 3, retryIntervalMs: 300_000,
                resendOn: [.launch, .login], match: .first, serverDedup: false,
                serverBindOrder: false, creditTo: .currentUser,
                persistWhen: .afterRetries)
        case .sk2Naive: return Policy.storeKit2Naive
        case .sk2Hardened: return Policy.storeKit2Hardened
        }
    }
}

/// The policy keys of DOMAIN.md, in the order people read them.
package enum PolicyKey: String, Sendable, Hashable, CaseIterable {
    case observer, finish
    case finishFailed = "finish-failed"
    case persist
    case persistWhen = "persist-when"
    case retryImmediate = "retry-immediate"
    case retryInterval = "retry-interval"
    case retryMaxInterval = "retry-max-interval"
    case resendOn = "resend-on"
    case resendAs = "resend-as"
    case receipt
    case match
    case serverDedup = "server-dedup"
    case serverBindOrder = "server-bind-order"
    case creditTo = "credit-to"
    case storekit
    case sweepUnfinished = "sweep-unfinished"
    case accountToken = "account-token"
    case serverVerify = "server-verify"
    case serverNotifications = "server-notifications"
    case serverReconcile = "server-reconcile"
    case serverClawback = "server-clawback"
    // The App Store of 2026, kept together.
    case reportAppTransaction = "report-app-transaction"
    case serverRefundReversed = "server-refund-reversed"
    case serverConsumptionAnswer = "server-consumption-answer"
    case serverHistory = "server-history"
    case serverHistoryPages = "server-history-pages"

    /// What the key accepts, in words fit for an error message.
    package var acceptedValues: String {
        switch self {
        case .observer: return ObserverTiming.allCases.map(\.rawValue).joined(separator: ", ")
        case .finish: return FinishTiming.allCases.map(\.rawValue).joined(separator: ", ")
        case .finishFailed, .serverDedup, .serverBindOrder, .sweepUnfinished, .accountToken,
            .serverNotifications, .reportAppTransaction, .serverConsumptionAnswer:
            return "true, false"
        case .serverVerify, .serverClawback, .serverRefundReversed, .serverHistory, .serverHistoryPages:
            return choices.joined(separator: ", ")
        case .storekit: return "1, 2"
        case .persist: return PersistTier.allCases.map(\.rawValue).joined(separator: ", ")
        case .retryImmediate: return "a whole number from 0 to 10"
        case .retryInterval: return "a duration such as 30s or 5m, or off"
        case .retryMaxInterval: return "a duration such as 1h or 24h, or off"
        case .serverReconcile: return "a duration such as 1h or 15m, or off"
        case .resendOn:
            return "a list of " + ResendTrigger.allCases.map(\.rawValue).joined(separator: ", ")
                + " (comma-separated), or none"
        case .match, .creditTo, .persistWhen, .resendAs, .receipt:
            return choices.joined(separator: ", ")
        }
    }

    /// The values a picker offers for this key, in order (a sample for open-ended keys).
    package var choices: [String] {
        switch self {
        case .observer: return ObserverTiming.allCases.map(\.rawValue)
        case .finish: return FinishTiming.allCases.map(\.rawValue)
        case .finishFailed, .serverDedup, .serverBindOrder, .sweepUnfinished, .accountToken,
            .serverNotifications, .reportAppTransaction, .serverConsumptionAnswer:
            return ["true", "false"]
        case .serverVerify: return VerifyRule.allCases.map(\.rawValue)
        case .serverClawback: return ClawbackRule.allCases.map(\.rawValue)
        case .serverRefundReversed: return RefundReversedRule.allCases.map(\.rawValue)
        case .serverHistory: return HistoryVersion.allCases.map(\.rawValue)
        case .serverHistoryPages: return HistoryPages.allCases.map(\.rawValue)
        case .storekit: return StoreKitWorld.allCases.map(\.rawValue)
        case .persist: return PersistTier.allCases.map(\.rawValue)
        case .retryImmediate: return (0...10).map(String.init)
        case .retryInterval: return ["off", "30s", "1m", "5m", "15m"]
        case .retryMaxInterval: return ["off", "1h", "6h", "24h"]
        case .serverReconcile: return ["off", "15m", "1h", "6h", "24h"]
        case .resendOn:
            return [
                "none", "launch", "launch,login", "launch,network",
                "launch,network,purchase", "launch,login,network,purchase",
            ]
        case .match: return MatchRule.allCases.map(\.rawValue)
        case .creditTo: return CreditTarget.allCases.map(\.rawValue)
        case .persistWhen: return PersistWhen.allCases.map(\.rawValue)
        case .resendAs: return ResendAs.allCases.map(\.rawValue)
        case .receipt: return ReceiptRead.allCases.map(\.rawValue)
        }
    }
}
