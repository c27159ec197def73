import Testing

@testable import IAPSimCore

/// One fault model (docs/world.md, "Faults"): every part words what it has armed and ends it;
/// the status line and `heal` ask every part, so no fault of the table outlives a heal.
@Suite struct FaultModelTests {
    /// Faults that act at once instead of arming something (nothing is left to show or heal),
    /// with why.
    static let instant: [String: String] = [
        "crash": "the process dies at once; the heal phase launches it again",
        "auto-renew": "the customer's choice, not an armed fault: heal leaves it as the customer set it",
        "price-increase": "the developer's new price, in effect at once (PRICE_INCREASE): nothing is left armed",
        "family-share": "the purchaser's choice in Settings, in effect at once (REVOKE): nothing is left armed",
    ]

    /// A world in each StoreKit, the SK2 one with a subscription bought (so that its faults apply).
    static func worlds() -> [Simulation] {
        var one = Simulation(WorldConfig(seed: 3, users: ["alice", "bob"], policy: PolicyPreset.hardened.policy))
        one.apply(.buy(product: "coins_100"))
        one.settle()
        var two = Simulation(WorldConfig(seed: 3, users: ["alice", "bob"], policy: PolicyPreset.sk2Hardened.policy))
        two.apply(.buy(product: "pro_monthly"))
        two.settle()
        return [one, two]
    }

    @Test func afterHealNoPartReportsAnythingArmedForEveryFaultCommand() {
        let worlds = Self.worlds()
        let faults = CommandVocabularyTests.table.filter(\.fault).map(\.command)
        #expect(faults.count >= 15)
        for command in faults {
            var accepted = false
            for world in worlds where world.refusal(of: command) == nil {
                accepted = true
                var sim = world
                sim.apply(command)
                if Self.instant[command.spec.word] == nil {
                    #expect(!sim.armedFaults.isEmpty, "\(command.scenarioText): the status line shows nothing armed")
                }
                #expect(sim.hasArmedFaults == !sim.armedFaults.isEmpty, "\(command.scenarioText)")
                sim.heal()
                #expect(sim.armedFaults.isEmpty, "\(command.scenarioText): still armed after heal: \(sim.armedFaults)")
                #expect(!sim.hasArmedFaults, "\(command.scenarioText)")
                #expect(sim.app.isRunning && !sim.app.inBackground && sim.app.loggedIn != nil)
            }
            #expect(accepted, "\(command.scenarioText) is accepted in neither world")
        }
    }

    @Test func everyFaultArmedAtOnceIsEndedByOneHeal() {
        for var sim in Self.worlds() {
            for (command, fault) in CommandVocabularyTests.table where fault && sim.refusal(of: command) == nil {
                sim.apply(command)
            }
            #expect(sim.armedFaults.count >= 8, "\(sim.armedFaults)")
            let applied = sim.heal()
            #expect(applied.first == .heal)
            #expect(sim.armedFaults.isEmpty, "\(sim.armedFaults)")
            // The heal is written as a command, so that a scenario replays it.
            #expect(sim.log.contains { if case .commandIssued(.heal) = $0.fact { true } else { false } })
        }
    }

    @Test func aDroppedRequestDisarmedByHealIsNotLost() {
        var sim = Simulation(WorldConfig(seed: 3, users: ["alice"], policy: PolicyPreset.hardened.policy))
        sim.apply(.dropNextRequest(.recharge))
        sim.heal()
        sim.apply(.buy(product: "coins_100"))
        sim.settle()
        #expect(sim.network.totals(for: .recharge).dropped == 0)
        #expect(sim.server.balance(of: "alice") == 100)
    }

