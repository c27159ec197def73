/// `iapsim serve --explore`: explore's random schedules, each played against the user's
/// backend through `link` in a world of its own (the edge gives each run its own user names
/// and ids). Nothing is shrunk: a real backend is too slow, and cannot be copied.
extension Explorer {
    /// Run `index`'s schedule against the backend, with the heal phase; the world is
    /// returned with its whole log (the runner's transcript and `--log`).
    package func served(_ index: Int, link: ExternalLink) -> (world: Simulation, outcome: RunOutcome) {
        let s = runSeed(index)
        var schedule = schedule(seed: s, weights: servedSwarmWeights(seed: s), served: true)
        // `spend` needs the backend's `spend` call.
        if !link.canSpend {
            schedule.steps.removeAll {
                if case .spend = $0.command { return true }
                return false
            }
        }
        schedule.addServedFaultSteps(seed: s, catalog: catalog, swarm: servedSwarmWeights(seed: s))
        var sim = Simulation(
            WorldConfig(
                seed: s, users: schedule.users, policy: policy, catalog: catalog, logLimit: nil,
                gracePeriodMs: schedule.gracePeriodMs ?? catalogGracePeriodMs))
        sim.attachExternal(link)
        sim.run(schedule)
        return (sim, Explorer.outcome(of: sim, index: index, seed: s))
    }

    /// The schedule `served(index, link:)` plays (its steps, for a finding's reproduction).
    package func servedSchedule(_ index: Int) -> Schedule {
        let s = runSeed(index)
        var schedule = schedule(seed: s, weights: servedSwarmWeights(seed: s), served: true)
        schedule.addServedFaultSteps(seed: s, catalog: catalog, swarm: servedSwarmWeights(seed: s))
        return schedule
    }

    /// The swarm draws of a served run whose seed is `seed`: nil without swarm; with it, half
    /// the runs a served profile's (`Swarm.drawServed`), the others explore's own draws.
    package func servedSwarmWeights(seed: UInt64) -> Swarm? { swarm ? Swarm.drawServed(seed: seed) : nil }
}

extension Schedule {
    /// The faults only a served world has, drawn from a generator of their own (the rest of
    /// the schedule does not move): the App Store Server API failing N calls, slow, or out
    /// (and back), the merchant server out (and back: iapsim answers 503 for your backend),
    /// and a forged JWS reported to your backend. Every fault that is turned on is turned
    /// off again a few minutes later, so that the heal phase finds nothing armed.
    /// With `swarm`, as many as the run's `server` weight says: none at 0, up to
    /// `Swarm.serverMany` at the full weight.
    package mutating func addServedFaultSteps(seed: UInt64, catalog: Catalog, swarm: Swarm? = nil) {
        var rng = SplitMix64(seed: seed).derive("schedule-served")
        var count = rng.below(3)
        if let swarm {
            let w = swarm.weight(.server)
            count = w == 0 ? 0 : w >= Swarm.scale ? 1 + rng.below(Swarm.serverMany) : min(count, 1)
            if let range = swarm.servedFaults { count = range.lowerBound + rng.below(range.count) }
        }
        let kinds = swarm.map(\.servedFaultKinds).flatMap { $0.isEmpty ? nil : $0 }
        for _ in 0..<count {
            let at = rng.below(steps.count + 1)
            let pause = ScheduleStep(.after(0), .wait(Self.servedPauses[rng.below(Self.servedPauses.count)]))
            let pair: [Command]
            switch Self.roll(Self.servedFaultKinds, kinds: kinds, &rng) {
            case 0:
                pair = [.serverAPIFault(.fail(count: 1 + rng.below(5), code: ServerAPIFault.defaultCode))]
            case 1: pair = [.serverAPIFault(.outage(true)), .serverAPIFault(.outage(false))]
            case 2: pair = [.serverAPIFault(.slow(500)), .serverAPIFault(.slow(0))]
            case 3: pair = [.serverOutage(on: true), .serverOutage(on: false)]
            default:
                let products = catalog.products.map(\.id)
                guard !products.isEmpty else { continue }
                pair = [.forge(product: products[rng.below(products.count)])]
            }
            var inserted = [ScheduleStep(.after(0), pair[0])]
            if pair.count > 1 { inserted += [pause, ScheduleStep(.after(0), pair[1])] }
            steps.insert(contentsOf: inserted, at: at)
        }
        if swarm?.served == .accounts { addAskToBuySwitch(&rng, catalog: catalog) }
    }

    /// The `accounts` profile's story, at a random place: Ask to Buy on, a buy, the app dies
    /// (the order it made in memory with it) and comes back, an account switch, the parent's
    /// answer. The approved transaction reaches an app that holds no order for it while
    /// whoever logged in last is logged in.
    mutating func addAskToBuySwitch(_ rng: inout SplitMix64, catalog: Catalog) {
        let products = catalog.products.map(\.id)
        guard !products.isEmpty else { return }
        let delays = Self.delays
        let story: [ScheduleStep] = [
            ScheduleStep(.after(0), .askToBuy(on: true)),
            ScheduleStep(.after(delays[rng.below(delays.count)]), .buy(product: products[rng.below(products.count)])),
            ScheduleStep(.after(delays[rng.below(3)]), .crash),
            ScheduleStep(.after(delays[rng.below(delays.count)]), .launch),
            ScheduleStep(.after(delays[rng.below(delays.count)]), .login(user: users[rng.below(users.count)])),
            ScheduleStep(.after(delays[rng.below(delays.count)]), rng.below(4) == 0 ? .decline : .approve),
            ScheduleStep(.after(0), .askToBuy(on: false)),
        ]
        steps.insert(contentsOf: story, at: rng.below(steps.count + 1))
    }

    /// The kinds of served fault (`Swarm.servedFaultKinds`).
    static let servedFaultKinds = 5

    /// How long a served fault stays on: a minute, ten, an hour.
    static let servedPauses: [VirtualTime] = [60_000, 600_000, 3_600_000]
}
