/// What a run of `iapsim serve --explore --swarm on` may concentrate on besides explore's own
/// profiles (Swarm+Profiles.swift): the conditions a backend's own faults need, which explore's
/// profiles, made for the app's faults, rarely draw. Half the served runs draw one of these,
/// from a generator of their own; the other half draw exactly what `iapsim explore --swarm on`
/// draws for the same run seed. `iapsim explore` never draws them, and `--swarm off` draws
/// nothing here.
extension Swarm {
    package enum ServedProfile: String, Sendable, CaseIterable {
        /// Ask to Buy, crashes and relaunches and account switches among buys: a transaction that reaches the app with no order of its own in memory (the
        /// process that made the order died) while another account is logged in is reported
        /// in that account's name; a backend that credits the reporter pays the wrong account.
        case accounts
        /// Forged signed transactions sent to the backend (`forge`), several a run: a backend
        /// that does not check a JWS's signature credits one.
        case forge
        /// Buys, crashes at the moments around a charge and the merchant server's outages: a
        /// notification that reaches the backend before the app's report, and a refund of
        /// what was credited.
        case delivery
    }

    /// Out of `servedShareOf`: the served runs that draw a served profile.
    package static let servedShare = 1
    package static let servedShareOf = 2

    /// The served profile of the run whose seed is `seed`, or nil: explore's own draw.
    package static func drawServedProfile(seed: UInt64) -> ServedProfile? {
        var rng = SplitMix64(seed: seed).derive("swarm-served")
        guard rng.below(servedShareOf) < servedShare else { return nil }
        return ServedProfile.allCases[rng.below(ServedProfile.allCases.count)]
    }

    /// The swarm draws of a served run whose seed is `seed`: a served profile's, or (nil
    /// profile) exactly `Swarm.draw(seed:)`.
    package static func drawServed(seed: UInt64) -> Swarm? {
        guard let profile = drawServedProfile(seed: seed) else { return draw(seed: seed) }
        var rng = SplitMix64(seed: seed).derive("swarm-served-weights")
        return Swarm(served: profile, &rng)
    }

    /// The wheel's slots of `ServedProfile.accounts`: crash, launch, Ask to Buy (its answers
    /// too), login; buys are kept one time in two (`accountKinds`).
    static let accountSlots: Set<Int> = slots {
        switch $0 {
        case .crash, .launch, .login, .askToBuy, .approve, .decline: true
        default: false
        }
    }

    /// Out of `scale` per slot of the wheel, the `accounts` profile's kinds.
    static let accountKinds: [Int] = CommandSpec.wheel.indices.map {
        $0 == buySlot ? scale / 2 : accountSlots.contains($0) ? scale : 0
    }

    /// The weights of a served profile.
    init(served profile: ServedProfile, _ rng: inout SplitMix64) {
        let s = Self.scale
        switch profile {
        case .accounts:
            self.init(weights: [.crash: s, .network: 0, .store: 0, .server: 0, .other: s])
            kinds = Self.accountKinds
            subscriptions = .off
            refunds = .off
        case .forge:
            self.init(mixed: &rng)
            weights[.server] = s
            servedFaults = 2...Self.serverMany
            servedFaultKinds = [0, 0, 0, 0, s]
        case .delivery:
            self.init(weights: [.crash: s, .network: [0, 1][rng.below(2)], .store: 0, .server: s, .other: s])
            let keep = Self.slots {
                switch $0 {
                case .buy, .crash, .launch: true
                default: false
                }
            }
            kinds = (0..<CommandSpec.wheel.count).map { keep.contains($0) || rng.below(3) == 0 ? s : 0 }
            subscriptions = .off
            refunds = .many
            refundKinds = [0, s, 0, 0, 0, s, s]
            servedFaults = 1...Self.serverMany
            servedFaultKinds = [0, 0, 0, s, 0]
        }
        served = profile
    }
}
