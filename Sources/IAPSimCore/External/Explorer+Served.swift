/// `iapsim serve --explore`: explore's random schedules, each played against the user's
/// backend through `link` in a world of its own (the edge gives each run its own user names
/// and ids). Nothing is shrunk: a real backend is too slow, and cannot be copied.
extension Explorer {
    /// Run `index`'s schedule against the backend, with the heal phase; the world is
    /// returned with its whole log (the runner's transcript and `--log`).
    package func served(_ index: Int, link: ExternalLink) -> (world: Simulation, outcome: RunOutcome) {
        let s = runSeed(index)
        var schedule = schedule(seed: s, served: true)
        // `spend` needs the backend's `spend` call.
        if !link.canSpend {
            schedule.steps.removeAll {
                if case .spend = $0.command { return true }
                return false
            }
        }
        schedule.addServedFaultSteps(seed: s, catalog: catalog, swarm: swarmWeights(seed: s))
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
        var schedule = schedule(seed: runSeed(index), served: true)
        schedule.addServedFaultSteps(seed: runSeed(index), catalog: catalog, swarm: swarmWeights(seed: runSeed(index)))
        return schedule
    }
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
        }
        for _ in 0..<count {
            let at = rng.below(steps.count + 1)
            let pause = ScheduleStep(.after(0), .wait(Self.servedPauses[rng.below(Self.servedPauses.count)]))
            let pair: [Command]
            switch rng.below(5) {
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
    }

    /// How long a served fault stays on: a minute, ten, an hour.
    static let servedPauses: [VirtualTime] = [60_000, 600_000, 3_600_000]
}
