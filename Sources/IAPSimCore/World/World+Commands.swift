extension World {
    /// Applies one command that acts at once (every command but `wait` and `settle`, which
    /// are the harness's: `Simulation.apply`), `onlooker` beside it; appends what it wrote to
    /// `written` unless it is nil, and returns the trigger events it wrote.
    mutating func command<O: Onlooker>(
        _ command: Command, into written: inout [LogEntry]?, _ onlooker: inout O
    ) -> TriggerSet {
        begin(collecting: written != nil)
        if let why = refusing(command) {
            outbox.log(.user, .commandIgnored(command, reason: why))
            // Nothing changed and no time passed: the onlooker reads the fact, no look.
            return commit(into: &written, &onlooker, looking: false)
        }
        outbox.log(command.isFault ? .fault : .user, .commandIssued(command))
        perform(command)
        return commit(into: &written, &onlooker)
    }

    /// The two StoreKit worlds do not mix within one run.
    static let worldIsFixed = "the StoreKit world is chosen before a run (switch it between runs or on restart)"

    /// Why a command cannot run now, or nil.
    package func refusal(of command: Command) -> String? {
        var world = self
        return world.refusing(command)
    }

    /// `refusal(of:)` for `apply`. It changes nothing; it is `mutating` because a call to a
    /// non-mutating method from a mutating one copies the whole world first (1 KB, for every
    /// command of every run), and a mutating one gets the world's address.
    mutating func refusing(_ command: Command) -> String? {
        if app.inBackground, command.needsForeground { return "the app is in the background" }
        switch command {
        case .buy(let product):
            // One look at the catalog: whether it sells the product, and its subscription group.
            guard let group = config.catalog.read(product, { $0.subscription?.group }) else {
                return "unknown product \(product)"
            }
            if let group, let why = subscriptionPurchaseRefusal(group: group) { return why }
            if !app.isRunning { return "the app is not running" }
            if app.loggedIn == nil { return "nobody is logged in" }
        case .openStore, .closeStore, .logout:
            if !app.isRunning { return "the app is not running" }
        case .login(let user):
            if !app.isRunning { return "the app is not running" }
            if !config.users.contains(user) { return "unknown user \(user)" }
        case .launch:
            if app.isRunning { return "the app is already running" }
        case .crash:
            if !app.isRunning { return "the app is not running" }
        case .background:
            if !app.isRunning { return "the app is not running" }
            if app.inBackground { return "the app is already in the background" }
        case .foreground:
            if !app.isRunning { return "the app is not running" }
            if !app.inBackground { return "the app is not in the background" }
        case .uninstall:
            if app.process == .uninstalled { return "the app is not installed" }
        case .replay:
            if app.loggedIn == nil { return "the attacker needs a logged-in account" }
        case .networkFault(let fault):
            return refusing(fault)
        case .storeFault(let fault):
            return refusing(fault)
        case .forge:
            if policy.storekit == .one { return "StoreKit 1 has no signed transaction to forge (try replay)" }
            if app.loggedIn == nil { return "the attacker needs a logged-in account" }
        case .setPolicy(let setting) where setting.key == .storekit && setting.value != policy.storekit.rawValue:
            return Self.worldIsFixed
        case .setPreset(let preset) where preset.policy.storekit != policy.storekit:
            return Self.worldIsFixed
        case .approve, .decline:
            if !store.queue.contains(where: { $0.state == .deferred }) { return "no payment is waiting for a parent" }
        case .refundLoop(let command):
            return refusing(command)
        case .subscription(let command):
            return refusing(command)
        case .spend(let user, let coins):
            if !app.isRunning { return "the app is not running" }
            let balance = server.balance(of: user)
            if balance < coins { return "\(user) has \(balance) coins, not \(coins)" }
        case .network, .askToBuy, .serverOutage, .serverAPIFault, .heal, .setPolicy, .setPreset, .wait, .settle:
            break
        }
        return nil
    }

    mutating func perform(_ command: Command) {
        switch command {
        case .buy(let product): app.buy(product, store: &store, &outbox)
        case .openStore: app.openStore(store: &store, &outbox)
        case .closeStore: app.closeStore(&outbox)
        case .crash: app.crash(&outbox)
        case .background: app.background(&outbox)
        case .foreground: app.foreground(store: &store, &outbox)
        case .launch:
            let first = counters.firstLaunchDone ? nil : config.users.first
            counters.firstLaunchDone = true
            app.launch(firstUser: first, store: &store, &outbox)
        case .uninstall: app.uninstall(&outbox)
        case .login(let user): app.login(user, store: &store, &outbox)
        case .logout: app.logout(&outbox)
        case .network(let on):
            guard network.deviceOnline != on else { return }
            network.deviceOnline = on
            outbox.log(.network, on ? .networkCameBack : .networkWentOff)
            if on { app.networkReturned(store: &store, &outbox) }
        case .networkFault(let fault): perform(fault)
        case .storeFault(let fault): perform(fault)
        case .askToBuy(let on):
            store.askToBuy = on
            outbox.narrate(.fault, .faultArmed(on ? "Ask to Buy is on" : "Ask to Buy is off"))
        case .approve: _ = store.answerAskToBuy(approve: true, &outbox)
        case .decline: _ = store.answerAskToBuy(approve: false, &outbox)
        case .replay:
            if let user = app.loggedIn { attacker.replay(as: user, server: server, &outbox) }
        case .forge(let product, let environment):
            if let user = app.loggedIn {
                attacker.forge(
                    product, as: user, environment: environment ?? store.environment.payloadName, &outbox)
            }
        case .serverOutage(let on): serverOutage(on)
        case .serverAPIFault(let fault): perform(fault)
        case .refundLoop(let command): perform(command)
        case .spend(let user, let coins):
            if isExternal { return spendExternally(user, coins) }
            server.spend(user, coins, &outbox)
        case .subscription(let command): perform(command)
        case .setPolicy(let setting):
            var p = policy
            setting.apply(to: &p)
            let before = policy
            policy = isExternal ? p.served : p
            outbox.log(.user, .policyChanged(.key(setting)))
            policyChangedLive(from: before)
        case .setPreset(let preset):
            let before = policy
            policy = isExternal ? preset.policy.served : preset.policy
            outbox.log(.user, .policyChanged(.preset(preset)))
            policyChangedLive(from: before)
        case .heal:
            healFaults()
        case .wait, .settle:
            break
        }
    }
}

