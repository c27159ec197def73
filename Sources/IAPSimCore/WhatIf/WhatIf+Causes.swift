/// "Caused by": the injected inputs without which an anomaly does not open at all.
extension WhatIf {
    /// The indices of the run's injected inputs (`Command.isInjected`), in order.
    var injected: [Int] { input.steps.indices.filter { input.steps[$0].command.isInjected } }

    /// For each anomaly, the smallest set of injected inputs without which it does not
    /// open: each input that suffices on its own when there are such (removing any one of
    /// them stops it); else the smallest pair; else a set shrunk one input at a time from all
    /// of them, as the shrinker drops steps. Empty when it opens without any of them.
    mutating func causedBy(_ identities: [AnomalyIdentity]) -> [AnomalyIdentity: [ReplayStep]] {
        let all = injected
        guard !all.isEmpty else { return [:] }
        let policy = input.policy
        let withoutAll = verdict(policy, removing: Set(all))
        // The replay without them could not be played (the budget): nothing is claimed, not
        // even that no input caused it (`unknownCauses`).
        guard cache[ReplayKey(policy: policy, removed: all)] != nil else {
            unknownCauses = true
            return [:]
        }
        // Where each anomaly opened in the run (the same world: the run's own inputs and policy).
        let run = verdict(policy)
        var out: [AnomalyIdentity: [ReplayStep]] = [:]
        for (n, identity) in identities.enumerated() {
            var plain = identity
            plain.occurrence = 0
            let alike = identities.contains {
                $0 != identity && $0.type == identity.type && $0.txn == identity.txn && $0.order == identity.order
                    && $0.attack == identity.attack
            }
            let cause = Cause(
                identity: identity, anchor: n < run.anchors.count ? run.anchors[n] : -1, alike: alike,
                endsBadly: run.endsBadly(identity))
            guard cause.holds(in: withoutAll) else { continue }
            out[identity] = smallestCause(of: cause, among: all).sorted().map { input.steps[$0] }
        }
        return out
    }

    /// An anomaly whose cause is looked for: where it opened, whether others alike did, and
    /// whether it ends badly in the run.
    struct Cause {
        var identity: AnomalyIdentity
        var anchor: Int
        var alike: Bool
        var endsBadly = false

        /// True when the inputs removed from `replay` caused it: without them it does not
        /// open, or (one that ends badly in the run) it opens and ends well: the faults of a
        /// reproduction that turn a passing delay into a loss are its cause.
        func holds(in replay: ReplayVerdict) -> Bool {
            guard replay.opens(identity, anchor: anchor, alike: alike) else { return true }
            return endsBadly && !replay.endsBadly(identity)
        }
    }

    /// The smallest set of `inputs` whose removal keeps `identity` from opening (removing
    /// them all does).
    mutating func smallestCause(of c: Cause, among inputs: [Int]) -> [Int] {
        let policy = input.policy
        func stops(_ removed: Set<Int>, _ me: inout WhatIf) -> Bool {
            c.holds(in: me.verdict(policy, removing: removed))
        }
        let singles = inputs.filter { stops([$0], &self) }
        if !singles.isEmpty { return singles }
        // A pair, when few enough inputs make trying every pair cheap.
        if inputs.count <= Self.pairLimit {
            for (n, a) in inputs.enumerated() {
                for b in inputs[(n + 1)...] where stops([a, b], &self) { return [a, b] }
            }
        }
        var kept = inputs
        for i in inputs where kept.count > 1 {
            let smaller = kept.filter { $0 != i }
            if stops(Set(smaller), &self) { kept = smaller }
        }
        return kept
    }

    /// Up to this many injected inputs, every pair is tried before shrinking.
    static var pairLimit: Int { 12 }
}
