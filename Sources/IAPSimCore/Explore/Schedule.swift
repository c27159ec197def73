/// One step of a generated fault schedule: a trigger and a command, as a scenario writes it.
package struct ScheduleStep: Sendable, Hashable {
    package var trigger: StepTrigger
    package var command: Command

    package init(_ trigger: StepTrigger, _ command: Command) {
        self.trigger = trigger
        self.command = command
    }
}

/// A random schedule of purchases and faults, drawn from a seed: the material of seed
/// sweeps and of `iapsim explore`.
package struct Schedule: Sendable, Hashable {
    package var users: [String]
    package var steps: [ScheduleStep]
    /// The app's billing grace period (`grace-period`) of a schedule with subscription steps.
    package var gracePeriodMs: VirtualTime?

    package init(users: [String], steps: [ScheduleStep]) {
        self.users = users
        self.steps = steps
    }

    /// Draws `count` steps. Same seed, same schedule. Crashes favour the moments that
    /// matter (at a charge, a delivery, a request or a response) and are usually followed
    /// by a relaunch, as a user would reopen the app.
    /// With `swarm`, a command of a family the run weighs down is sometimes drawn again
    /// (`Swarm.keeps`); without it, the draws are exactly those from before swarm.
    package static func random(
        seed: UInt64, count: Int, catalog: Catalog = .standard, swarm: Swarm? = nil
    ) -> Schedule {
        var rng = SplitMix64(seed: seed).derive("schedule")
        let users = Self.users, crashPoints = Self.crashPoints, delays = Self.delays
        var steps: [ScheduleStep] = []
        steps.reserveCapacity(count + 5)  // and room for `addServerSideSteps`
        while steps.count < count {
            let (command, slot) = randomCommandAndSlot(&rng, users: users, catalog: catalog)
            if let swarm, !swarm.keeps(slot: slot, Swarm.family(of: command), &rng) { continue }
            if case .crash = command {
                let point = crashPoints[rng.below(crashPoints.count)]
                steps.append(
                    ScheduleStep(
                        rng.below(4) == 0
                            ? .after(delays[rng.below(delays.count)]) : .when(point, within: StepTrigger.defaultWithin),
                        .crash))
                if steps.count < count && rng.below(3) != 0 {
                    steps.append(ScheduleStep(.after(delays[rng.below(delays.count)]), .launch))
                }
                continue
            }
            let trigger: StepTrigger
            if rng.below(4) == 0 {
                let events = Self.events
                trigger = .when(events[rng.below(events.count)], within: StepTrigger.defaultWithin)
            } else {
                trigger = .after(delays[rng.below(delays.count)])
            }
            steps.append(ScheduleStep(trigger, command))
        }
        return Schedule(users: users, steps: steps)
    }

    // The material of the draws, built once (a run draws a schedule; building these
    // lists anew each time cost more than drawing from them).
    static let users = ["alice", "bob", "carol"]
    static let crashPoints: [TriggerEvent] = [
        .charged, .delivered, .requestRecharge, .responseRecharge, .credited, .purchasing, .finished,
    ]
    static let delays = [0, 250, 1_000, 3_000, 10_000, 60_000, 300_000]
    // Fixed lists: a route or an event added to the vocabulary must not move every seeded
    // schedule (explore's findings from before would no longer replay).
    static let routes: [Route] = [.order, .recharge, .verify]
    static let events: [TriggerEvent] = TriggerEvent.allCases.filter { !$0.serverSide }

    /// Spins explore's wheel (`CommandSpec.wheel`): a route first, then a slot, then
    /// the slot's own draw.
    static func randomCommand(_ rng: inout SplitMix64, users: [String], catalog: Catalog) -> Command {
        randomCommandAndSlot(&rng, users: users, catalog: catalog).command
    }

    /// `randomCommand`, and the wheel's slot that drew it (swarm weighs kinds by slot).
    static func randomCommandAndSlot(
        _ rng: inout SplitMix64, users: [String], catalog: Catalog
    ) -> (command: Command, slot: Int) {
        let material = ExploreMaterial(route: routes[rng.below(routes.count)], users: users, catalog: catalog)
        let slot = CommandSpec.wheelSlots[rng.below(CommandSpec.wheelSize)]
        return (CommandSpec.wheel[slot].draw(&rng, material), slot)
    }
}

