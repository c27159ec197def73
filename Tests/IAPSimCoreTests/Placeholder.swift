import Testing
@testable import IAPSimCore

@Test func smokeExample() {
    var sim = Simulation(WorldConfig(seed: 7, users: ["alice", "bob"], policy: PolicyPreset.hardened.policy))
    sim.apply(.buy(product: "coins_100"))
    while true {
        let out = sim.step()
        if out.contains(where: { $0.fact.triggerName == "charged" }) { break }
    }
    sim.apply(.crash)
    sim.apply(.wait(60_000))
    sim.apply(.launch)
    sim.settle()
    for e in sim.log { print(e.line) }
    print(sim.server.balance(of: "alice"), sim.auditor.anomalies)
}
