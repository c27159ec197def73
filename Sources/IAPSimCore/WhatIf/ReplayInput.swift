/// One input of a run as the replays see it: a step's trigger and command, with where it
/// came from (its number among the run's steps and the line of the file it starts on; 0 for
/// an input no file holds, such as a UI action or a step of explore's schedule).
package struct ReplayStep: Sendable, Hashable {
    package var trigger: StepTrigger
    package var command: Command
    /// 1-based position among the run's inputs.
    package var number: Int
    /// The file's line where the step starts; 0 when there is no file.
    package var line: Int

    package init(_ trigger: StepTrigger, _ command: Command, number: Int, line: Int = 0) {
        self.trigger = trigger
        self.command = command
        self.number = number
        self.line = line
    }
}

/// Everything a run was made of, enough to play it again on a copy: the world's settings,
/// the preset its policy started from, the inputs in order, and whether the run healed the
/// world before settling (explore's runs do; scenario runs do not).
///
/// A replay shares nothing with the run it copies: it builds its own world, keeps no log
/// (`logLimit: 0`) and is thrown away once its verdict is read.
package struct ReplayInput: Sendable {
    package var config: WorldConfig
    package var preset: PolicyPreset
    package var steps: [ReplayStep]
    package var heals: Bool

    package init(config: WorldConfig, preset: PolicyPreset, steps: [ReplayStep], heals: Bool = false) {
        var config = config
        config.logLimit = 0
        self.config = config
        self.preset = preset
        self.steps = steps
        self.heals = heals
    }

    /// The policy of the run itself.
    package var policy: Policy { config.policy }

    /// Plays the inputs under `policy`, each step whose index is in `removed` replaced by
    /// nothing (its trigger is still reached, so the steps after it keep their times), and so
    /// each `policy` step that sets a key `policy` changes from the run's (the change holds
    /// throughout), then
    /// heals if the run did, settles and lets the auditor's grace periods end. A `when` whose
    /// event does not come stops the replay there, unsettled, as it stops `iapsim run`; in a run
    /// that heals (explore's) it lets its time pass and the step runs anyway, as explore does.
    /// The verdict's own what-if is not run:
    /// it only turns `open` into `permanent`, and both end badly.
    package func replay(policy: Policy, removing removed: Set<Int> = []) -> Simulation {
        var times: [VirtualTime] = []
        return replay(policy: policy, removing: removed, stepTimes: &times)
    }

    /// `replay(policy:removing:)`, writing in `stepTimes` when each step ran. A replay that
    /// processes `eventLimit` events stops there (`Simulation.eventLimitReached`): its
    /// verdict is not the inputs', and the caller must not read it as one.
    package func replay(
        policy: Policy, removing removed: Set<Int>, stepTimes: inout [VirtualTime], eventLimit: Int = .max
    ) -> Simulation {
        var config = self.config
        config.policy = policy
        var sim = Simulation(unlaunched: config)
        sim.reserveTypicalRoom()
        sim.eventLimit = eventLimit
        var runner = StepRunner()
        var none: [LogEntry]?
        if config.appRunning { runner.saw(sim.apply(.launch, into: &none)) }
        // A key the replay changed stays changed: a `policy` step of the file that sets it is
        // left out (its trigger still waits), or the change would last only until that step.
        let changed =
            policy == self.policy ? [] : PolicyKey.allCases.filter { policy.value(of: $0) != self.policy.value(of: $0) }
        for (i, step) in steps.enumerated() {
            let came = runner.reach(step.trigger, in: &sim, into: &none)
            if !came && !heals || sim.eventLimitReached { return sim }
            stepTimes.append(sim.now)
            var command = removed.contains(i) ? .wait(0) : step.command
            if case .setPolicy(let setting) = command, changed.contains(setting.key) { command = .wait(0) }
            runner.perform(command, in: &sim, into: &none)
        }
        if heals { _ = sim.heal() }
        _ = sim.settle()
        // The auditor's grace periods end on its own clock, after the world's last event.
        sim.letGracePeriodsEnd(into: &none)
        return sim
    }
}

extension Command {
    /// An input injected into the world rather than a purchase or the user's ordinary use:
    /// a fault (one that starts, not one that ends), an account switch, an attack or a
    /// refund. These are what "caused by" may name.
    var isInjected: Bool {
        switch self {
        case .login, .logout, .replay, .forge, .refundLoop: return true
        case .storeFault(.outage(on: false)), .serverOutage(on: false), .network(on: true): return false
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .network,
            .networkFault, .storeFault, .askToBuy, .approve, .decline, .serverOutage, .serverAPIFault, .spend,
            .subscription, .heal, .setPolicy, .setPreset, .wait, .settle:
            return isFault
        }
    }
}

extension PolicyPreset {
    /// The preset a run is set beside: naive and hardened each other's, and the same in
    /// StoreKit 2; the field approaches beside naive (what they fix is what naive lacks).
    package var other: PolicyPreset {
        switch self {
        case .naive: return .hardened
        case .hardened: return .naive
        case .sk2Naive: return .sk2Hardened
        case .sk2Hardened: return .sk2Naive
        case .localTable, .retransmit, .retryFile: return .naive
        }
    }

    /// The presets of a StoreKit world.
    package static func presets(in world: StoreKitWorld) -> [PolicyPreset] {
        allCases.filter { $0.policy.storekit == world }
    }
}
