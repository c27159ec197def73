import Testing

@testable import IAPSimCore

/// The auditor skips its look at a waiting charge while nothing that look reads has changed
/// (`ChargeLedger.Looks`). After every event of worlds where charges wait a long time, a full
/// look (every remembered look forgotten) finds exactly what the world holds: no anomaly
/// opens or changes, nothing is written.
@Suite struct AuditorLookTests {
    static func fullLookChangesNothing(_ sim: Simulation) -> Bool {
        var probe = sim
        probe.auditor.ledger.looks = ChargeLedger.Looks()
        var written: [LogEntry] = []
        probe.auditor.evaluate(
            now: probe.now, store: probe.store, app: probe.app, server: probe.server, policy: probe.policy,
            &written)
        return written.isEmpty && probe.auditor.anomalies == sim.auditor.anomalies
    }

    /// Steps `h` until `end`, checking after every event and every end of a grace period on
    /// the auditor's clock; returns how many of them it saw with a remembered look in force.
    static func stepChecking(_ h: inout Harness, until end: VirtualTime) -> Int {
        var remembered = 0
        while let next = [h.sim.nextEventTime, h.sim.auditor.nextGraceEnd].compactMap({ $0 }).min(), next <= end {
            if h.sim.nextEventTime == next { h.sim.step() } else { h.sim.run(until: next) }
            #expect(fullLookChangesNothing(h.sim), "at \(h.sim.now)")
            if h.sim.auditor.ledger.active.contains(where: { h.sim.auditor.ledger.looks[$0] != nil }) {
                remembered += 1
            }
        }
        return remembered
    }

    @Test func anOutageWithPurchasesWaitingLooksAsAFullLookWould() {
        var h = Harness(.hardened, users: ["alice"])
        h.run(.storeOutage(on: true))
        // An unfinished consumable blocks buying it again, during an outage too: each
        // product is bought once, so that three charges wait.
        for product in ["coins_550", "coins_100", "no_ads"] { h.run(.buy(product: product), .wait(20_000)) }
        // Grace periods end, a recharge is lost, the network goes and comes back, the store heals.
        h.run(.dropNextRequest(.recharge))
        #expect(Self.stepChecking(&h, until: h.sim.now + 3_600_000) > 50)
        h.run(.network(on: false), .wait(60_000), .network(on: true), .storeOutage(on: false))
        _ = Self.stepChecking(&h, until: h.sim.now + 3_600_000)
        #expect(h.sim.auditor.anomalies.allSatisfy { $0.status == .resolved })
    }

    /// A lost order handled late stays lost for a grace period, then is missed: a change by
    /// time alone, which a remembered look must not hide.
    @Test func aLostOrderHandledLateTurnsMissedOnTime() {
        var h = Harness(weakened(.hardened, [(.observer, "store-screen")]), users: ["alice"])
        h.run(.storeOutage(on: true), .openStore, .buy(product: "coins_100"), .wait(1_000), .closeStore)
        _ = Self.stepChecking(&h, until: h.sim.now + 120_000)
        #expect(h.sim.auditor.anomalies.map(\.type) == [.lostOrder])
        h.run(.openStore)
        #expect(Self.stepChecking(&h, until: h.sim.now + 600_000) > 10)
        #expect(h.sim.auditor.anomalies.map(\.type) == [.missedOrder])
    }

    @Test func naiveLostAndMissedOrdersLookAsAFullLookWould() {
        var h = Harness(.naive, users: ["alice", "bob"])
        h.run(.buy(product: "coins_100"), .crash, .launch, .buy(product: "coins_550"))
        h.run(.dropNextResponse(.recharge), .buy(product: "coins_100"), .logout, .login(user: "bob"))
        _ = Self.stepChecking(&h, until: h.sim.now + 3_600_000)
        #expect(!h.sim.auditor.anomalies.isEmpty)
    }
}
