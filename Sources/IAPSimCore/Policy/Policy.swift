/// Every rule of the app and of the merchant server that a team chooses: one stored value
/// per policy key. The keys, their words, values, help, worlds and every preset's value are
/// one table (`PolicyKeySpec.table`); this struct only stores the values, compactly, because
/// every event copies it.
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
    var retryMaxIntervalMs: VirtualTime? {
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
    // StoreKit 2; read only when `storekit` is 2.
    package var storekit: StoreKitWorld = .one
    /// Iterate `Transaction.unfinished` at launch and at foreground and send each.
    package var sweepUnfinished = false
    /// `purchase(options: [.appAccountToken(orderToken)])`.
    package var accountToken = false
    /// Who checks a JWS: a verifier built for the world's environment (`true`), nobody
    /// (`false`), or one built for the environment the JWS claims.
    package var serverVerify = VerifyRule.no
    // The server side (notifications, reconciliation, clawback), read in both worlds.
    /// The server has a notification URL and handles App Store Server Notifications V2.
    package var serverNotifications = false
    /// On a refund the server takes the coins back (a balance may go negative: debt).
    package var serverClawback = ClawbackRule.off
    /// The app sends `AppTransaction.appTransactionID` to the server at every login.
    package var reportAppTransaction = false
    package var serverRefundReversed = RefundReversedRule.ignore
    /// The server answers `CONSUMPTION_REQUEST` with Send Consumption Information.
    package var serverConsumptionAnswer = false
    package var serverHistory = HistoryVersion.v2
    package var serverHistoryPages = HistoryPages.all
    // Subscriptions (server side, read in the StoreKit 2 world), and the order of refund news.
    // Four keys in one byte (bit 0 `signed-date`, bit 1 `honor`, bit 2 revoke, bit 3 the refund
    // news' `signed-date`): every event copies the policy, and it stays 56 bytes with them.
    var subscriptionBits: UInt8 = 0
    /// `server-refund-order`: a one-time purchase's refund news (`REFUND`, `REFUND_REVERSED`)
    /// applied as it arrives, or a message signed before the newest applied for its
    /// transaction ignored.
    package var serverRefundOrder: SubscriptionOrder {
        get { subscriptionBits & 8 != 0 ? .signedDate : .arrival }
        set { subscriptionBits = subscriptionBits & ~8 | (newValue == .signedDate ? 8 : 0) }
    }
    package var serverSubscriptionOrder: SubscriptionOrder {
        get { subscriptionBits & 1 != 0 ? .signedDate : .arrival }
        set { subscriptionBits = subscriptionBits & ~1 | (newValue == .signedDate ? 1 : 0) }
    }
    package var serverGrace: GraceRule {
        get { subscriptionBits & 2 != 0 ? .honor : .ignore }
        set { subscriptionBits = subscriptionBits & ~2 | (newValue == .honor ? 2 : 0) }
    }
    /// `server-offer-signing`: for whom the server signs a promotional offer (bit 5).
    package var serverOfferSigning: OfferSigning {
        get { subscriptionBits & 32 != 0 ? .subscribers : .any }
        set { subscriptionBits = subscriptionBits & ~32 | (newValue == .subscribers ? 32 : 0) }
    }
    /// `server-price-increase` (bit 4): what the server makes of `PRICE_INCREASE`.
    package var serverPriceIncrease: PriceIncreaseRule {
        get { subscriptionBits & 16 != 0 ? .awaitRenewal : .assumeRenewal }
        set { subscriptionBits = subscriptionBits & ~16 | (newValue == .awaitRenewal ? 16 : 0) }
    }
    /// On `REFUND` of a subscription transaction, the server ends access.
    package var serverRevoke: Bool {
        get { subscriptionBits & 4 != 0 }
        set { subscriptionBits = subscriptionBits & ~4 | (newValue ? 4 : 0) }
    }
    /// `serverStatusPollMs` in 32 bits, 0 for `off`.
    var statusPollMs: UInt32 = 0
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

    /// How often the server calls Get All Subscription Statuses; nil means `off`.
    package var serverStatusPollMs: VirtualTime? {
        get { statusPollMs == 0 ? nil : VirtualTime(statusPollMs) }
        set { statusPollMs = newValue.map { UInt32(clamping: $0) } ?? 0 }
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

    /// Every key at the first value it accepts: the blank that presets are written onto.
    init() {
        self.init(
            observer: .launch, finish: .afterCredit, finishFailed: false, persist: .none, retryImmediate: 0,
            retryIntervalMs: nil, resendOn: [], match: .first, serverDedup: false, serverBindOrder: false,
            creditTo: .currentUser)
    }

    func resends(on trigger: ResendTrigger) -> Bool { resendMask & trigger.bit != 0 }

    /// Whether any moment resends pending receipts.
    var resendsAtAll: Bool { resendMask != 0 }
}

/// The policy keys, in the order people read them (the app's rules, then the server's). A
/// key is one row of `PolicyKeySpec.table`: everything the program knows of it is there.
package enum PolicyKey: String, Sendable, Hashable, CaseIterable {
    case observer, finish
    case finishFailed = "finish-failed"
    case sweepUnfinished = "sweep-unfinished"
    case accountToken = "account-token"
    case persist
    case persistWhen = "persist-when"
    case retryImmediate = "retry-immediate"
    case retryInterval = "retry-interval"
    case retryMaxInterval = "retry-max-interval"
    case resendOn = "resend-on"
    case resendAs = "resend-as"
    case receipt
    case match
    case reportAppTransaction = "report-app-transaction"
    case serverVerify = "server-verify"
    case serverDedup = "server-dedup"
    case serverBindOrder = "server-bind-order"
    case creditTo = "credit-to"
    case storekit
    case serverNotifications = "server-notifications"
    case serverReconcile = "server-reconcile"
    case serverClawback = "server-clawback"
    case serverRefundReversed = "server-refund-reversed"
    case serverRefundOrder = "server-refund-order"
    case serverConsumptionAnswer = "server-consumption-answer"
    case serverHistory = "server-history"
    case serverHistoryPages = "server-history-pages"
    case serverSubscriptionOrder = "server-subscription-order"
    case serverGrace = "server-grace"
    case serverRevoke = "server-revoke"
    case serverStatusPoll = "server-status-poll"
    case serverOfferSigning = "server-offer-signing"
    case serverPriceIncrease = "server-price-increase"
}

extension PolicyKeySpec {
    /// Every policy key, one row each, in `PolicyKey.allCases` order. `presets` gives each
    /// preset's value, in `PolicyPreset.allCases` order:
    /// naive, hardened, local-table, retransmit, retry-file, sk2-naive, sk2-hardened.
    package static let table: [PolicyKeySpec] = [
        .choice(
            .observer, \.observer, .both, help: "when SKPaymentQueue.default().add(observer) runs",
            doc:
                "when the app registers its transaction observer, `SKPaymentQueue.default().add(observer)` (StoreKit 2: "
                + "when its `Transaction.updates` listener starts): at launch, or when the store screen opens",
            presets: .all(
                "launch", except: [.naive: "store-screen", .retryFile: "store-screen", .sk2Naive: "store-screen"])
        ).storeKit2Help("when the app's Transaction.updates listener starts").live(
            "changed live: registered now if the app runs; one registered stays"),
        .choice(
            .finish, \.finish, .both, help: "when finishTransaction runs for a purchased transaction",
            doc: "when `finishTransaction` (StoreKit 2: `finish()`) runs for a purchased transaction",
            presets: .all("after-credit", except: [.naive: "on-purchase", .sk2Naive: "on-purchase"])
        ).storeKit2Help("when finish() runs for a purchased transaction"),
        .flag(
            .finishFailed, \.finishFailed, .storeKit1, help: "whether failed transactions are finished",
            presets: .all("false", except: [.hardened: "true", .sk2Hardened: "true"])),
        .flag(
            .sweepUnfinished, \.sweepUnfinished, .storeKit2,
            help: "Transaction.unfinished sent at launch and foreground",
            doc: "at launch and at every return to the foreground the app iterates `Transaction.unfinished` and sends "
                + "each transaction",
            presets: .all("false", except: [.sk2Hardened: "true"])
        ).live("changed live: from the next launch or return to the foreground"),
        .flag(
            .accountToken, \.accountToken, .storeKit2, help: "purchase(options:) carries the order's appAccountToken",
            doc:
                "`purchase(options:)` carries the order's `appAccountToken`, which comes back in the signed transaction",
            presets: .all("false", except: [.sk2Hardened: "true"])),
        .choice(
            .persist, \.persist, .both, help: "where the pending receipt is kept before sending",
            presets: .all(
                "file", except: [.naive: "none", .hardened: "keychain", .sk2Naive: "none", .sk2Hardened: "keychain"])
        ).graded().live("changed live: receipts already kept stay where they are"),
        .choice(
            .persistWhen, \.persistWhen, .both, help: "saved before the first send, or only after the retries fail",
            doc: "saved before the first send, or only once the immediate retries have failed (in between it lives in "
                + "memory only, and a crash loses it)",
            presets: .all("before-send", except: [.retryFile: "after-retries"])
        ).live("changed live: receipts already kept stay where they are"),
        .count(
            .retryImmediate, \.retryImmediate, .both, help: "immediate retries after a failed send", range: 0...10,
            presets: .all("0", except: [.hardened: "3", .retryFile: "3", .sk2Hardened: "3"])
        ).graded(),
        .interval(
            .retryInterval, \.retryIntervalMs, .both, help: "periodic retry of pending receipts",
            example: "30s or 5m", choices: ["off", "30s", "1m", "5m", "15m"],
            presets: .all("off", except: [.hardened: "5m", .retryFile: "5m", .sk2Hardened: "5m"])
        ).graded().live(
            "changed live: retries what the app holds now if the server deduplicates, else from the next pending receipt"
        ),
        .interval(
            .retryMaxInterval, \.retryMaxIntervalMs, .both, help: "periodic retry backs off, doubling up to this",
            doc: "the periodic retry's back-off: when a round got no definite answer (credited, already credited, "
                + "refused) by the next one, the interval after that doubles, up to this cap; a definite answer to any "
                + "recharge, or a launch, brings it back to `retry-interval`; `off` keeps it fixed",
            example: "1h or 24h", choices: ["off", "1h", "6h", "24h"],
            presets: .all("off", except: [.hardened: "24h", .sk2Hardened: "24h"])
        ).graded(),
        .list(
            .resendOn, \.resendOn, .both,
            help: "moments that resend pending receipts",
            choices: [
                "none", "launch", "launch,login", "launch,network", "launch,network,purchase",
                "launch,login,network,purchase",
            ],
            presets: .all(
                "none",
                except: [
                    .hardened: "launch,login,network,purchase", .localTable: "launch",
                    .retransmit: "launch,network,purchase", .retryFile: "launch,login",
                    .sk2Hardened: "launch,login,network,purchase",
                ])
        ).graded().live("changed live: a launch resend from the next launch"),
        .choice(
            .resendAs, \.resendAs, .both, help: "a resend carries the buyer's uid, or whoever is logged in",
            doc:
                "a resend carries the uid saved with the receipt, or whoever is logged in; as `buyer`, alice's receipt "
                + "waits while bob is logged in (unless the server credits the order's owner)",
            presets: .all("buyer", except: [.naive: "current-user", .sk2Naive: "current-user"])),
        .choice(
            .receipt, \.receipt, .storeKit1, help: "the receipt read at purchase, or read again at each send",
            presets: .all("snapshot")),
        .choice(
            .match, \.match, .storeKit1, help: "how a transaction is paired with an order",
            doc: "pair the current order with the oldest unfinished transaction (`first`), or pair a transaction with "
                + "the order whose token it carries (`token`)",
            presets: .all("first", except: [.hardened: "token", .localTable: "token", .sk2Hardened: "token"])),
        .flag(
            .reportAppTransaction, \.reportAppTransaction, .storeKit2,
            help: "the app sends its appTransactionId to the server at login",
            doc: "the app sends `AppTransaction.appTransactionID` to the server at every login (route `order`; the "
                + "automatic login at first launch counts), so that reconciliation can find a customer whose first "
                + "purchase never reached the server",
            presets: .all("false", except: [.sk2Hardened: "true"])
        ).live("changed live: from the next login"),
        .choice(
            .serverVerify, \.serverVerify, .storeKit2,
            help: "server checks the JWS itself, for the world's or the claimed environment",
            doc: "who checks a JWS: `true`, a verifier built for the world's environment (signature, certificate "
                + "chain, bundleId, environment), the only check that refuses a forged transaction; `false`, nobody "
                + "(decoded and believed); `claimed-environment`, a verifier built for the environment the JWS claims, "
                + "which accepts unchecked one that claims `Xcode` or `LocalTesting`",
            presets: .all("false", except: [.sk2Hardened: "true"])),
        .flag(
            .serverDedup, \.serverDedup, .both, help: "server remembers every credited transaction id",
            presets: .all("false", except: [.hardened: "true", .localTable: "true", .sk2Hardened: "true"])),
        .flag(
            .serverBindOrder, \.serverBindOrder, .both, help: "order bound to one transaction by its token",
            presets: .all("false", except: [.hardened: "true", .localTable: "true", .sk2Hardened: "true"])
        ).live("changed live: purchases made before it was on are still accepted without a token"),
        .choice(
            .creditTo, \.creditTo, .both, help: "whom the server credits",
            doc: "the server credits the account the request names, or the order's creator",
            presets: .all("current-user", except: [.hardened: "order-owner", .sk2Hardened: "order-owner"])),
        .choice(
            .storekit, \.storekit, .choosesWorld, help: "StoreKit 1 or 2; switches between runs or on restart",
            presets: .all("1", except: [.sk2Naive: "2", .sk2Hardened: "2"])
        ).live("takes effect on restart (R)"),
        .flag(
            .serverNotifications, \.serverNotifications, .serverSide,
            help: "server handles App Store Server Notifications V2",
            doc:
                "the server has a notification URL: the App Store sends it a V2 notification per charge and per refund",
            presets: .all("false", except: [.sk2Hardened: "true"])),
        .interval(
            .serverReconcile, \.serverReconcileMs, .serverSide,
            help: "server calls Get Transaction History every so often",
            doc: "every so often (on the interval's ticks: on the hour for `1h`) the server calls Get Transaction "
                + "History and credits what it missed, or hears of refunds it missed", example: "1h or 15m",
            choices: ["off", "15m", "1h", "6h", "24h"], presets: .all("off", except: [.sk2Hardened: "1h"])
        ).graded(),
        .choice(
            .serverClawback, \.serverClawback, .serverSide,
            help: "a refund takes back all coins, the refunded share, or none",
            doc: "what a refund takes back: `full`, every coin credited for it (and the entitlement); "
                + "`refunded-share`, the refunded share of the coins (`revocationPercentage`), rounded down; `off`, "
                + "nothing. What was taken is set from the newest signed share on every `REFUND`, "
                + "`REFUND_REVERSED` and reconciliation: a larger share takes the difference, a smaller one (with "
                + "`server-refund-reversed restore`) gives it back. A balance may go negative, shown as debt",
            presets: .all("off", except: [.sk2Hardened: "refunded-share"])
        ).graded(),
        .choice(
            .serverRefundReversed, \.serverRefundReversed, .serverSide,
            help: "REFUND_REVERSED gives the clawed-back coins (or subscription access) back, or not",
            doc: "on `REFUND_REVERSED` (Apple reversed a refund: the customer has paid again) the server gives back "
                + "what it clawed back, and a subscription's access (`restore`), or keeps it (`ignore`)",
            presets: .all("ignore", except: [.sk2Hardened: "restore"])),
        .choice(
            .serverRefundOrder, \.serverRefundOrder, .serverSide,
            help: "refund news applied as it arrives, or newest signedDate wins",
            doc: "`arrival`: the server applies a one-time purchase's `REFUND` and `REFUND_REVERSED` in the order "
                + "they arrive (a `REFUND` delayed past a reversal or a later prorated refund takes back again); "
                + "`signed-date`: it ignores one whose transaction was signed before the newest it applied for that "
                + "transaction (compare `signedDate`; news signed in the same millisecond cannot be ordered)",
            presets: .all("arrival", except: [.sk2Hardened: "signed-date"])),
        .flag(
            .serverConsumptionAnswer, \.serverConsumptionAnswer, .serverSide,
            help: "CONSUMPTION_REQUEST answered with consumption information",
            doc: "the server answers a consumable's or a subscription's `CONSUMPTION_REQUEST` with Send Consumption "
                + "Information (route `server-api`), complete as Apple requires: `customerConsented`, "
                + "`sampleContentProvided`, `deliveryStatus` from its own records, `refundPreference`, and with "
                + "`GRANT_PRORATED` for coins the consumed share as `consumptionPercentage`",
            presets: .all("false", except: [.sk2Hardened: "true"])),
        .choice(
            .serverHistory, \.serverHistory, .serverSide,
            help: "Get Transaction History v2, or v1 (no finished consumables)",
            doc: "the Get Transaction History version the reconciliation job calls: `v2`, or `v1` (the default of "
                + "Apple's Python client until 2025), which omits finished consumables",
            presets: .all("v2", except: [.sk2Naive: "v1"])),
        .choice(
            .serverHistoryPages, \.serverHistoryPages, .serverSide,
            help: "reconciliation reads every page, or only the first 20",
            doc: "the job follows `hasMore` through every page (`all`), or reads only the first page of 20, oldest "
                + "first (`first`), and misses the rest",
            presets: .all("all", except: [.sk2Naive: "first"])),
        .choice(
            .serverSubscriptionOrder, \.serverSubscriptionOrder, .serverSide,
            help: "subscription news applied as it arrives, or newest signedDate wins",
            doc: "`arrival`: the server applies what it hears of a subscription (notifications, reports) in the order "
                + "it arrives; `signed-date`: it ignores a message signed before the newest one it applied for that "
                + "subscription (compare `signedDate`). Read in the StoreKit 2 world",
            presets: .all("arrival", except: [.sk2Hardened: "signed-date"])),
        .choice(
            .serverGrace, \.serverGrace, .serverSide,
            help: "access ends at expiresDate, or lasts through the grace period",
            doc: "`ignore`: the server's access ends at `expiresDate`; `honor`: it lasts until "
                + "`gracePeriodExpiresDate` while billing retry is in grace. Read in the StoreKit 2 world",
            presets: .all("ignore", except: [.sk2Hardened: "honor"])),
        .flag(
            .serverRevoke, \.serverRevoke, .serverSide,
            help: "REFUND of a subscription transaction, or REVOKE of a family-shared one, ends access",
            doc: "on `REFUND` of a subscription transaction of the current period, or `REVOKE` of a family member's "
                + "`FAMILY_SHARED` one (Family Sharing ended), the server ends access. Read in the StoreKit 2 world",
            presets: .all("false", except: [.sk2Hardened: "true"])),
        .interval(
            .serverStatusPoll, \.serverStatusPollMs, .serverSide,
            help: "server calls Get All Subscription Statuses every so often",
            doc: "`off` or a duration: that often the server calls Get All Subscription Statuses (route `server-api`) "
                + "for each subscriber it knows and corrects the access it grants. Read in the StoreKit 2 world",
            example: "24h or 12h", choices: ["off", "1h", "12h", "24h"],
            presets: .all("off", except: [.sk2Hardened: "24h"])
        ).graded(),
        .choice(
            .serverOfferSigning, \.serverOfferSigning, .serverSide,
            help: "server signs promotional offers for anyone, or only for subscribers",
            doc: "`any`: the server signs the promotional offer the app asks for, for whoever asks; `subscribers`: "
                + "only for an account that has subscribed in the offer's group (current or lapsed: promotional offers "
                + "are for existing or previous subscribers), else it answers no signature and the app buys without the "
                + "offer (a new customer gets the introductory offer, if any). Read in the StoreKit 2 world",
            presets: .all("any", except: [.sk2Hardened: "subscribers"])),
        .choice(
            .serverPriceIncrease, \.serverPriceIncrease, .serverSide,
            help: "PRICE_INCREASE read as a renewal to come, or access waits for the renewal",
            doc:
                "`assume-renewal`: the server reads `PRICE_INCREASE` as a renewal announced and grants the next period "
                + "at once, and its `EXPIRED` handler acts only on the subtypes `VOLUNTARY` and `BILLING_RETRY` (so "
                + "`EXPIRED` / `PRICE_INCREASE` leaves access on); `await-renewal`: `PRICE_INCREASE` changes no access "
                + "(access follows the transactions) and every `EXPIRED` ends it. Read in the StoreKit 2 world",
            presets: .all("assume-renewal", except: [.sk2Hardened: "await-renewal"])),
    ]
}
