/// Swarm draws (`--swarm on`): each run draws, from its run seed, a profile (`Swarm.draw`,
/// Swarm+Profiles.swift) and with it its own weight for each fault family and each kind of
/// step, as swarm testing does: one run is the run of the fixed mix, one nearly half crashes,
/// another only network faults, another a long server outage, another a subscription that
/// fails to bill through its grace period; a bug that needs a rare combination, or one that
/// some kind of step hides, waits less than under one fixed mix. Same run seed, same weights:
/// a run index replays the same run. Without swarm (`--swarm off`) no weight is drawn and every
/// schedule is the one drawn before swarm existed.
package struct Swarm: Sendable, Hashable {
    /// The families a weight belongs to. `other` is every step of the wheel that is not a
    /// fault (buying, opening the store, logging in, ...): never off, so a run always has
    /// something to do.
    package enum Family: String, Sendable, CaseIterable {
        case crash, network, store, server, other
    }

    /// Out of `Swarm.scale`: the share of the wheel's draws of a family that a run keeps (the
    /// rest are drawn again); for `server`, the chance that the run has server faults.
    package var weights: [Family: Int]
    /// Out of `Swarm.scale`, per slot of explore's wheel (`CommandSpec.wheel`): the share of
    /// that kind's draws the run keeps. Empty: every kind at its full weight. The buy slot is
    /// never weighed down.
    package var kinds: [Int] = []
    /// The run's subscription steps (StoreKit 2): `off`, as without swarm, or `many`.
    package var subscriptions: Amount = .usual
    /// Out of `Swarm.scale`, per kind of subscription step (`Schedule.subscriptionCommand`).
    package var subscriptionKinds: [Int] = []
    /// The run's refunds and spendings (`Schedule.addServerSideSteps`).
    package var refunds: Amount = .usual
    /// Out of `Swarm.scale`, per kind of refund-loop step (`Schedule.refundLoopCommand`).
    package var refundKinds: [Int] = []
    /// The profile the run drew (`Swarm.draw`); `mixed` for weights drawn by `Swarm(seed:)`.
    package var profile: Profile = .mixed
    /// A subscribing run's count of subscription steps, when its profile sets one.
    package var subscriptionSteps: ClosedRange<Int>?
    /// The billing grace periods a subscribing run draws from, when its profile sets them.
    package var graceChoices: [VirtualTime?]?
    /// Server faults turned on stay on until the heal phase (the `outage` profile).
    package var outagesStayOn = false
    /// The served profile the run drew (`Swarm.drawServed`, Swarm+Served.swift), if any.
    package var served: ServedProfile?
    /// A served run's count of served faults (`Schedule.addServedFaultSteps`), when its
    /// profile sets one.
    package var servedFaults: ClosedRange<Int>?
    /// Out of `Swarm.scale`, per kind of served fault (`Schedule.addServedFaultSteps`: the
    /// API failing, out, slow, the merchant server out, a forged JWS). Empty: every kind.
    package var servedFaultKinds: [Int] = []

    /// How many steps of a kind a run draws besides the wheel's.
    package enum Amount: Int, Sendable, Hashable, CaseIterable {
        case off, usual, many
    }

    package static let scale = 8
    /// A family's weight draws one of these: off, rare, half, all (as often as without swarm).
    static let levels = [0, 1, 4, 8]

    package init(weights: [Family: Int]) { self.weights = weights }

    /// The mixed draws of the run whose seed is `seed` (the `mixed` profile): each family off,
    /// rare, half or at its full weight, each kind off one time in three.
    package init(seed: UInt64) {
        var rng = SplitMix64(seed: seed).derive("swarm")
        self.init(mixed: &rng)
    }

    init(mixed rng: inout SplitMix64) {
        var weights: [Family: Int] = [:]
        for family in Family.allCases {
            // `other` is never below half: a run full of one fault still buys (a first try with
            // `other` down to rare found the bugs that need many purchases more slowly).
            let levels = family == .other ? Array(Self.levels.dropFirst(2)) : Self.levels
            weights[family] = levels[rng.below(levels.count)]
        }
        self.weights = weights
        kinds = Self.kindWeights(&rng, count: CommandSpec.wheel.count)
        if let buy = Self.buySlot { kinds[buy] = Self.scale }
        // Half the runs subscribe with many steps (the subscription's anomalies need a billing
        // failure that lasts, or a lapse, among months of waits).
        subscriptions = [.off, .usual, .many, .many][rng.below(4)]
        subscriptionKinds = Self.kindWeights(&rng, count: Schedule.subscriptionKinds)
        refunds = Amount.allCases[rng.below(Amount.allCases.count)]
        refundKinds = Self.kindWeights(&rng, count: Schedule.refundKinds)
    }

    /// Per kind: off one time in `kindOffOneIn`, else at its full weight.
    static func kindWeights(_ rng: inout SplitMix64, count: Int) -> [Int] {
        (0..<count).map { _ in rng.below(kindOffOneIn) == 0 ? 0 : scale }
    }

    static let kindOffOneIn = 3
    /// The most server faults of a run whose `server` family is at its full weight (2 below it,
    /// and without swarm).
    package static let serverMany = 4

    /// The wheel's slot that buys.
    static let buySlot: Int? = CommandSpec.wheel.indices.first {
        var rng = SplitMix64(seed: 1)
        let material = ExploreMaterial(route: .order, users: Schedule.users, catalog: .standard)
        if case .buy = CommandSpec.wheel[$0].draw(&rng, material) { return true }
        return false
    }

    package func weight(_ family: Family) -> Int { weights[family] ?? Self.scale }

    /// Whether a draw of `family` stays (a weight of `scale` always; 0 never).
    func keeps(_ family: Family, _ rng: inout SplitMix64) -> Bool {
        Self.keeps(weight(family), &rng)
    }

    /// Whether a draw of the wheel's `slot`, a command of `family`, stays.
    func keeps(slot: Int, _ family: Family, _ rng: inout SplitMix64) -> Bool {
        keeps(family, &rng) && (slot >= kinds.count || Self.keeps(kinds[slot], &rng))
    }

    static func keeps(_ w: Int, _ rng: inout SplitMix64) -> Bool {
        w >= scale || (w > 0 && rng.below(scale) < w)
    }

    /// The family of a command the wheel draws.
    package static func family(of command: Command) -> Family {
        switch command {
        case .crash, .launch: return .crash
        case .network, .networkFault: return .network
        case .storeFault: return .store
        case .serverOutage, .serverAPIFault, .forge: return .server
        default: return .other
        }
    }
}
