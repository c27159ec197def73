import IAPSimCore

/// Swarm draws of the harness's `explore(swarm: true)`, as `iapsim explore --swarm on` draws
/// them: each run draws, from a generator of its own, a weight for each family of
/// `exploreFaults`, how long it is and how often its user buys. One run is all crashes,
/// another all network faults, another has neither; a bug that needs a rare mix waits less
/// than under one fixed mix. The same run of the same seed draws the same weights.
struct ExploreSwarm: Sendable, Hashable {
    /// The families of `exploreFaults`.
    enum Family: String, Sendable, CaseIterable {
        /// Requests and answers dropped, the network off, a payment failing for the network.
        case network
        /// The app's process dies (a launch follows before the next buy).
        case crash
        /// The App Store's side of a payment: interrupted, cancelled, Ask to Buy.
        case payment
        /// The app in the background, the account switched.
        case lifecycle
        /// Time passing with nothing else.
        case wait
    }

    /// Out of `scale`: the share of the draws of a family a run keeps (the rest are drawn again).
    var weights: [Family: Int]
    /// The run's steps are drawn up to `maxSteps` times this.
    var lengthFactor: Int
    /// One step in `buyOneIn` is a buy (3 without swarm).
    var buyOneIn: Int
    /// The profile the run drew (`draw`); `mixed` for the draws of `init(_:)`.
    var profile: Profile = .mixed

    static let scale = 8
    /// Off, rare, half, all (as often as without swarm).
    static let levels = [0, 1, 4, 8]

    init(weights: [Family: Int], lengthFactor: Int = 1, buyOneIn: Int = 3) {
        self.weights = weights
        self.lengthFactor = lengthFactor
        self.buyOneIn = buyOneIn
    }

    /// The mixed draws: each family off, rare, half or at its full weight.
    init(_ generator: SplitMix64) {
        var rng = generator
        var weights: [Family: Int] = [:]
        for family in Family.allCases { weights[family] = Self.levels[rng.below(Self.levels.count)] }
        // At least one family at its full weight: a run with every family down would draw
        // again and again to keep one fault.
        if !weights.values.contains(Self.scale) {
            weights[Family.allCases[rng.below(Family.allCases.count)]] = Self.scale
        }
        self.init(weights: weights, lengthFactor: 1 + rng.below(2), buyOneIn: [2, 3, 5][rng.below(3)])
    }

    /// What a swarm run concentrates on: the fixed mix of swarm off (`usual`), the mixed draws,
    /// or two families of faults at their full weight and the others off, in runs up to
    /// `lengthFactor` times as long.
    enum Profile: String, Sendable, CaseIterable {
        case usual, mixed, crashNetwork, crashPayment, accounts
    }

    /// Out of the sum: each profile's share of the runs. Crash with payment faults and crash
    /// with network faults have the most: the planted bugs a fixed mix finds last need a
    /// crash after one of them (README's bug zoo).
    static let profileShares: [(Profile, Int)] = [
        (.usual, 2), (.mixed, 1), (.crashNetwork, 5), (.crashPayment, 7), (.accounts, 1),
    ]

    /// The swarm draws of run `run` of a root generator: nil for a `usual` run (it draws the
    /// schedule of swarm off), else its profile's weights.
    static func draw(_ root: SplitMix64, run: Int) -> ExploreSwarm? {
        var rng = root.derive("swarm profile \(run)")
        let total = profileShares.reduce(0) { $0 + $1.1 }
        var roll = rng.below(total)
        var profile = Profile.usual
        for (p, share) in profileShares {
            if roll < share {
                profile = p
                break
            }
            roll -= share
        }
        let s = scale
        let long = 2 + rng.below(3)
        let weights: [Family: Int]
        switch profile {
        case .usual: return nil
        case .mixed: return ExploreSwarm(root.derive("swarm run \(run)"))
        case .crashNetwork: weights = [.crash: s, .network: s, .payment: 0, .lifecycle: 0, .wait: s]
        case .crashPayment: weights = [.crash: s, .network: 0, .payment: s, .lifecycle: 0, .wait: s]
        case .accounts: weights = [.crash: 0, .network: 0, .payment: s, .lifecycle: s, .wait: s]
        }
        var swarm = ExploreSwarm(weights: weights, lengthFactor: long)
        swarm.profile = profile
        return swarm
    }

    func weight(_ family: Family) -> Int { weights[family] ?? Self.scale }

    /// The family of one of `exploreFaults`.
    static func family(of fault: String) -> Family {
        if fault == "crash" { return .crash }
        if fault.hasPrefix("drop-next-") || fault.hasPrefix("network ") || fault == "fail-next-payment network" {
            return .network
        }
        if fault.hasPrefix("wait ") { return .wait }
        if fault == "background" || fault == "foreground" || fault == "logout" || fault.hasPrefix("login ") {
            return .lifecycle
        }
        return .payment
    }

    /// `fault`, or another of `faults` drawn instead while the run weighs `fault`'s family down
    /// (at most 64 draws; a family at its full weight always stays).
    func redraw(_ fault: String, from faults: [String], _ rng: inout SplitMix64) -> String {
        var fault = fault
        for _ in 0..<64 {
            let w = weight(Self.family(of: fault))
            if w >= Self.scale || (w > 0 && rng.below(Self.scale) < w) { return fault }
            fault = faults[rng.below(faults.count)]
        }
        return fault
    }
}
