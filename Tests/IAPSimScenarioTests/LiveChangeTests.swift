import IAPSimCore
import IAPSimScenario
import Testing

/// A live policy change (the policy panel, `p`) is the trainer's "now watch it with the
/// fix": it must never make an anomaly that ends badly which neither the file's own policy
/// from the start nor the new one from the start makes. Each shipped file is replayed with
/// the change made before each of its steps (and after the last).
@Suite struct LiveChangeTests {
    /// Every anomaly `sim` opened, by identity, however it ended.
    static func opened(_ sim: Simulation) -> [AnomalyIdentity] {
        ReplayVerdict(sim).anomalies.map(\.identity)
    }

    /// The inputs of `input` with `change` inserted before step `moment` (0-based; the
    /// count: after the last).
    static func inserting(_ change: Command, at moment: Int, into input: ReplayInput) -> ReplayInput {
        var changed = input
        changed.steps.insert(ReplayStep(.after(0), change, number: 0), at: moment)
        return changed
    }

    /// The changes a trainer makes in the panel to show the fix: the hardened preset of the
    /// file's world, and each key alone set to its hardened value. (A change towards a weaker
    /// value can open what neither preset opens from the start, as it would in a real app:
    /// `sk2-naive`'s server credits every notification it can bind, so a purchase made with
    /// a token under `sk2-hardened` is credited twice once the server stops deduplicating.)
    static func changes(from policy: Policy) -> [(Command, Policy)] {
        let hardened: PolicyPreset = policy.storekit == .two ? .sk2Hardened : .hardened
        var out: [(Command, Policy)] = []
        if hardened.policy != policy { out.append((.setPreset(hardened), hardened.policy)) }
        for key in WhatIf.keys(in: policy) where key != .storekit {
            let value = hardened.policy.value(of: key)
            var changed = policy
            guard (try? changed.set(key, to: value)) != nil, changed != policy else { continue }
            out.append((.setPolicy(key, value), changed))
        }
        return out
    }

    /// The violations of one file: "MOMENT CHANGE: TYPE" for each anomaly that ends badly
    /// after the live change and opens under neither policy from the start.
    static func violations(_ path: String) throws -> [String] {
        let scenario = try ScenarioParser.load(path: path)
        let input = scenario.replayInput
        let before = opened(input.replay(policy: input.policy))
        var out: [String] = []
        for (command, target) in changes(from: input.policy) {
            let fromStart = opened(input.replay(policy: target))
            let moments = Array(Set([0, input.steps.count / 3, input.steps.count / 2, input.steps.count])).sorted()
            for moment in moments {
                let live = inserting(command, at: moment, into: input).replay(policy: input.policy)
                let fresh = ReplayVerdict(live).newBadOnes(comparedWith: before + fromStart)
                for identity in fresh {
                    out.append("before step \(moment + 1) \(command.scenarioText): \(identity.type.rawValue)")
                }
            }
        }
        return out
    }

    @Test(arguments: Library.paths)
    func aLiveChangeToTheFixMakesNoAnomalyThatNeitherPolicyMakesFromTheStart(_ path: String) throws {
        let found = try Self.violations(path)
        #expect(found.isEmpty, "\(path): \(found.prefix(6).joined(separator: "; "))")
    }

    /// Walkthrough 5, M6: a naive app holds a missed order's receipt in memory only (its
    /// request was lost, the transaction finished). A live change to the hardened preset
    /// takes it: the periodic retry starts and credits it (resolved). A change of
    /// `retry-interval` alone, with a server that does not deduplicate, starts no retry for
    /// it (a receipt reconciliation may have credited would be credited twice), and the
    /// auditor does not call it open: nothing will send it.
    @Test(arguments: [("policy preset hardened", AnomalyStatus.resolved), ("policy retry-interval 5m", .permanent)])
    func aLiveChangeTakesWhatTheRunningAppHoldsInMemory(change: String, status: AnomalyStatus) throws {
        let text = """
            format: 1
            title: m6
            policy: naive
            users: [alice]
            steps:
              - do: drop-next-request recharge
              - do: buy coins_100
              - when: finished
                do: wait 1m
              - do: \(change)
              - do: wait 1h

            """
        let input = try ScenarioParser.parse(text: text, file: "m6.yaml").replayInput
        let sim = input.replay(policy: input.policy)
        let found = ReplayVerdict(sim).anomalies
        #expect(found.map(\.identity.type) == [.missedOrder])
        #expect(found.first?.status == status)
        #expect(sim.server.balances.first { $0.user == "alice" }?.coins == (status == .resolved ? 100 : 0))
    }
}
