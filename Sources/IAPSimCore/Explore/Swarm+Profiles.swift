/// What a swarm run concentrates on (`--swarm on`), drawn from its run seed: a mix of
/// configurations, as swarm testing mixes them. A share of the runs keeps the fixed mix of
/// `--swarm off` (`usual`: the very schedule swarm off draws for that run seed, so nothing the
/// fixed mix finds is out of reach), a share draws the random weights every swarm run drew
/// before profiles (`mixed`), and the rest focus: all crashes and buys, all network, long
/// outages of the store and the server, a subscription with billing failures in its grace
/// period, a subscription that changes plan and turns auto-renew off, refunds. A bug that
/// needs many faults of one kind, or none of another, comes up in the runs that focus on it.
extension Swarm {
    package enum Profile: String, Sendable, CaseIterable {
        case usual, mixed, crash, network, outage, billing, plans, refunds
    }

    /// Out of the sum: each profile's share of the runs. `plans` and `billing` have the most of
    /// the focused ones: the rarest bugs of the fixed mix (README's bug zoo: `access-after-end`,
    /// `grace-cut`) come up 18x and 68x as often in their runs.
    package static let profileShares: [(Profile, Int)] = [
        (.usual, 3), (.mixed, 2), (.crash, 3), (.network, 1), (.outage, 1), (.billing, 3), (.plans, 4),
        (.refunds, 1),
    ]

    /// The profile of the run whose seed is `seed`, from a generator of its own.
    package static func drawProfile(seed: UInt64) -> Profile {
        var rng = SplitMix64(seed: seed).derive("swarm-profile")
        let total = profileShares.reduce(0) { $0 + $1.1 }
        var roll = rng.below(total)
        for (profile, share) in profileShares {
            if roll < share { return profile }
            roll -= share
        }
        return .usual
    }

    /// The swarm draws of the run whose seed is `seed`: nil for a run of the `usual` profile
    /// (it draws exactly the schedule of swarm off), the mixed weights of `Swarm(seed:)` for a
    /// `mixed` one, else the weights of its profile (some of them drawn too).
    package static func draw(seed: UInt64) -> Swarm? {
        let profile = drawProfile(seed: seed)
        switch profile {
        case .usual: return nil
        case .mixed: return Swarm(seed: seed)
        case .crash, .network, .outage, .billing, .plans, .refunds:
            var rng = SplitMix64(seed: seed).derive("swarm")
            return Swarm(profile, &rng)
        }
    }

    /// The weights of a focused profile.
    init(_ profile: Profile, _ rng: inout SplitMix64) {
        let s = Self.scale
        let faultsLow = { (rng: inout SplitMix64) in [0, 1][rng.below(2)] }
        switch profile {
        case .crash:
            // Crashes, relaunches and buys; every other kind of step on one time in four.
            self.init(weights: [.crash: s, .network: 0, .store: 0, .server: 0, .other: s])
            let keep = Self.slots {
                if case .buy = $0 { true } else if case .crash = $0 { true } else { $0 == .launch }
            }
            kinds = (0..<CommandSpec.wheel.count).map { keep.contains($0) || rng.below(4) == 0 ? s : 0 }
        case .network:
            self.init(weights: [.crash: [0, 1, 4][rng.below(3)], .network: s, .store: 0, .server: 0, .other: s])
        case .outage:
            self.init(weights: [.crash: faultsLow(&rng), .network: 0, .store: s, .server: s, .other: s])
            outagesStayOn = true
        case .billing:
            // Buy, fail to bill, wait: the subscription's grace period and its retries, in a
            // quiet world (`quietKinds`: few other buys, the store screen opened and closed,
            // relaunches, no crash).
            self.init(weights: [.crash: faultsLow(&rng), .network: 0, .store: 0, .server: 0, .other: s])
            kinds = Self.quietKinds
            subscriptions = .many
            subscriptionSteps = 1...5
            subscriptionKinds = Self.subscriptionKinds(keeping: [0, 8, 9])
            // The longest grace period of explore's draws: a wait that ends inside it is likelier.
            graceChoices = [Schedule.graceChoices.compactMap { $0 }.max()]
            refunds = .off
        case .plans:
            // A subscription that changes plan after auto-renew went off (turned off, or by a
            // refund request), and lapses, in a quiet world whose store screen opens and closes
            // (the app hears a change only while it listens).
            self.init(weights: [.crash: faultsLow(&rng), .network: 0, .store: 0, .server: 0, .other: s])
            kinds = Self.quietKinds
            subscriptions = .many
            subscriptionSteps = 2...8
            subscriptionKinds = Self.subscriptionKinds(keeping: [2, 3, 8, 9])
            refunds = .many
            refundKinds = [0, 0, s, s, 0, 0, 0]
        case .refunds:
            self.init(mixed: &rng)
            refunds = .many
            refundKinds = []
        case .usual, .mixed:
            self.init(mixed: &rng)
        }
        self.profile = profile
    }

    /// The wheel of a quiet world: a buy rarely, the store screen opened and closed, the app
    /// relaunched; no other kind of step.
    static let quietKinds: [Int] = {
        let store = slots { $0 == .openStore || $0 == .closeStore }
        let launch = slots { $0 == .launch }
        return CommandSpec.wheel.indices.map { store.contains($0) || launch.contains($0) ? scale : 0 }
            .enumerated().map { $0.offset == buySlot ? 1 : $0.element }
    }()

    /// Out of `scale` per kind of subscription step: the kinds in `keeping` at the full weight.
    static func subscriptionKinds(keeping: Set<Int>) -> [Int] {
        (0..<Schedule.subscriptionKinds).map { keeping.contains($0) ? scale : 0 }
    }

    /// The wheel's slots whose draws are all `matching` (each slot drawn a few times).
    static func slots(_ matching: (Command) -> Bool) -> Set<Int> {
        let material = ExploreMaterial(route: .order, users: Schedule.users, catalog: .standard)
        return Set(
            CommandSpec.wheel.indices.filter { slot in
                var rng = SplitMix64(seed: 7)
                return (0..<16).allSatisfy { _ in matching(CommandSpec.wheel[slot].draw(&rng, material)) }
            })
    }
}
