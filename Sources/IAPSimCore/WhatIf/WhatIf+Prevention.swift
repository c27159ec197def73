/// "Prevented by" and "saved by": the same inputs replayed from the start under other
/// policies.
extension WhatIf {
    /// Every single change of the run's policy that hardens: each other value of each key of
    /// its world that the policy key table counts as hardening (`PolicyKey.hardening(in:)`).
    /// A change that weakens something (`observer store-screen`, `finish on-purchase`) may
    /// well prevent this anomaly, but it is a trade, not a fix: it is never a candidate.
    var singleChanges: [(change: PolicyChange, policy: Policy)] {
        let base = input.policy
        var out: [(PolicyChange, Policy)] = []
        for key in Self.keys(in: base) {
            for value in key.hardening(in: base.storekit) {
                var changed = base
                guard (try? changed.set(key, to: value)) != nil, changed != base else { continue }
                out.append((PolicyChange(key, value), changed))
            }
        }
        return out
    }

    /// For each anomaly that ends badly, the changes after which it ends well, what it
    /// concerns is still delivered (`ReplayVerdict.keepsDelivering`) and no other one that
    /// did not end badly before ends badly: single changes, and pairs of changes to two keys
    /// only for an anomaly no single change prevents (none, or none that keeps delivering).
    /// With `opening`, for anomalies that ended well without any setting's help: the
    /// changes after which they never open at all.
    mutating func preventedBy(_ bad: [AnomalyIdentity], before: [AnomalyIdentity], opening: Bool = false)
        -> [AnomalyIdentity: [[PolicyChange]]]
    {
        guard !bad.isEmpty else { return [:] }
        let singles = singleChanges
        let run = verdict(input.policy)
        var out: [AnomalyIdentity: [[PolicyChange]]] = [:]
        for (change, policy) in singles {
            let replay = verdict(policy)
            guard replay.newBadOnes(comparedWith: before).isEmpty else {
                noteSetBack([change], replay, bad, before: before, run: run, opening: opening)
                continue
            }
            for identity in bad where replay.prevents(identity, as: run, opening: opening) {
                out[identity, default: []].append([change])
            }
        }
        let unprevented = bad.filter { out[$0] == nil }
        guard !unprevented.isEmpty else { return out }
        for (n, first) in singles.enumerated() {
            for second in singles[(n + 1)...] where second.change.key != first.change.key {
                var policy = first.policy
                guard (try? policy.set(second.change.key, to: second.change.value)) != nil else { continue }
                let replay = verdict(policy)
                guard replay.newBadOnes(comparedWith: before).isEmpty else {
                    noteSetBack(
                        [first.change, second.change], replay, unprevented, before: before, run: run, opening: opening)
                    continue
                }
                for identity in unprevented where replay.prevents(identity, as: run, opening: opening) {
                    out[identity, default: []].append([first.change, second.change])
                }
            }
        }
        return out
    }

