import IAPSimCore

/// Random purchases and the odd fault, for demos and soak runs: one draw at a time from a
/// generator seeded by the world's seed, so an autopilot session replays exactly.
struct Autopilot: Sendable, Hashable {
    var rng: SplitMix64
    var nextAt: VirtualTime

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed).derive("autopilot")
        nextAt = 5_000
    }

    /// What to do now, given the world, and when to act next.
    mutating func act(_ sim: Simulation) -> Command? {
        nextAt = sim.now + 5_000 + VirtualTime(rng.below(25_000))
        if !sim.app.isRunning { return .launch }
        guard let user = sim.app.loggedIn else { return .login(user: sim.users[rng.below(sim.users.count)]) }
        _ = user
        let roll = rng.below(100)
        switch roll {
        case 0..<55:
            let catalog = sim.config.catalog
            let products = catalog.ids.isEmpty ? catalog.subscriptions.map(\.id) : catalog.ids
            return .buy(product: products[rng.below(products.count)])
        case 55..<62: return .crash
        case 62..<70: return .dropNextResponse(.recharge)
        case 70..<76: return .dropNextRequest(.recharge)
        case 76..<82: return .network(on: !sim.network.deviceOnline)
        case 82..<86: return .replay
        case 86..<90: return .failNextPaymentUnfinished
        case 90..<95: return .login(user: sim.users[rng.below(sim.users.count)])
        default: return .storeOutage(on: !sim.store.outage)
        }
    }
}
