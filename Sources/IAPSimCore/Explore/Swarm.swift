/// Swarm draws (`--swarm on`): each run draws its own weight for each fault family from its
/// run seed (a generator of its own, `derive("swarm")`), so that one run is nearly half crashes,
/// another only network faults, another a long server outage, and a bug that needs a rare
/// combination waits less than under one fixed mix. Same run seed, same weights: a run
/// index replays the same run. Without swarm (`--swarm off`) no weight is drawn and every
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

    package static let scale = 8
    /// A family's weight draws one of these: off, rare, half, all (as often as without swarm).
    static let levels = [0, 1, 4, 8]

    package init(weights: [Family: Int]) { self.weights = weights }

    /// The weights of the run whose seed is `seed`.
    package init(seed: UInt64) {
        var rng = SplitMix64(seed: seed).derive("swarm")
        var weights: [Family: Int] = [:]
        for family in Family.allCases {
            // `other` is never below half: a run full of one fault still buys (a first try with
            // `other` down to rare found the bugs that need many purchases more slowly).
            let levels = family == .other ? Array(Self.levels.dropFirst(2)) : Self.levels
            weights[family] = levels[rng.below(levels.count)]
        }
        self.weights = weights
    }

    package func weight(_ family: Family) -> Int { weights[family] ?? Self.scale }

    /// Whether a draw of `family` stays (a weight of `scale` always; 0 never).
    func keeps(_ family: Family, _ rng: inout SplitMix64) -> Bool {
        let w = weight(family)
        return w >= Self.scale || (w > 0 && rng.below(Self.scale) < w)
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
