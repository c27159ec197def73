/// One thing a person (or a scenario step) does to the world: one case per row of the
/// scenario format's command table. The core applies them (`Simulation.perform`); UIs and
/// scenarios only construct them. This file holds all the rest a command is: its text, its
/// entry in the vocabulary (`CommandSpec.all`: how it is read, whether it is a fault, how
/// explore draws and shrinks it).
package enum Command: Sendable, Hashable {
    case buy(product: String)
    case openStore
    case closeStore
    case crash
    case launch
    case background
    case foreground
    case uninstall
    case login(user: String)
    case logout
    case network(on: Bool)
    /// `drop-next-request`, `drop-next-response`, `latency`: a route's faults (Network/NetworkFault.swift).
    case networkFault(NetworkFault)
    /// `store-outage`, `store-status`, `fail-next-payment`, `interrupt-next-payment`: the App
    /// Store's faults (AppStore/StoreFault.swift).
    case storeFault(StoreFault)
    case askToBuy(on: Bool)
    case approve
    case decline
    case replay
    /// `forge PRODUCT [environment Xcode]`: the JWS claims the world's environment, or the
    /// one named (`Xcode`, `LocalTesting`: environments Apple's verifier checks no signature in).
    case forge(product: String, environment: String? = nil)
    /// `server-outage on|off`: the merchant server answers every request with HTTP 503.
    case serverOutage(on: Bool)
    /// `server-api-fail`, `server-api-slow`, `server-api-outage`: the App Store Server API's
    /// faults (CommandSpec+ServerAPI.swift, AppStore+ServerAPIFaults.swift).
    case serverAPIFault(ServerAPIFault)
    /// `refund`, `refund-request`, `refund-decline`, `refund-reverse`: the refund loop
    /// (AppStore/RefundCommand.swift).
    case refundLoop(RefundCommand)
    /// `spend USER COINS`: the user spends coins in the app.
    case spend(user: String, coins: Int)
    /// `billing-fail`, `auto-renew`, `change-plan`, `delay-next-notification`: the
    /// subscription commands (Subscriptions/SubscriptionCommand.swift).
    case subscription(SubscriptionCommand)
    /// `heal`: every armed fault ends; each part ends its own (`Simulation.healFaults`).
    case heal
    /// `policy KEY VALUE`: the value read once, kept typed (Policy/PolicySetting.swift).
    case setPolicy(PolicySetting)
    case setPreset(PolicyPreset)
    case wait(VirtualTime)
    case settle

    /// The command's text as a scenario file writes it (`do:` value).
    package var scenarioText: String {
        switch self {
        case .buy(let p): return "buy \(p)"
        case .openStore: return "open-store"
        case .closeStore: return "close-store"
        case .crash: return "crash"
        case .launch: return "launch"
        case .background: return "background"
        case .foreground: return "foreground"
        case .uninstall: return "uninstall"
        case .login(let u): return "login \(u)"
        case .logout: return "logout"
        case .network(let on): return "network \(on ? "on" : "off")"
        case .networkFault(let f): return f.scenarioText
        case .storeFault(let f): return f.scenarioText
        case .askToBuy(let on): return "ask-to-buy \(on ? "on" : "off")"
        case .approve: return "approve"
        case .decline: return "decline"
        case .replay: return "replay"
        case .forge(let p, let environment): return "forge \(p)" + (environment.map { " environment \($0)" } ?? "")
        case .serverOutage(let on): return "server-outage \(on ? "on" : "off")"
        case .serverAPIFault(let f): return f.text
        case .refundLoop(let c): return c.scenarioText
        case .spend(let user, let coins): return "spend \(user) \(coins)"
        case .subscription(let c): return c.scenarioText
        case .heal: return "heal"
        case .setPolicy(let s): return "policy \(s.key.rawValue) \(s.value)"
        case .setPreset(let p): return "policy preset \(p.rawValue)"
        case .wait(let ms): return "wait \(DurationText.format(ms))"
        case .settle: return "settle"
        }
    }

    /// Its entry in the vocabulary.
    package var spec: CommandSpec {
        switch self {
        case .buy: return .buy
        case .openStore: return .openStore
        case .closeStore: return .closeStore
        case .crash: return .crash
        case .launch: return .launch
        case .background: return .background
        case .foreground: return .foreground
        case .uninstall: return .uninstall
        case .login: return .login
        case .logout: return .logout
        case .network: return .network
        case .networkFault(let f): return f.spec
        case .storeFault(let f): return f.spec
        case .askToBuy: return .askToBuy
        case .approve: return .approve
        case .decline: return .decline
        case .replay: return .replay
        case .forge: return .forge
        case .serverOutage: return .serverOutage
        case .serverAPIFault(let f): return f.spec
        case .refundLoop(let c): return c.spec
        case .spend: return .spend
        case .subscription(let c): return c.spec
        case .heal: return .heal
        case .setPolicy, .setPreset: return .policy
        case .wait: return .wait
        case .settle: return .settle
        }
    }

    /// Commands that inject a fault rather than act as the user.
    package var isFault: Bool { spec.isFault(self) }
}