    /// One rule in the world and under serve (`ServerAPIFaultState`): `fail N` replaces what
    /// was armed, 0 ends it, a failure answers its code's HTTP status.
    @Test func theAPIFaultRuleIsOneRule() {
        var state = ServerAPIFaultState()
        state.apply(.fail(count: 2, code: 4_040_010))
        state.apply(.fail(count: 2, code: 4_040_010))
        #expect(state.take()! == (404, 4_040_010))
        #expect(state.take()! == (404, 4_040_010))
        #expect(state.take() == nil)
        state.apply(.fail(count: 3, code: 5_000_001))
        state.apply(.fail(count: 0, code: 5_000_001))
        #expect(state.take() == nil)
        state.apply(.outage(true))
        #expect(state.take()! == (503, 5_000_000))
        var sim = Simulation(WorldConfig(seed: 3, users: ["alice"], policy: PolicyPreset.sk2Hardened.policy))
        sim.apply(.serverAPIFault(.fail(count: 2, code: 4_290_000)))
        sim.apply(.serverAPIFault(.fail(count: 2, code: 4_290_000)))
        #expect(sim.store.apiFaults.failures == 2)
        #expect(sim.armedFaults == ["next 2 App Store Server API call(s) fail (4290000)"])
    }
}

/// Explore draws every fault command that makes sense in its world, from the table
/// `Schedule.faultDraws`: a fault command the table does not name fails here, and so does a
/// row no preset's schedules ever draw.
@Suite struct ExploreDrawsEveryFaultTests {
    @Test func everyFaultCommandIsInTheTable() {
        let words = Set(Schedule.faultDraws.map(\.word))
        for (command, fault) in CommandVocabularyTests.table where fault {
            #expect(words.contains(command.spec.word), "\(command.spec.word): a fault explore does not draw")
        }
        #expect(words.contains("forge"), "the attack explore draws in StoreKit 2")
    }

    @Test func everyRowOfTheTableIsDrawn() {
        var drawn: Set<String> = []
        for preset in PolicyPreset.allCases {
            let explorer = Explorer(policy: preset.policy, seed: 1)
            for i in 0..<400 {
                for step in explorer.schedule(i).steps { drawn.insert(step.command.spec.word) }
            }
        }
        for row in Schedule.faultDraws {
            #expect(drawn.contains(row.word), "\(row.word) (\(row.drawnBy)) is never drawn")
        }
    }
}

/// Refunds that meet an outage (found by explore once it drew `server-outage`): what the
/// server took back before counts, and a new share is taken back in full, once.
@Suite struct RefundAfterOutageTests {
    static func world() -> Harness {
        var h = Harness(.sk2Hardened, users: ["alice"])
        h.run(.buy(product: "coins_100"), .settle)
        return h
    }

    @Test func aRefundAgainAfterAnUnheardReversalTakesBackWhatTheNewShareStillOwes() {
        var h = Self.world()
        h.run(.refund(txn: nil, percent: 50), .wait(2 * 3_600_000))
        #expect(h.balance("alice") == 50)
        h.run(.serverOutage(on: true), .refundReverse(txn: nil), .refund(txn: nil), .wait(900 * 3_600_000))
        h.run(.heal)
        h.settle()
        #expect(h.balance("alice") == 0)
        #expect(h.summary == ["refund-unclawed:resolved"], "\(h.summary)")
    }

    @Test func aRefundAgainOfWhatWasTakenBackAlreadyIsNoAnomaly() {
        var h = Self.world()
        h.run(.refund(txn: nil), .wait(60_000))
        #expect(h.balance("alice") == 0)
        h.run(.serverOutage(on: true), .refundReverse(txn: nil), .refund(txn: nil), .wait(900 * 3_600_000))
        h.run(.heal)
        h.settle()
        #expect(h.balance("alice") == 0)
        #expect(!h.summary.contains { !$0.hasSuffix(":resolved") }, "\(h.summary)")
    }

    @Test func aProratedRefundOfAnUnlockBeforeItsCreditIsNoAnomaly() {
        var h = Harness(.sk2Hardened, users: ["alice"])
        h.run(.buy(product: "no_ads"))
        h.when("delivered")
        h.run(.refund(txn: nil, percent: 50))
        h.settle()
        #expect(h.summary.isEmpty, "\(h.summary)")
    }
}
