/// One step of a generated fault schedule: a trigger and a command, as a scenario writes it.
public struct ScheduleStep: Sendable, Hashable {
    public enum Trigger: Sendable, Hashable {
        case after(VirtualTime)
        case when(String)
    }
    public var trigger: Trigger
    public var command: Command

    public init(_ trigger: Trigger, _ command: Command) {
        self.trigger = trigger
        self.command = command
    }
}

/// A random schedule of purchases and faults, drawn from a seed: the material of seed
/// sweeps and of `iapsim explore`.
public struct Schedule: Sendable, Hashable {
    public var users: [String]
    public var steps: [ScheduleStep]

    public init(users: [String], steps: [ScheduleStep]) {
        self.users = users
        self.steps = steps
    }

    /// Draws `count` steps. Same seed, same schedule.
    public static func random(seed: UInt64, count: Int, catalog: Catalog = .standard) -> Schedule {
        var rng = SplitMix64(seed: seed).derive("schedule")
        let users = ["alice", "bob", "carol"]
        var steps: [ScheduleStep] = []
        for _ in 0..<count {
            let trigger: ScheduleStep.Trigger
            if rng.below(3) == 0 {
                trigger = .when(Fact.triggerNames[rng.below(Fact.triggerNames.count)])
            } else {
                trigger = .after([0, 250, 1_000, 3_000, 10_000, 60_000, 300_000][rng.below(7)])
            }
            steps.append(ScheduleStep(trigger, randomCommand(&rng, users: users, catalog: catalog)))
        }
        return Schedule(users: users, steps: steps)
    }

    static func randomCommand(_ rng: inout SplitMix64, users: [String], catalog: Catalog) -> Command {
        let route = Route.allCases[rng.below(Route.allCases.count)]
        switch rng.below(20) {
        case 0, 1, 2, 3, 4: return .buy(product: catalog.ids[rng.below(catalog.ids.count)])
        case 5, 6: return .crash
        case 7: return .launch
        case 8: return rng.below(2) == 0 ? .dropNextRequest(route) : .dropNextResponse(route)
        case 9: return .network(on: rng.below(2) == 0)
        case 10: return .storeOutage(on: rng.below(2) == 0)
        case 11: return rng.below(2) == 0 ? .failNextPayment(.cancelled) : .failNextPaymentUnfinished
        case 12: return rng.below(2) == 0 ? .askToBuy(on: rng.below(2) == 0) : (rng.below(2) == 0 ? .approve : .decline)
        case 13: return .logout
        case 14: return .login(user: users[rng.below(users.count)])
        case 15: return rng.below(4) == 0 ? .uninstall : .launch
        case 16: return .replay
        case 17: return .interruptNextPayment
        case 18: return .latency(route, [80, 500, 2_000][rng.below(3)])
        default: return rng.below(2) == 0 ? .openStore : .closeStore
        }
    }
}

extension Simulation {
    /// Runs a schedule: each step's trigger, then its command. A `when` that does not come
    /// within 10 minutes is skipped. Then the heal phase (if asked) and settle.
    public mutating func run(_ schedule: Schedule, heal healAfter: Bool = true) {
        for step in schedule.steps {
            switch step.trigger {
            case .after(let ms): run(until: now + ms)
            case .when(let name): _ = advance(untilTrigger: name, within: 600_000)
            }
            apply(step.command)
        }
        if healAfter { heal() }
        settle()
    }
}