extension CommandSpec {
    /// The vocabulary: one entry per command word, in the order of the format's table.
    package static let all: [CommandSpec] =
        [
            .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login, .logout,
            .network,
        ] + NetworkFault.specs + StoreFault.specs
        + [.askToBuy, .approve, .decline, .replay, .forge, .serverOutage] + ServerAPIFault.specs
        + RefundCommand.specs + [.spend] + SubscriptionCommand.specs + FamilyCommand.specs
        + [.heal, .policy, .wait, .settle]

    static let buy = CommandSpec(
        "buy", usage: "buy PRODUCT [offer OFFER]",
        read: { a throws(CommandError) in
            if a.words.count > 1, a.words[1].text == "offer" {
                try a.exactly(3)
                return .subscription(.buyOffer(product: try a.product(0), offer: try a.promotionalOffer(2, of: 0)))
            }
            try a.exactly(1)
            return .buy(product: try a.product(0))
        },
        explore: ExploreDraw(slot: 0, weight: 5) { rng, m in
            // Indexed in place (no copy of the list): this draw runs at every step of explore.
            guard !m.catalog.products.isEmpty else {
                return .buy(product: m.catalog.subscriptions[rng.below(m.catalog.subscriptions.count)].id)
            }
            return .buy(product: m.catalog.products[rng.below(m.catalog.products.count)].id)
        },
        simpler: { command in
            if case .buy(let p) = command, p != "coins_100" { return [.buy(product: "coins_100")] }
            return []
        },
        doc: "the logged-in user opens the store screen (if it is not open) and taps Buy: the app creates an "
            + "order, then adds the payment. PRODUCT is a product of the catalog: `coins_100`, `coins_550` or "
            + "`no_ads` in the built-in one, a StoreKit file's own ids with `storekit:` (docs/storekit.md). "
            + "`offer OFFER` (StoreKit 2, a subscription): with its promotional offer OFFER (a `.storekit` file's "
            + "`adHocOffers`), which the merchant server signs with the order (`server-offer-signing`) and the App "
            + "Store checks; or with its win-back offer OFFER (`winbackOffers`, `PurchaseOption.winBackOffer`), which "
            + "the App Store applies to a lapsed subscriber its rules allow (never in billing grace or retry), else "
            + "`purchase()` throws `ineligibleForOffer`")
    static let openStore = CommandSpec(
        "open-store", .openStore,
        explore: ExploreDraw(slot: 14, weight: 1) { rng, _ in
            rng.below(2) == 0 ? .openStore : .closeStore
        }, doc: "the user opens the store screen")
    static let closeStore = CommandSpec("close-store", .closeStore, doc: "the user leaves the store screen")
    static let crash = CommandSpec(
        "crash", .crash, fault: true, explore: ExploreDraw(slot: 1, weight: 2) { _, _ in .crash },
        doc: "the app process dies at once: memory, timers and requests in flight are gone; files and keychain stay")
    static let launch = CommandSpec(
        "launch", .launch, explore: ExploreDraw(slot: 2, weight: 1) { _, _ in .launch },
        doc: "the app process starts and runs its launch sequence")
    static let background = CommandSpec(
        "background", .background,
        explore: ExploreDraw(slot: 15, weight: 1) { rng, _ in
            rng.below(2) == 0 ? .background : .foreground
        }, doc: "the app leaves for the background, where it runs no code")
    static let foreground = CommandSpec(
        "foreground", .foreground,
        doc: "the app comes back from the background, and StoreKit delivers unfinished transactions again")
    static let uninstall = CommandSpec(
        "uninstall", .uninstall,
        explore: ExploreDraw(slot: 10, weight: 1) { rng, _ in
            rng.below(4) == 0 ? .uninstall : .launch
        },
        doc: "the app stops and is removed: its files and its login go, the keychain and the App Store queue "
            + "stay; the next `launch` is a fresh install, logged out")
    static let login = CommandSpec(
        "login", usage: "login USER",
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .login(user: try a.user(0))
        },
        explore: ExploreDraw(slot: 9, weight: 1) { rng, m in
            .login(user: m.users[rng.below(m.users.count)])
        }, doc: "an account switch inside the app: USER logs in; USER must be one of `users`")
    static let logout = CommandSpec(
        "logout", .logout, explore: ExploreDraw(slot: 8, weight: 1) { _, _ in .logout },
        doc: "the logged-in user logs out of the app")
    static let network = CommandSpec(
        "network", usage: "network on|off", faultIf: { $0 == .network(on: false) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .network(on: try a.onOff(0))
        }, explore: ExploreDraw(slot: 4, weight: 1) { rng, _ in .network(on: rng.below(2) == 0) },
        doc: "the device loses (`off`) or regains (`on`) connectivity")
    static let askToBuy = CommandSpec(
        "ask-to-buy", usage: "ask-to-buy on|off",
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .askToBuy(on: try a.onOff(0))
        },
        explore: ExploreDraw(slot: 7, weight: 1) { rng, _ in
            rng.below(2) == 0 ? .askToBuy(on: rng.below(2) == 0) : (rng.below(2) == 0 ? .approve : .decline)
        }, doc: "`on`: payments become deferred (Ask to Buy) until a parent answers; `off` ends it")
    static let approve = CommandSpec("approve", .approve, doc: "the parent approves the newest deferred payment")
    static let decline = CommandSpec(
        "decline", .decline, doc: "the parent declines the newest deferred payment, which becomes `failed`")
    static let replay = CommandSpec(
        "replay", .replay, explore: ExploreDraw(slot: 11, weight: 1) { _, _ in .replay },
        doc: "the logged-in user, with a proxy, creates a fresh order and sends it with the newest receipt and "
            + "transaction id the server accepted")
    // Not on explore's wheel (a new slot would change every seeded schedule): explore draws it
    // in the StoreKit 2 world from the server faults' generator (`Schedule.addServerFaultSteps`).
    static let forge = CommandSpec(
        "forge", usage: "forge PRODUCT [environment Xcode]",
        read: { a throws(CommandError) in try a.forge() },
        doc: "StoreKit 2 only: the logged-in user, with a proxy, creates a fresh order and sends it with a signed "
            + "transaction for PRODUCT that nobody paid for, signed with a key outside Apple's chain; "
            + "`environment Xcode` (or `LocalTesting`) makes the JWS claim a test environment, whose signature "
            + "Apple's verifier does not check")
    // Not on explore's wheel: explore's runs end in a heal phase of their own.
    // The server side: not on explore's wheel either; explore adds refunds and spending to
    // the schedules of worlds with a server-side key on (`Schedule.addServerSideSteps`), and
    // the server's faults to every world's (`Schedule.addServerFaultSteps`, `faultDraws`).
    static let serverOutage = CommandSpec(
        "server-outage", usage: "server-outage on|off",
        faultIf: { $0 == .serverOutage(on: true) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .serverOutage(on: try a.onOff(0))
        },
        doc: "`on`: the merchant server answers every request (orders, recharges, notifications) with HTTP 503 "
            + "until it is turned `off`")
    static let spend = CommandSpec(
        "spend", usage: "spend USER COINS",
        read: { a throws(CommandError) in
            try a.exactly(2)
            return .spend(user: try a.user(0), coins: try a.coins(1))
        },
        doc: "USER spends COINS coins in the app (the app must be running); refused, with the reason logged, when "
            + "the balance is short")
    static let heal = CommandSpec(
        "heal", .heal,
        doc: "every armed fault ends, each part its own: a dropped request or answer and the next payment's failure "
            + "or interruption disarmed, a delayed notification on time, every latency back to 80 ms, the App Store, "
            + "its Server API and the merchant server answering normally, Ask to Buy and billing failures off, "
            + "then the device back online; the status line is empty after it")
    static let policy = CommandSpec(
        "policy", usage: "policy KEY VALUE", read: { a throws(CommandError) in try a.policy() },
        doc: "changes one policy key from now on; a list is written comma-separated, `none` for empty "
            + "(`policy resend-on launch,network`); `policy preset NAME` switches every key to that preset")
    static let wait = CommandSpec(
        "wait", usage: "wait DURATION",
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .wait(try a.duration(0))
        }, doc: "lets virtual time run")
    static let settle = CommandSpec(
        "settle", .settle,
        doc:
            "runs until nothing is scheduled (at most \(DurationText.format(World.settleLimitMs)) of virtual time)"
    )

    /// What `fail-next-payment` accepts after it.
    package static let failReasons = PaymentFailure.allCases.map(\.rawValue) + ["unfinished"]

    /// Explore's wheel: the drawn commands by slot.
    static let wheel: [ExploreDraw] = all.compactMap(\.explore).sorted { $0.slot < $1.slot }
    static let wheelSize = wheel.reduce(0) { $0 + $1.weight }
    /// The wheel's slot for each roll (`0..<wheelSize`): a spin is one lookup.
    static let wheelSlots: [Int] = wheel.indices.flatMap { Array(repeating: $0, count: wheel[$0].weight) }
}
