import Testing

@testable import IAPSimCore

/// The profiles of swarm draws (issue 55 item 5): a share of the swarm runs keeps the fixed mix
/// of swarm off, the others focus on a kind of fault; each run's profile comes from its seed.
@Suite struct SwarmProfileTests {
    static func profiles(_ explorer: Explorer, _ runs: Range<Int>) -> [Swarm.Profile] {
        runs.map { Swarm.drawProfile(seed: explorer.runSeed($0)) }
    }

    /// A run of the `usual` profile draws exactly the schedule swarm off draws for its index,
    /// so whatever the fixed mix finds in a run, swarm finds in that run too; every profile
    /// has its share of the runs, near the one `profileShares` gives it.
    @Test(arguments: [PolicyPreset.naive, .sk2Naive, .sk2Hardened])
    func theUsualRunsDrawTheSchedulesOfSwarmOff(preset: PolicyPreset) {
        let on = Explorer(policy: preset.policy, seed: 11, swarm: true)
        let off = Explorer(policy: preset.policy, seed: 11)
        let runs = 0..<1_600
        let profiles = Self.profiles(on, runs)
        for index in runs where profiles[index] == .usual {
            #expect(on.swarmWeights(seed: on.runSeed(index)) == nil)
            #expect(on.schedule(index) == off.schedule(index), "run \(index)")
        }
        let total = Swarm.profileShares.reduce(0) { $0 + $1.1 }
        for (profile, share) in Swarm.profileShares {
            let expected = Double(runs.count * share) / Double(total)
            let count = Double(profiles.filter { $0 == profile }.count)
            // Within a third of its share (a binomial count of 1,600 draws is well inside it).
            #expect(abs(count - expected) < expected / 3 + 10, "\(profile): \(count) of \(runs.count), \(expected)")
        }
        // The other runs are not the runs of swarm off.
        let moved = runs.filter { profiles[$0] != .usual && on.schedule($0) != off.schedule($0) }
        #expect(moved.count > runs.count / 2)
    }

    /// The same run seed draws the same profile and weights; `mixed` runs draw `Swarm(seed:)`.
    @Test func aRunsProfileAndWeightsComeFromItsSeed() {
        let explorer = Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 2, swarm: true)
        for index in 0..<300 {
            let seed = explorer.runSeed(index)
            #expect(Swarm.draw(seed: seed) == Swarm.draw(seed: seed))
            let profile = Swarm.drawProfile(seed: seed)
            if profile == .mixed { #expect(Swarm.draw(seed: seed) == Swarm(seed: seed)) }
            if profile != .usual { #expect(Swarm.draw(seed: seed)?.profile == profile) }
        }
    }

    static func commands(_ schedule: Schedule) -> [Command] { schedule.steps.map(\.command) }

    /// Each focused profile's runs have what it focuses on, and none of what it turns off.
    @Test func eachProfileFocusesOnItsFaults() {
        let explorer = Explorer(policy: PolicyPreset.sk2Naive.policy, seed: 5, swarm: true)
        var seen: Set<Swarm.Profile> = []
        for index in 0..<800 {
            let seed = explorer.runSeed(index)
            let profile = Swarm.drawProfile(seed: seed)
            seen.insert(profile)
            let schedule = explorer.schedule(index)
            let families = Self.commands(schedule).map(Swarm.family(of:))
            switch profile {
            case .crash:
                #expect(!families.contains(.network) && !families.contains(.store) && !families.contains(.server))
                #expect(families.contains(.crash), "run \(index): \(schedule.steps)")
            case .network:
                #expect(!families.contains(.store) && !families.contains(.server))
            case .outage:
                #expect(!families.contains(.network))
                // Every server fault turned on stays on until the heal phase.
                #expect(!Self.commands(schedule).contains(.serverOutage(on: false)))
                #expect(!Self.commands(schedule).contains(.serverAPIFault(.outage(false))))
            case .billing:
                // It subscribes, with a grace period, and its billing failures are never turned off.
                #expect(schedule.gracePeriodMs != nil, "run \(index)")
                #expect(!Self.commands(schedule).contains(.billingFail(on: false)))
                #expect(!Self.commands(schedule).contains { if case .refundLoop = $0 { true } else { false } })
            case .plans:
                // It subscribes, and its subscription never fails to bill.
                let subscriptions = Set(explorer.catalog.subscriptions.map(\.id))
                #expect(
                    Self.commands(schedule).contains {
                        if case .buy(let p) = $0 { subscriptions.contains(p) } else { false }
                    })
                #expect(!Self.commands(schedule).contains(.billingFail(on: true)))
            case .usual, .mixed, .refunds: break
            }
        }
        #expect(seen == Set(Swarm.Profile.allCases), "\(seen)")
    }
}
