import IAPSimCore
import Testing

@testable import IAPSimStoreKit

/// The harness's `explore(swarm: true)` (issue 55): each run draws its own weight per family
/// of `exploreFaults` from a generator of its own; without swarm the schedules are as before.
@Suite struct ExploreSwarmTests {
    static let faults = SimulatedStore.faults + ["logout", "login bob"]

    /// The families of the steps drawn from `exploreFaults`.
    static func families(_ steps: [String]) -> [ExploreSwarm.Family] {
        steps.filter { Self.faults.contains($0) }.map(ExploreSwarm.family(of:))
    }

    @Test func everyFaultHasAFamilyAndEachFamilyHasAFault() {
        let families = Set(Self.faults.map(ExploreSwarm.family(of:)))
        #expect(families == Set(ExploreSwarm.Family.allCases))
        #expect(ExploreSwarm.family(of: "crash") == .crash)
        #expect(ExploreSwarm.family(of: "drop-next-response recharge") == .network)
        #expect(ExploreSwarm.family(of: "ask-to-buy on") == .payment)
        #expect(ExploreSwarm.family(of: "login bob") == .lifecycle)
    }

    @Test func aFamilyOffIsNeverDrawn() {
        let swarm = ExploreSwarm(weights: [.crash: 0, .network: 0, .payment: 8, .lifecycle: 8, .wait: 8])
        for run in 0..<200 {
            var rng = SplitMix64(seed: UInt64(run))
            let steps = SimulatedStore.schedule(&rng, maxSteps: 6, faults: Self.faults, swarm: swarm)
            #expect(!steps.contains("crash"), "\(steps)")
            #expect(!steps.contains { $0.hasPrefix("drop-next-") || $0.hasPrefix("network ") }, "\(steps)")
            #expect(steps.contains("buy"))
        }
    }

    @Test func swarmRunsDifferInTheirMixAndReplayTheirDraws() {
        let root = SplitMix64(seed: 1)
        let weights = (0..<300).map { ExploreSwarm(root.derive("swarm run \($0)")) }
        #expect(weights == (0..<300).map { ExploreSwarm(root.derive("swarm run \($0)")) })
        for family in ExploreSwarm.Family.allCases {
            // Each family is off in some runs and at its full weight in others.
            #expect(weights.contains { $0.weight(family) == 0 }, "\(family)")
            #expect(weights.contains { $0.weight(family) == ExploreSwarm.scale }, "\(family)")
        }
        // A run never has every family down: one at least keeps its full weight.
        #expect(
            weights.allSatisfy { w in ExploreSwarm.Family.allCases.contains { w.weight($0) == ExploreSwarm.scale } })
        #expect(Set(weights.map(\.lengthFactor)) == [1, 2])
        // The crash share of a run's faults: none in some runs, most in others.
        let shares = weights.enumerated().map { run, swarm -> Double in
            var rng = SplitMix64(seed: UInt64(run))
            let faults = Self.families(SimulatedStore.schedule(&rng, maxSteps: 12, faults: Self.faults, swarm: swarm))
            return faults.isEmpty ? 0 : Double(faults.filter { $0 == .crash }.count) / Double(faults.count)
        }
        #expect(shares.contains(0))
        #expect(shares.contains { $0 >= 0.5 }, "the largest crash share: \(shares.max() ?? 0)")
    }

    @Test func withoutSwarmTheScheduleIsTheOneOfBefore() {
        // The draws of before swarm: the same steps, and the generator left where it was.
        for seed in UInt64(0)..<100 {
            var a = SplitMix64(seed: seed)
            var b = SplitMix64(seed: seed)
            let drawn = SimulatedStore.schedule(&a, maxSteps: 6, faults: Self.faults)
            #expect(drawn == Self.scheduleOfBefore(&b, maxSteps: 6, faults: Self.faults))
            #expect(a == b, "swarm off draws as many numbers as before")
        }
    }

    /// `SimulatedStore.schedule` as it was before swarm (commit 74c9ece), kept to hold the
    /// draws without swarm to it.
    static func scheduleOfBefore(_ rng: inout SplitMix64, maxSteps: Int, faults: [String]) -> [String] {
        let count = 1 + rng.below(max(1, maxSteps))
        var steps: [String] = []
        var down = false
        func buy(_ rng: inout SplitMix64) {
            if down {
                steps.append("launch")
                down = false
            }
            steps.append("buy")
        }
        for _ in 0..<count {
            if rng.below(3) == 0 {
                buy(&rng)
            } else {
                let fault = faults[rng.below(faults.count)]
                if fault == "crash" {
                    if down { continue }
                    down = true
                }
                steps.append(fault)
                if fault == "ask-to-buy on" {
                    buy(&rng)
                    steps += ["wait \(1 + rng.below(20))s", "approve"]
                }
            }
            if rng.below(2) == 0 { steps.append("wait \(1 + rng.below(20))s") }
        }
        if !steps.contains("buy") {
            if down { steps.append("launch") }
            steps.append("buy")
        }
        return steps
    }
    /// Swarm's profiles (`ExploreSwarm.draw`): a share of the runs, `usual`, draws for its index
    /// exactly the schedule swarm off draws (nothing the fixed mix finds is out of reach); the
    /// focused ones keep two families of faults at their full weight, turn the others off, and
    /// are longer; the share of each is near the one `profileShares` gives it.
    @Test func aShareOfSwarmRunsKeepsTheScheduleOfSwarmOffAndTheRestFocus() {
        let root = SplitMix64(seed: 3)
        var counts: [ExploreSwarm.Profile: Int] = [:]
        let runs = 1_600
        for run in 0..<runs {
            let swarm = ExploreSwarm.draw(root, run: run)
            #expect(swarm == ExploreSwarm.draw(root, run: run))
            counts[swarm?.profile ?? .usual, default: 0] += 1
            var a = root.derive("run \(run)")
            var b = a
            let on = SimulatedStore.schedule(&a, maxSteps: 6, faults: Self.faults, swarm: swarm)
            let off = SimulatedStore.schedule(&b, maxSteps: 6, faults: Self.faults)
            guard let swarm else {
                #expect(on == off, "run \(run)")
                continue
            }
            if swarm.profile == .mixed {
                #expect(swarm == ExploreSwarm(root.derive("swarm run \(run)")))
                continue
            }
            let faultFamilies = ExploreSwarm.Family.allCases.filter { $0 != .wait }
            #expect(faultFamilies.filter { swarm.weight($0) == ExploreSwarm.scale }.count == 2, "\(swarm)")
            #expect(faultFamilies.filter { swarm.weight($0) == 0 }.count == faultFamilies.count - 2, "\(swarm)")
            #expect(swarm.lengthFactor >= 2)
            let kept = Set(faultFamilies.filter { swarm.weight($0) > 0 })
            #expect(Self.families(on).allSatisfy { $0 == .wait || kept.contains($0) }, "\(on)")
        }
        let total = ExploreSwarm.profileShares.reduce(0) { $0 + $1.1 }
        for (profile, share) in ExploreSwarm.profileShares {
            let expected = Double(runs * share) / Double(total)
            let count = Double(counts[profile] ?? 0)
            #expect(abs(count - expected) < expected / 3 + 10, "\(profile): \(count), \(expected)")
        }
    }
}
