/// "Prevented by" and "saved by": the same inputs replayed from the start under other
/// policies.
extension WhatIf {
    /// Every single change of the run's policy: each other value of each key of its world,
    /// from the policy key table (`PolicyKey.allCases`, `PolicyKey.choices`).
    var singleChanges: [(change: PolicyChange, policy: Policy)] {
        let base = input.policy
        var out: [(PolicyChange, Policy)] = []
        for key in Self.keys(in: base) {
            for value in key.choices {
                var changed = base
                guard (try? changed.set(key, to: value)) != nil, changed != base else { continue }
                out.append((PolicyChange(key, value), changed))
            }
        }
        return out
    }

    /// For each anomaly that ends badly, the changes after which it ends well and no other
    /// one that did not end badly before does: single changes, and pairs of changes to two
    /// keys only for an anomaly no single change prevents.
    mutating func preventedBy(_ bad: [AnomalyIdentity], before: [AnomalyIdentity])
        -> [AnomalyIdentity: [[PolicyChange]]]
    {
        guard !bad.isEmpty else { return [:] }
        let singles = singleChanges
        var out: [AnomalyIdentity: [[PolicyChange]]] = [:]
        for (change, policy) in singles {
            let replay = verdict(policy)
            guard replay.newBadOnes(comparedWith: before).isEmpty else { continue }
            for identity in bad where !replay.endsBadly(identity) { out[identity, default: []].append([change]) }
        }
        let unprevented = bad.filter { out[$0] == nil }
        guard !unprevented.isEmpty else { return out }
        for (n, first) in singles.enumerated() {
            for second in singles[(n + 1)...] where second.change.key != first.change.key {
                var policy = first.policy
                guard (try? policy.set(second.change.key, to: second.change.value)) != nil else { continue }
                let replay = verdict(policy)
                guard replay.newBadOnes(comparedWith: before).isEmpty else { continue }
                for identity in unprevented where !replay.endsBadly(identity) {
                    out[identity, default: []].append([first.change, second.change])
                }
            }
        }
        return out
    }

    /// The keys whose value in the run's policy differs from a target's (the other policy
    /// set beside the run, or both presets of its world: a file's own overrides count as
    /// settings in effect too), each replayed with the target's value alone.
    mutating func savedBy(towards targets: [Policy]) -> SavingReplays {
        let base = input.policy
        var replays: [(PolicyChange, ReplayVerdict)] = []
        var tried: [PolicyChange] = []
        for key in Self.keys(in: base) {
            for target in targets where base.value(of: key) != target.value(of: key) {
                let towards = PolicyChange(key, target.value(of: key))
                var changed = base
                guard !tried.contains(towards), (try? changed.set(key, to: towards.value)) != nil else { continue }
                tried.append(towards)
                replays.append((PolicyChange(key, base.value(of: key)), verdict(changed)))
            }
        }
        return SavingReplays(replays: replays, targets: tried)
    }

    /// Adds the pairs of keys to `saving`, for when some anomaly no single key saved.
    mutating func addPairs(to saving: inout SavingReplays) {
        guard saving.pairs.isEmpty else { return }
        let base = input.policy
        for n in saving.replays.indices {
            for m in saving.replays.indices where m > n && saving.targets[m].key != saving.targets[n].key {
                var changed = base
                guard (try? changed.set(saving.targets[n].key, to: saving.targets[n].value)) != nil,
                    (try? changed.set(saving.targets[m].key, to: saving.targets[m].value)) != nil
                else { continue }
                saving.pairs.append(([saving.replays[n].0, saving.replays[m].0], verdict(changed)))
            }
        }
    }

    /// The anomalies that end badly in `otherWorld` (the inputs under the other policy) and
    /// not in `run`, with what saved them.
    func avoided(by run: Simulation, under otherWorld: Simulation, saving: SavingReplays) -> [AvoidedAnomaly] {
        let here = ReplayVerdict(run, attacks: attacks(removing: []))
        var out: [AvoidedAnomaly] = []
        let theirs = AnomalyIdentity.all(in: otherWorld, attacks: attacks(removing: []))
        for (a, identity) in zip(otherWorld.auditor.anomalies, theirs) where a.status.isUnresolved {
            guard !here.endsBadly(identity) else { continue }
            let fresh = a.involved.first { id in
                otherWorld.server.orders.contains { $0.id == id && $0.createdBy == .attacker }
            }
            let words = [a.type.rawValue, fresh ?? a.order ?? a.txn].compactMap { $0 }.joined(separator: " ")
            out.append(
                AvoidedAnomaly(
                    identity: identity, words: words, savedBy: saving.keys(saving: identity),
                    together: saving.together(identity)))
        }
        return out
    }
}

/// The run's policy with one key at a time set to the other policy's value, and pairs of
/// keys for an anomaly no single key saved.
struct SavingReplays: Sendable {
    /// The key with its value in the run's policy, and the verdict with the other's value.
    var replays: [(PolicyChange, ReplayVerdict)]

    init(replays: [(PolicyChange, ReplayVerdict)], targets: [PolicyChange]) {
        self.replays = replays
        self.targets = targets
    }

    /// The change each replay made, in the same order.
    var targets: [PolicyChange] = []
    /// Two keys set to the other's values together.
    var pairs: [([PolicyChange], ReplayVerdict)] = []

    /// The settings in effect whose change makes `identity` end badly: each key alone, or
    /// else the first pair that does it together.
    func keys(saving identity: AnomalyIdentity) -> [PolicyChange] {
        let singles = replays.filter { $0.1.endsBadly(identity) }.map(\.0)
        if !singles.isEmpty { return singles }
        return pairs.first { $0.1.endsBadly(identity) }?.0 ?? []
    }

    /// True when the keys saving `identity` work only together.
    func together(_ identity: AnomalyIdentity) -> Bool {
        !replays.contains { $0.1.endsBadly(identity) } && pairs.contains { $0.1.endsBadly(identity) }
    }
}
