import Testing

@testable import IAPSimCore

/// The served profiles of swarm draws (issue 55 item 5, the reference backend's switches):
/// half the runs of `serve --explore --swarm on` concentrate on what a backend's faults need;
/// the other half, `iapsim explore` and `--swarm off` draw as before.
@Suite struct SwarmServedTests {
    static func commands(_ schedule: Schedule) -> [Command] { schedule.steps.map(\.command) }

    /// Without swarm a served run draws no weights; with it, a run that draws no served
    /// profile draws exactly explore's swarm weights and schedule; `iapsim explore` never
    /// draws a served profile.
    @Test func servedDrawsLeaveSwarmOffAndExploreAsTheyWere() {
        let off = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 4)
        let on = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 4, swarm: true)
        var plain = 0
        for index in 0..<400 {
            let seed = on.runSeed(index)
            #expect(off.servedSwarmWeights(seed: seed) == nil)
            #expect(on.swarmWeights(seed: seed)?.served == nil)
            if Swarm.drawServedProfile(seed: seed) == nil {
                plain += 1
                #expect(on.servedSwarmWeights(seed: seed) == on.swarmWeights(seed: seed), "run \(index)")
            } else {
                #expect(on.servedSwarmWeights(seed: seed)?.served == Swarm.drawServedProfile(seed: seed))
            }
        }
        // Half of them, give or take.
        #expect((150...250).contains(plain), "\(plain) of 400")
    }

    /// The served fault steps of swarm off are those drawn before served profiles existed: up
    /// to two, of every kind (`servedFaultKinds` empty draws one roll, as before).
    @Test func swarmOffServedFaultsAreTheOldDraws() {
        let explorer = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 1)
        for index in 0..<200 {
            let seed = explorer.runSeed(index)
            var expected = explorer.schedule(seed: seed, served: true)
            var rng = SplitMix64(seed: seed).derive("schedule-served")
            let count = rng.below(3)
            let faults = Self.commands(explorer.servedSchedule(index)).filter {
                switch $0 {
                case .forge, .serverOutage(on: true): true
                case .serverAPIFault(let f): f != .outage(false) && f != .slow(0)
                default: false
                }
            }
            #expect(faults.count <= count, "run \(index)")
            expected.addServedFaultSteps(seed: seed, catalog: explorer.catalog)
            #expect(expected == explorer.servedSchedule(index), "run \(index)")
        }
    }

    /// Same run seed, same served profile and weights; every served profile is drawn.
    @Test func aServedRunsDrawsComeFromItsSeed() {
        let explorer = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 9, swarm: true)
        var seen: Set<Swarm.ServedProfile> = []
        for index in 0..<300 {
            let seed = explorer.runSeed(index)
            #expect(Swarm.drawServed(seed: seed) == Swarm.drawServed(seed: seed))
            #expect(explorer.servedSchedule(index) == explorer.servedSchedule(index))
            if let profile = Swarm.drawServedProfile(seed: seed) { seen.insert(profile) }
        }
        #expect(seen == Set(Swarm.ServedProfile.allCases))
    }

    /// Each served profile's runs have what it concentrates on.
    @Test func eachServedProfileFocusesOnItsConditions() {
        let explorer = Explorer(policy: PolicyPreset.sk2Hardened.policy, seed: 3, swarm: true)
        var forges: [Int] = []
        for index in 0..<600 {
            let seed = explorer.runSeed(index)
            guard let profile = Swarm.drawServedProfile(seed: seed) else { continue }
            let commands = Self.commands(explorer.servedSchedule(index))
            switch profile {
            case .accounts:
                // Buys, crashes, account switches and Ask to Buy; no network, outage or refund.
                #expect(!commands.map(Swarm.family(of:)).contains(.network), "run \(index)")
                #expect(!commands.contains { if case .serverOutage = $0 { true } else { false } })
                #expect(!commands.contains { if case .refundLoop(.refund) = $0 { true } else { false } })
                // Its story: Ask to Buy, a buy, a crash, a relaunch, a login, the answer.
                #expect(commands.contains(.askToBuy(on: true)) && commands.contains(.crash), "run \(index)")
                #expect(commands.contains { if case .login = $0 { true } else { false } }, "run \(index)")
            case .forge:
                let count = commands.filter { if case .forge = $0 { true } else { false } }.count
                forges.append(count)
                #expect(count >= 2, "run \(index)")
            case .delivery:
                #expect(commands.contains(.serverOutage(on: true)), "run \(index)")
                #expect(commands.contains { if case .refundLoop(.refund) = $0 { true } else { false } }, "run \(index)")
            }
        }
        #expect(!forges.isEmpty)
    }
}

/// What the served profiles are for, measured in the simulated world, whose merchant server
/// can carry the fault of a backend switch as a policy key: `credit-to current-user` is the
/// reference backend's `credit-reporter` (it credits whoever reports a transaction) and
/// `server-verify false` its `no-verify`.
@Suite struct SwarmServedRateTests {
    /// The runs to the first run of served draws (the schedule `serve --explore` plays) that
    /// ends with `type` unresolved, under `policy`, within `runs` runs.
    static func first(_ type: AnomalyType, _ policy: Policy, seed: UInt64, swarm: Bool, runs: Int) -> Int? {
        let explorer = Explorer(policy: policy, seed: seed, swarm: swarm)
        for index in 0..<runs {
            let s = explorer.runSeed(index)
            let sim = explorer.simulate(explorer.servedSchedule(index), seed: s)
            if Explorer.outcome(of: sim, index: index, seed: s).failures.contains(type) { return index + 1 }
        }
        return nil
    }

    /// A server that credits the reporter: swarm's served draws (the `accounts` profile) find
    /// its `wrong-account` within 60 runs at each seed; the fixed mix needs hundreds or more.
    @Test func theAccountsProfileFindsAReporterCreditingServer() {
        var policy = PolicyPreset.sk2Hardened.policy
        policy.creditTo = .currentUser
        var off: [Int] = []
        for seed: UInt64 in 1...5 {
            let on = Self.first(.wrongAccount, policy, seed: seed, swarm: true, runs: 60)
            #expect(on != nil, "seed \(seed)")
            off.append(Self.first(.wrongAccount, policy, seed: seed, swarm: false, runs: 60) ?? 61)
        }
        #expect(off.filter { $0 <= 60 }.count <= 1, "\(off)")
    }

    /// A server that believes any JWS: the `forge` profile's runs send several forgeries each,
    /// so swarm's served draws find its `replay-fraud` within 30 runs at each seed.
    @Test func theForgeProfileFindsAServerThatDoesNotVerify() {
        var policy = PolicyPreset.sk2Hardened.policy
        policy.serverVerify = .no
        for seed: UInt64 in 1...5 {
            let on = Self.first(.replayFraud, policy, seed: seed, swarm: true, runs: 30)
            #expect(on != nil, "seed \(seed)")
        }
    }
}
