import Testing

@testable import IAPSimCore

@Suite struct ExplorerTests {
    @Test func naiveFindsEveryAnomalyTypeAndShrinksEachToAFewSteps() {
        let explorer = Explorer(policy: PolicyPreset.naive.policy, seed: 1)
        var first: [AnomalyType: RunOutcome] = [:]
        for i in 0..<2_000 {
            let o = explorer.run(i)
            for t in o.failures where first[t] == nil { first[t] = o }
        }
        #expect(Set(first.keys) == Set(AnomalyType.allCases))
        for type in AnomalyType.allCases {
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

    @Test func runsDependOnlyOnSeedAndIndex() {
        let a = Explorer(policy: PolicyPreset.retransmit.policy, seed: 9)
        let forward = (0..<50).map(a.run)
        let backward = (0..<50).reversed().map(a.run).reversed()
        #expect(forward == Array(backward))
        #expect(Explorer(policy: PolicyPreset.retransmit.policy, seed: 10).run(0) != forward[0])
    }
}
