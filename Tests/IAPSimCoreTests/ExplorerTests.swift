import Testing

@testable import IAPSimCore

@Suite struct ExplorerTests {
    /// StoreKit 1 schedules draw no refunds and sell no subscriptions (so no promotional
    /// offers either): naive finds every other type.
    @Test func naiveFindsEveryAnomalyTypeAndShrinksEachToAFewSteps() {
        findsAndShrinks(
            Explorer(policy: PolicyPreset.naive.policy, seed: 1),
            AnomalyType.simulatedWorld.filter {
                !$0.rawValue.hasPrefix("refund-") && !$0.isSubscription && $0 != .promoIneligible
            })
    }

    /// The StoreKit 2 naive server never hears of a refund: explore finds the coins kept; its
    /// schedules' subscription steps find three types of the entitlement timeline, and a
    /// subscription's access granted to an account that never subscribed (`wrong-account`).
    @Test func storeKit2NaiveFindsARefundUnclawedAndShrinksIt() {
        findsAndShrinks(
            Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 1),
            [.refundUnclawed, .refundOverclawed, .wrongAccount, .accessAfterRevoke, .renewalUnserved, .graceCut])
    }

    /// Issue 49: `access-after-end` is a subscriber's access past its period's end, found at
    /// seed 3 (run 809: billing retry after a plan change, the app dead); an account that
    /// never subscribed is `wrong-account`, not this.
    @Test func storeKit2NaiveFindsAGenuineAccessAfterEnd() {
        findsAndShrinks(Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 3), [.accessAfterEnd], runs: 1_000)
    }

    func findsAndShrinks(_ explorer: Explorer, _ types: [AnomalyType], runs: Int = 2_000) {
        var first: [AnomalyType: RunOutcome] = [:]
        for i in 0..<runs {
            let o = explorer.run(i)
            for t in o.failures where first[t] == nil { first[t] = o }
        }
        #expect(Set(types).isSubset(of: Set(first.keys)))
        for type in types {
            guard let o = first[type] else { continue }
            let original = explorer.schedule(o.index)
            let small = explorer.shrink(original, seed: o.seed, type: type)
            #expect(small.steps.count <= original.steps.count)
            #expect(small.steps.count <= 8, "\(type.rawValue) shrank to \(small.steps.count) steps")
            #expect(explorer.reproduces(small, seed: o.seed, type: type))
            print(
                type.rawValue, original.steps.count, "->",
                small.steps.map { "\($0.trigger) \($0.command.scenarioText)" })
        }
    }

    /// Issue 49 (truth hunt, row 4): naive seed 1, run 1 shrank to `interrupt-next-payment;
    /// buy; replay`, the replay saying "nothing to replay". The shrinker drops what changes
    /// nothing: no step of the result can go without changing its verdict, and the idle
    /// replay is gone (only the second it waited stays, for the interruption to fire).
    @Test func theShrinkerDropsStepsThatChangeNothing() {
        let explorer = Explorer(policy: PolicyPreset.naive.policy, seed: 1)
        let o = explorer.run(1)
        #expect(o.failures.contains(.duplicateReceipt))
        let small = explorer.shrink(explorer.schedule(1), seed: o.seed, type: .duplicateReceipt)
        #expect(explorer.reproduces(small, seed: o.seed, type: .duplicateReceipt))
        #expect(!small.steps.contains { $0.command == .replay }, "\(small.steps.map(\.command.scenarioText))")
        let verdict = explorer.verdict(small, seed: o.seed)
        for i in small.steps.indices {
            var without = small
            without.steps.remove(at: i)
            #expect(explorer.verdict(without, seed: o.seed) != verdict, "step \(i + 1) changes nothing")
        }
    }

    @Test func runsDependOnlyOnSeedAndIndex() {
        let a = Explorer(policy: PolicyPreset.retransmit.policy, seed: 9)
        let forward = (0..<50).map(a.run)
        let backward = (0..<50).reversed().map(a.run).reversed()
        #expect(forward == Array(backward))
        #expect(Explorer(policy: PolicyPreset.retransmit.policy, seed: 10).run(0) != forward[0])
    }
}

/// `serve --explore` draws the faults only a served world has (docs/serve.md, "Explore"):
/// the App Store Server API's three, the merchant server's outage and forgeries, each fault
/// that is turned on turned off again later in the same schedule.
@Suite struct ServedExploreTests {
    @Test func servedSchedulesDrawEveryServedFaultAndTurnEachOffAgain() {
        let explorer = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 1)
        var kinds: Set<String> = []
        for index in 0..<300 {
            let commands = explorer.servedSchedule(index).steps.map(\.command)
            for (i, command) in commands.enumerated() {
                switch command {
                case .serverAPIFault(.fail): kinds.insert("fail")
                case .serverAPIFault(.outage(true)):
                    kinds.insert("outage")
                    #expect(commands[i...].contains(.serverAPIFault(.outage(false))), "run \(index)")
                case .serverAPIFault(.slow(let ms)) where ms > 0:
                    kinds.insert("slow")
                    #expect(commands[i...].contains(.serverAPIFault(.slow(0))), "run \(index)")
                case .serverOutage(on: true):
                    kinds.insert("server-outage")
                    #expect(commands[i...].contains(.serverOutage(on: false)), "run \(index)")
                case .forge: kinds.insert("forge")
                default: continue
                }
            }
        }
        #expect(kinds == ["fail", "outage", "slow", "server-outage", "forge"])
    }
}
