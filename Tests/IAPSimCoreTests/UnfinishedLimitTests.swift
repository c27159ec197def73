import Testing

@testable import IAPSimCore

/// More than `AppStore.unfinishedLimit` transactions unfinished at once stop the world: a
/// flood of purchases waiting together is refused, not run for minutes.
@Suite struct UnfinishedLimitTests {
    static func store(unfinished: Int) -> AppStore {
        var store = AppStore(catalog: .standard, rng: SplitMix64(seed: 1))
        for _ in 0..<unfinished {
            _ = store.newTransaction(product: "coins_100", username: nil, now: 0, outcome: .charge)
        }
        return store
    }

    @Test func theLimitItselfIsAllowedAndOneMoreStopsTheWorld() {
        var store = Self.store(unfinished: AppStore.unfinishedLimit)
        #expect(!store.overLimit)
        _ = store.newTransaction(product: "coins_100", username: nil, now: 0, outcome: .charge)
        #expect(store.overLimit)
    }

    @Test func finishedTransactionsDoNotCount() {
        var store = Self.store(unfinished: AppStore.unfinishedLimit)
        let first = store.transactions[0].id
        store.update(first) { $0.finished = true }
        _ = store.newTransaction(product: "coins_100", username: nil, now: 0, outcome: .charge)
        #expect(!store.overLimit)
        _ = store.newTransaction(product: "coins_100", username: nil, now: 0, outcome: .charge)
        #expect(store.overLimit)
    }

    @Test func aWorldOverTheLimitHasNothingMoreToRun() {
        var sim = Simulation(
            WorldConfig(seed: 1, users: ["alice"], policy: PolicyPreset.hardened.policy, appRunning: true))
        _ = sim.apply(.buy(product: "coins_100"))
        #expect(sim.nextEventTime != nil)
        sim.store = Self.store(unfinished: AppStore.unfinishedLimit + 1)
        #expect(sim.nextEventTime == nil)
        let settled = sim.settle()
        #expect(settled)
    }
}