    /// `changes` (whose `replay` made an anomaly not in `before` end badly) kept some of `bad`
    /// from ending badly: each of those notes it as a set-back (its first `SetBack.kept`).
    mutating func noteSetBack(
        _ changes: [PolicyChange], _ replay: ReplayVerdict, _ bad: [AnomalyIdentity], before: [AnomalyIdentity],
        run: ReplayVerdict, opening: Bool
    ) {
        let opens = replay.newBadOnes(comparedWith: before).map(\.type)
        for identity in bad where (setBacks[identity]?.count ?? 0) < SetBack.kept {
            guard replay.prevents(identity, as: run, opening: opening) else { continue }
            let unique = opens.reduce(into: [AnomalyType]()) { if !$0.contains($1) { $0.append($1) } }
            setBacks[identity, default: []].append(SetBack(changes: changes, opens: unique))
        }
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

    /// The live key changes (`policy KEY VALUE` steps, the policy panel's `p`) that saved
    /// anomalies of `good` (the run's anomalies that end well): each step replayed away, the
    /// rest as run; an anomaly that then ends badly was saved by the step's setting. A
    /// setting from the start cannot say so (its replay leaves the step out, and the step
    /// sets the key anyway). A live preset change names the keys of it that saved
    /// (`presetKeys(saving:preset:step:)`).
    mutating func liveSavings(of good: [AnomalyIdentity]) -> [AnomalyIdentity: [PolicyChange]] {
        guard !good.isEmpty else { return [:] }
        var out: [AnomalyIdentity: [PolicyChange]] = [:]
        for (i, step) in input.steps.enumerated() {
            if case .setPolicy(let setting) = step.command {
                let without = verdict(input.policy, removing: [i])
                for identity in good where without.endsBadly(identity) {
                    out[identity] = Self.union(out[identity] ?? [], [PolicyChange(setting.key, setting.value)])
                }
            }
            if case .setPreset(let preset) = step.command {
                let without = verdict(input.policy, removing: [i])
                let saved = good.filter { without.endsBadly($0) }
                guard !saved.isEmpty else { continue }
                for (identity, keys) in presetKeys(saving: saved, preset: preset, step: i) {
                    out[identity] = Self.union(out[identity] ?? [], keys)
                }
            }
        }
        return out
    }

    /// The keys of a live preset change (step `step`, the policy panel's preset row) that
    /// saved each of `saved`: each key the preset changes, set to the preset's value from the
    /// start with the step left out; one that then keeps the anomaly from ending badly saved
    /// it (`|`: any one of them). An anomaly no single key saves names nothing here.
    mutating func presetKeys(
        saving saved: [AnomalyIdentity], preset: PolicyPreset, step: Int
    ) -> [AnomalyIdentity: [PolicyChange]] {
        var before = input.policy
        for earlier in input.steps.prefix(step) {
            if case .setPolicy(let setting) = earlier.command { setting.apply(to: &before) }
            if case .setPreset(let p) = earlier.command { before = p.policy }
        }
        var out: [AnomalyIdentity: [PolicyChange]] = [:]
        for key in before.differences(from: preset.policy) {
            let change = PolicyChange(key, preset.policy.value(of: key))
            var changed = input.policy
            guard (try? changed.set(key, to: change.value)) != nil else { continue }
            let replay = verdict(changed, removing: [step])
            for identity in saved where !replay.endsBadly(identity) {
                out[identity, default: []].append(change)
            }
        }
        return out
    }

    /// `a` then the changes of `b` it does not hold.
    static func union(_ a: [PolicyChange], _ b: [PolicyChange]) -> [PolicyChange] {
        a + b.filter { !a.contains($0) }
    }

    /// For each setting that alone saves something, the replays with it and each other key
    /// changed together: a setting whose change is harmless once another key changes too
    /// (`account-token`, whose absence only a binding server refuses) did not act itself,
    /// and is not named (`SavingReplays.keys(saving:)`).
    /// Only the settings that save one of `identities` (the run's anomalies that end well,
    /// and those of the other policy's run) are checked. A second weakening that keeps the
    /// anomaly away only by breaking something else (a purchase never credited is never
    /// clawed back) undoes no harm: a replay that opens an anomaly ending badly that `run`
    /// (the anomalies of the run) does not have is not counted.
    mutating func addMechanismChecks(
        to saving: inout SavingReplays, for identities: [AnomalyIdentity], run: [AnomalyIdentity]
    ) {
        let base = input.policy
        for n in saving.replays.indices {
            guard identities.contains(where: { saving.replays[n].1.endsBadly($0) }) else { continue }
            for m in saving.replays.indices where m != n && saving.targets[m].key != saving.targets[n].key {
                // Only another weakening can show that this one acted through it.
                let other = saving.targets[m]
                guard !other.key.hardening(in: base.storekit).contains(other.value) else { continue }
                var changed = base
                guard (try? changed.set(saving.targets[n].key, to: saving.targets[n].value)) != nil,
                    (try? changed.set(other.key, to: other.value)) != nil
                else { continue }
                let both = verdict(changed)
                guard both.newBadOnes(comparedWith: run).isEmpty else { continue }
                saving.through.append((n, both))
            }
        }
    }

    /// For each of `identities` that some settings save alone (`SavingReplays.acting`): the
    /// pairs of other settings whose change together makes it end badly too, so that the
    /// account names every way it was put right (`server-clawback refunded-share +
    /// server-notifications true | server-clawback refunded-share + server-reconcile 1h`, as the
    /// other side's `prevented by` names the same keys). One key of each pair is a setting
    /// whose change alone altered the anomaly's path (it ended alike, later or by another
    /// mechanism: `ReplayVerdict.trails`); the other is any setting not named already.
    mutating func addBesidePairs(to saving: inout SavingReplays, for identities: [AnomalyIdentity], run: ReplayVerdict)
    {
        let base = input.policy
        var tried: Set<[Int]> = []
        for identity in identities {
            let singles = saving.acting(identity)
            guard !singles.isEmpty else { continue }
            let others = saving.replays.indices.filter {
                !singles.contains($0) && !saving.replays[$0].1.endsBadly(identity)
            }
            let touched = others.filter { saving.replays[$0].1.trail(of: identity) != run.trail(of: identity) }
            for n in touched {
                for m in others where m != n && saving.targets[m].key != saving.targets[n].key {
                    let pair = [min(n, m), max(n, m)]
                    guard tried.insert(pair).inserted else { continue }
                    var changed = base
                    guard (try? changed.set(saving.targets[n].key, to: saving.targets[n].value)) != nil,
                        (try? changed.set(saving.targets[m].key, to: saving.targets[m].value)) != nil
                    else { continue }
                    saving.beside.append(([saving.replays[pair[0]].0, saving.replays[pair[1]].0], verdict(changed)))
                }
            }
        }
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
        // What the other side had and this one never did counts too, however it ended there.
        // A purchase that went wrong here in another way (credited to someone else instead of
        // lost), with no setting of this side to thank, avoided nothing: it is not counted.
        let worseHere = here.anomalies.filter { $0.status.isUnresolved }.map(\.identity)
        for (a, identity) in zip(otherWorld.auditor.anomalies, theirs)
        where a.status.isUnresolved || here.status(of: identity) == nil {
            guard !here.endsBadly(identity) else { continue }
            if saving.keys(saving: identity).isEmpty, worseHere.contains(where: { identity.samePurchase(as: $0) }) {
                continue
            }
            let fresh = a.involved.first { id in
                otherWorld.server.orders.contains { $0.id == id && $0.createdBy == .attacker }
            }
            let words = [a.type.rawValue, fresh ?? a.order ?? a.txn].compactMap { $0 }.joined(separator: " ")
            var avoided = AvoidedAnomaly(
                identity: identity, words: words, savedBy: saving.keys(saving: identity),
                together: saving.together(identity), happenedHere: here.status(of: identity) != nil)
            let ways = saving.alternatives(saving: identity)
            if ways.count > 1, !avoided.together {
                avoided.savedWays = ways
                avoided.savedBy = ways.reduce([]) { WhatIf.union($0, $1) }
            }
            out.append(avoided)
        }
        return out
    }

    /// For each avoided anomaly no setting of this side is named for, the hardening changes
    /// that stop it on the side that had it (`other`, whose world is `otherWorld`): its
    /// `preventedBy` there, or for one that ended well there, the changes after which it never
    /// opens. The replays count towards this report's.
    mutating func preventedThere(_ avoided: [AvoidedAnomaly], other: Policy, otherWorld: Simulation)
        -> [AvoidedAnomaly]
    {
        let missing = avoided.filter { $0.savedBy.isEmpty }.map(\.identity)
        guard !missing.isEmpty else { return avoided }
        var input = input
        input.config.policy = other
        var there = WhatIf(input)
        there.replayer = replayer
        let theirs = AnomalyIdentity.all(in: otherWorld, attacks: attacks(removing: []))
        let badThere = zip(otherWorld.auditor.anomalies, theirs).filter { $0.0.status.isUnresolved }.map(\.1)
        var fixes = there.preventedBy(missing.filter(badThere.contains), before: badThere)
        let quiet = missing.filter { !badThere.contains($0) }
        fixes.merge(there.preventedBy(quiet, before: badThere, opening: true)) { mine, _ in mine }
        replays += there.replays
        events += there.events
        if there.budgetSpent { budgetSpent = true }
        return avoided.map { a in
            var a = a
            if a.savedBy.isEmpty { a.preventedThere = fixes[a.identity] ?? [] }
            return a
        }
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
    /// A single replay's index, and a verdict with its key and another changed together.
    var through: [(Int, ReplayVerdict)] = []
    /// Two keys changed together, neither of which alone makes an anomaly some other setting
    /// saves end badly (`WhatIf.addBesidePairs`).
    var beside: [([PolicyChange], ReplayVerdict)] = []

    /// Every way the settings in effect put `identity` right, as alternatives (` | `) of
    /// settings together (` + `): each setting that alone matters is in every alternative;
    /// a pair that matters only together (`beside`) gives two alternatives, one with each.
    /// A single alternative when no such pair is found; the pair's two keys when no setting
    /// alone matters (`together`).
    func alternatives(saving identity: AnomalyIdentity) -> [[PolicyChange]] {
        let singles = keys(saving: identity)
        guard !singles.isEmpty else { return [] }
        if together(identity) { return singles.map { [$0] } }
        var terms: [[PolicyChange]] = [singles]
        for (pair, replay) in beside where replay.endsBadly(identity) && !pair.contains(where: singles.contains) {
            var next: [[PolicyChange]] = []
            for term in terms {
                for change in pair {
                    let grown = term.contains(change) ? term : term + [change]
                    if !next.contains(where: { Set($0) == Set(grown) }) { next.append(grown) }
                }
            }
            // A way that holds another whole way is not a way of its own.
            terms = next.filter { t in !next.contains { o in o.count < t.count && o.allSatisfy(t.contains) } }
        }
        return terms
    }

    /// The settings in effect whose change makes `identity` end badly: each key alone, or
    /// else the first pair that does it together.
    func keys(saving identity: AnomalyIdentity) -> [PolicyChange] {
        let singles = acting(identity).map { replays[$0].0 }
        if !singles.isEmpty { return singles }
        return actingPair(identity)?.0 ?? []
    }

    /// The first pair whose change makes `identity` end badly, of keys that act themselves
    /// (not one that matters only through another key, as `acting` finds).
    func actingPair(_ identity: AnomalyIdentity) -> ([PolicyChange], ReplayVerdict)? {
        let indirect = replays.indices.filter { replays[$0].1.endsBadly(identity) }.map { replays[$0].0 }
        return pairs.first { pair in pair.1.endsBadly(identity) && !pair.0.contains { indirect.contains($0) } }
    }

    /// The single replays after which `identity` ends badly, but not those whose harm
    /// another key's change undoes (the setting acted only through that key's mechanism).
    func acting(_ identity: AnomalyIdentity) -> [Int] {
        replays.indices.filter { n in
            replays[n].1.endsBadly(identity) && !through.contains { $0.0 == n && !$0.1.endsBadly(identity) }
        }
    }

    /// True when no setting alone saves `identity` and a pair does: either one is enough.
    func together(_ identity: AnomalyIdentity) -> Bool {
        acting(identity).isEmpty && actingPair(identity) != nil
    }
}