extension Command {
    /// What the user does inside the app, which cannot happen while it is in the background.
    var needsForeground: Bool {
        switch self {
        case .buy, .openStore, .closeStore, .login, .logout, .subscription(.buyOffer): return true
        case .crash, .launch, .background, .foreground, .uninstall, .network, .networkFault, .storeFault,
            .askToBuy, .approve, .decline, .replay, .forge, .serverOutage, .serverAPIFault, .refundLoop, .spend,
            .subscription, .heal, .setPolicy, .setPreset, .wait, .settle:
            return false
        }
    }
}

extension World {
    /// A policy changed while the world runs takes effect the way a running app gets it: an
    /// observer (a `Transaction.updates` listener) that the new policy has in place now is
    /// registered now, as an update that adds it would on its next start, without
    /// discarding the one the app has (a registered observer stays until the process ends or
    /// its store screen closes). A server that starts binding orders accepts the purchases
    /// made before without a token (`MerchantServer.bindsPurchasesFrom`). What only a launch does (`sweep-unfinished`'s first sweep,
    /// `resend-on launch`) waits for the next launch (the policy panel says so: `PolicyKey.liveEffect`).
    mutating func policyChangedLive(from before: Policy) {
        // What the reconciliation would find depends on the rules too (a clawback switched on
        // gives a refund it heard of work): its idle stamp no longer says (walkthrough 7, M3:
        // a refund left `open` with nothing scheduled after `server-clawback full` live).
        server.jobs.reconcileIdleAt = nil
        if policy.serverBindOrder && !before.serverBindOrder { server.bindsPurchasesFrom = now }
        // The new rules take what the running app holds: a periodic retry starts for it, when
        // the server then deduplicates. (Without it, a retry of a receipt the server has
        // meanwhile credited another way, by reconciliation, is credited twice: the lesson
        // of `server-dedup`, not of the change; the retry starts with the next pending one.)
        if before.retryIntervalMs == nil, policy.serverDedup { app.armPeriodic(&outbox) }
        guard app.isRunning, !app.observerRegistered, policy.observer != before.observer else { return }
        let wanted = policy.observer == .launch || (policy.observer == .storeScreen && app.storeOpen)
        if wanted { app.registerObserver(atLaunch: policy.observer == .launch, store: &store, &outbox) }
    }
}
