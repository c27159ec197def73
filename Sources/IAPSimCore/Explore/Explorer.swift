/// The outcome of one explored run.
package struct RunOutcome: Sendable, Hashable {
    package var index: Int
    package var seed: UInt64
    /// Events the engine processed (scheduled actions; commands are not counted).
    package var events: Int
    /// Facts the run wrote to its event log (commands, messages, auditor findings, ...).
    package var facts: Int
    /// (type, status) of every anomaly, in the order they opened.
    package var anomalies: [AnomalyKey]
    /// Types that ended unresolved (open or permanent; a replay that was not blocked).
    package var failures: [AnomalyType]
}

/// An anomaly type and status, as explore counts them.
package struct AnomalyKey: Sendable, Hashable, Comparable {
    package var type: AnomalyType
    package var status: AnomalyStatus
    package static func < (a: Self, b: Self) -> Bool {
        (a.type, a.status) < (b.type, b.status)
    }
}

/// Random fault schedules in the spirit of VOPR and Jepsen: each run draws a schedule from
/// the explore seed and its index, runs it, heals, settles, and keeps the auditor's verdict.
/// Pure and deterministic; callers may spread runs over threads, results do not depend on it.
package struct Explorer: Sendable {
    package var policy: Policy
    package var seed: UInt64
    package var steps: Int
    /// The products the runs buy (`--storekit`): the built-in catalog unless told.
    package var catalog: Catalog
    /// Swarm draws (`--swarm on`): each run draws its own fault weights (`Swarm`).
    package var swarm: Bool

    package init(policy: Policy, seed: UInt64, steps: Int = 24, catalog: Catalog = .standard, swarm: Bool = false) {
        self.policy = policy
        self.seed = seed
        self.steps = steps
        self.catalog = catalog
        self.swarm = swarm
    }

    /// The swarm weights of the run whose seed is `seed`: nil without swarm, and for a swarm run
    /// of the `usual` profile (which draws the schedule of swarm off).
    package func swarmWeights(seed: UInt64) -> Swarm? { swarm ? Swarm.draw(seed: seed) : nil }

    /// The seed of run `index`: its schedule and its world both derive from it.
    package func runSeed(_ index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        return mixer.next()
    }

    package func schedule(_ index: Int) -> Schedule { schedule(seed: runSeed(index)) }

    /// The schedule of the run whose seed is `seed` (`runSeed(index)`); `served`: a run against
    /// a real backend, whose server-side faults `addServedFaultSteps` draws instead.
    func schedule(seed: UInt64, served: Bool = false) -> Schedule {
        schedule(seed: seed, weights: swarmWeights(seed: seed), served: served)
    }

    /// The schedule of the run whose seed is `seed` under the swarm draws `weights` (nil: the
    /// fixed mix).
    func schedule(seed: UInt64, weights: Swarm?, served: Bool = false) -> Schedule {
        var schedule = Schedule.random(seed: seed, count: steps, catalog: catalog, swarm: weights)
        // Refunds and spending only where the server side is in play.
        if policy.storekit == .two || policy.serverSide {
            schedule.addServerSideSteps(seed: seed, policy: policy, swarm: weights)
        }
        if policy.storekit == .two {
            schedule.addSubscriptionSteps(seed: seed, catalog: catalog, swarm: weights)
            schedule.addOfferSteps(seed: seed, catalog: catalog)
            schedule.addCodeAndWinBackSteps(seed: seed, catalog: catalog)
        }
        if !served { schedule.addServerFaultSteps(seed: seed, policy: policy, catalog: catalog, swarm: weights) }
        return schedule
    }

    /// Runs one schedule under the policy, with the heal phase, and returns the world.
    func simulate(_ schedule: Schedule, seed: UInt64, keepLog: Bool = false) -> Simulation {
        var sim = Simulation(config(schedule, seed: seed, keepLog: keepLog))
        sim.run(schedule)
        return sim
    }

    func config(_ schedule: Schedule, seed: UInt64, keepLog: Bool = false) -> WorldConfig {
        WorldConfig(
            seed: seed, users: schedule.users, policy: policy, catalog: catalog, logLimit: keepLog ? nil : 0,
            gracePeriodMs: schedule.gracePeriodMs ?? catalogGracePeriodMs)
    }

    /// The grace period a StoreKit file's `_billingGracePeriodEnabled` gives a run that draws none.
    package var catalogGracePeriodMs: VirtualTime? = nil

    package func run(_ index: Int) -> RunOutcome {
        var world: Simulation?
        return run(index, in: &world)
    }

    /// `run(index)` in `world`, the world of the caller's previous run (nil at first), which
    /// is restarted in place and keeps the room of its lists (`Simulation.restart`). The
    /// outcome is the same as `run(index)`'s.
    package func run(_ index: Int, in world: inout Simulation?) -> RunOutcome {
        let s = runSeed(index)
        let schedule = schedule(seed: s)
        let config = config(schedule, seed: s)
        // The world is moved out of the optional and back, never copied: a copy of a whole
        // world (its parts and lists) twice a run cost 4% of it.
        var sim: Simulation
        if let previous = world.take() {
            sim = consume previous
            sim.restart(config)
        } else {
            sim = Simulation(config)
        }
        sim.run(schedule)
        let outcome = Explorer.outcome(of: sim, index: index, seed: s)
        world = consume sim
        return outcome
    }

    package static func outcome(of sim: Simulation, index: Int, seed: UInt64) -> RunOutcome {
        let anomalies = sim.auditor.anomalies
        var failures: [AnomalyType] = []
        for a in anomalies where a.status.isUnresolved && !failures.contains(a.type) {
            failures.append(a.type)
        }
        return RunOutcome(
            index: index, seed: seed, events: sim.eventsProcessed, facts: sim.logCount,
            anomalies: anomalies.map { AnomalyKey(type: $0.type, status: $0.status) },
            failures: failures.sorted())
    }
}