extension Schedule {
    /// Inserts up to three steps of the refund loop or spendings, drawn from a generator of
    /// their own (the schedule's other draws do not move): a refund of the newest charge (all
    /// of it, or a share), a refund request, a declined request, a reversed refund, or a user
    /// spending coins. A server that hears no refund at all (`sk2-naive`) sometimes gets the
    /// refund handler a naive team adds first: notifications, and a full clawback.
    /// A schedule drawn by `random` has room for them.
    /// With `swarm`, a run has none of them, or up to six, of the kinds it keeps.
    mutating func addServerSideSteps(seed: UInt64, policy: Policy, swarm: Swarm? = nil) {
        var rng = SplitMix64(seed: seed).derive("schedule-server-side")
        let count: Int
        switch swarm?.refunds ?? .usual {
        case .usual: count = rng.below(4)
        case .off: count = 0
        case .many: count = 2 + rng.below(5)
        }
        for _ in 0..<count {
            let command = Self.refundLoopCommand(&rng, users, kinds: swarm?.refundKinds)
            let step = ScheduleStep(.after(Self.delays[rng.below(Self.delays.count)]), command)
            steps.insert(step, at: rng.below(steps.count + 1))
        }
        if !policy.serverNotifications, policy.serverClawback == .off, rng.below(3) == 0 {
            steps.insert(ScheduleStep(.after(0), .setPolicy(.serverClawback, "full")), at: 0)
            steps.insert(ScheduleStep(.after(0), .setPolicy(.serverNotifications, "true")), at: 0)
        }
    }

    /// A roll of `0..<count`, drawn again while its weight in `kinds` (swarm's) says so (at
    /// most 32 draws); without `kinds`, the first roll.
    static func roll(_ count: Int, kinds: [Int]?, _ rng: inout SplitMix64) -> Int {
        var roll = rng.below(count)
        guard let kinds else { return roll }
        for _ in 0..<32 {
            if roll >= kinds.count || Swarm.keeps(kinds[roll], &rng) { return roll }
            roll = rng.below(count)
        }
        return roll
    }

    static let refundKinds = 7
    static let subscriptionKinds = 10

    static func refundLoopCommand(_ rng: inout SplitMix64, _ users: [String], kinds: [Int]? = nil) -> Command {
        switch roll(refundKinds, kinds: kinds, &rng) {
        case 0: return .spend(user: users[rng.below(users.count)], coins: 50)
        case 1: return .refund(txn: nil, percent: [40, 50][rng.below(2)])
        case 2: return .refundRequest(txn: nil)
        case 3: return .refundDecline(txn: nil)
        case 4: return .refundReverse(txn: nil)
        default: return .refund(txn: nil)
        }
    }
}

extension Simulation {
    /// Runs a schedule: each step's trigger, then its command. A `when` that does not come
    /// within 10 minutes lets those 10 minutes pass and runs the command anyway (exactly
    /// what `after: 10m` does). Then the heal phase (if asked) and settle.
    /// Returns, per step, whether its `when` event came.
    @discardableResult
    package mutating func run(_ schedule: Schedule, heal healAfter: Bool = true) -> [Bool] {
        let fired = runSteps(schedule)
        if healAfter { heal() }
        settle()
        concludeVerdict()
        return fired
    }

    /// Runs the steps of a schedule only (no heal, no settle) with the step runner; a
    /// `when` that does not come lets its 10 minutes pass and the command runs anyway.
    /// Returns, per step, whether its `when` event came.
    package mutating func runSteps(_ schedule: Schedule) -> [Bool] {
        var fired: [Bool] = []
        fired.reserveCapacity(schedule.steps.count)
        var runner = StepRunner()
        var none: [LogEntry]?
        for i in schedule.steps.indices {
            fired.append(runner.reach(schedule.steps[i].trigger, in: &self, into: &none))
            runner.perform(schedule.steps[i].command, in: &self, into: &none)
        }
        return fired
    }
}

extension Schedule {
    /// The same schedule with every `when` that did not fire written as `after: 10m`,
    /// which runs identically and never stops a scenario run.
    package func resolvingTriggers(_ fired: [Bool]) -> Schedule {
        var copy = self
        for i in copy.steps.indices where i < fired.count && !fired[i] {
            copy.steps[i].trigger = .after(StepTrigger.defaultWithin)
        }
        return copy
    }
}
