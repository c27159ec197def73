import Testing

@testable import IAPSimCore

/// The invariants of the world: quiet on every world the engine makes, and each one loud
/// on the corruption it guards against.
@Suite struct InvariantTests {
    /// Alice bought 100 coins under `hardened`: charged, credited, finished, settled.
    static func settledPurchase() -> Simulation {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.settle()
        return h.sim
    }

    @Test func worldsTheEngineMakesBreakNoInvariantUnderAnyPreset() {
        for preset in PolicyPreset.allCases {
            for seed in UInt64(1)...40 {
                var sim = Simulation(WorldConfig(seed: seed, users: ["alice", "bob"], policy: preset.policy))
                var watch = InvariantWatch()
                var found: [InvariantViolation] = []
                _ = sim.runSteps(Schedule.random(seed: seed, count: 24))
                found += sim.invariantViolations(&watch)
                sim.heal()
                found += sim.invariantViolations(&watch)
                sim.settle()
                found += sim.invariantViolations(&watch)
                #expect(found.isEmpty, "\(preset.rawValue) seed \(seed): \(found)")
            }
        }
    }

    @Test func aSettledPurchaseIsWhatTheCorruptionsStartFrom() {
        let sim = Self.settledPurchase()
        #expect(sim.invariantViolations.isEmpty)
        #expect(sim.store.transactions.count == 1 && sim.store.transactions[0].finished)
        #expect(sim.server.credits.count == 1 && sim.server.orders.first?.state == .credited)
        #expect(sim.isIdle)
    }

    /// For each rule, a corruption of a settled purchase that breaks it.
    static var corruptions: [(rule: InvariantViolation.Rule, corrupt: (inout Simulation) -> Void)] {
        [
            (.balancesEqualCredits, { $0.server.balances[0].coins += 1 }),
            (
                .clawbacksWithinCredits,
                { sim in
                    sim.server.debits.append(
                        Debit(user: "alice", coins: 200, clawedBackFor: sim.server.credits[0].transactionId, at: 0))
                    sim.server.balances[0].coins -= 200
                }
            ),
            (
                .debtOnlyFromClawbacks,
                { sim in
                    sim.server.debits.append(Debit(user: "alice", coins: 150, clawedBackFor: nil, at: 0))
                    sim.server.balances[0].coins -= 150
                }
            ),
            (.finishedStaysFinished, { $0.store.transactions[0].finished = false }),
            (.finishedIsSettled, { $0.store.transactions[0].state = .deferred }),
            (.chargedIsPurchased, { $0.store.transactions[0].chargedAt = nil }),
            (.transactionIdsUnique, { $0.store.transactions.append($0.store.transactions[0]) }),
            (.requestsHaveTimeouts, { $0.app.inFlight[99] = .order(product: "coins_100", user: "alice") }),
            (.creditedOnceUnderDedup, { $0.server.credits.append($0.server.credits[0]) }),
            (.creditsWerePaid, { $0.server.credits[0].transactionId = "999" }),
            (.ordersMatchCredits, { $0.server.orders[0].transactionId = nil }),
            (
                .nothingQueuedInThePast,
                { sim in
                    sim.world.schedule(10, .serverReconcile)
                    sim.now += 20
                }
            ),
            (.auditorSawEveryCharge, { $0.auditor = Auditor() }),
        ]
    }

    @Test func everyRuleIsBrokenByTheCorruptionItGuardsAgainst() {
        #expect(Self.corruptions.map(\.rule) == InvariantViolation.Rule.allCases, "one corruption per rule, in order")
        let base = Self.settledPurchase()
        var seen = InvariantWatch()
        #expect(base.invariantViolations(&seen).isEmpty)
        for (rule, corrupt) in Self.corruptions {
            var sim = base
            corrupt(&sim)
            var watch = seen
            let found = sim.invariantViolations(&watch)
            #expect(found.contains { $0.rule == rule }, "\(rule): \(found)")
            #expect(found.allSatisfy { $0.at == sim.now })
        }
    }

    @Test func aViolationSaysWhenWhichRuleAndWhat() {
        var sim = Self.settledPurchase()
        sim.server.balances[0].coins = 7
        let found = sim.invariantViolations
        #expect(
            found.map(\.description) == [
                "t=\(sim.now)ms every balance equals the sum of its account's credits: alice has 7 coins, credits sum to 100"
            ])
    }

    @Test func aTransactionUnfinishedAgainIsSeenOnlyByAWatchThatSawItFinished() {
        var sim = Self.settledPurchase()
        sim.store.transactions[0].finished = false
        #expect(!sim.invariantViolations.contains { $0.rule == .finishedStaysFinished })
    }

    @Test func creditsMadeBeforeServerDedupWasTurnedOnAreNoBreach() {
        var sim = Self.settledPurchase()
        var watch = InvariantWatch()
        sim.policy.serverDedup = false
        sim.server.credits.append(sim.server.credits[0])
        sim.server.balances[0].coins += 100
        #expect(sim.invariantViolations(&watch).isEmpty, "a double credit is allowed without server-dedup")
        sim.policy.serverDedup = true
        #expect(sim.invariantViolations(&watch).isEmpty, "checked under the policy of its time")
    }
}
