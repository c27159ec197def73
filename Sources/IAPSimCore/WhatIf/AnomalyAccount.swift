/// One account of an anomaly, the same on every surface (the inspector, the split's header,
/// `run`'s verdict, the handout, `learn`'s end and the JSON export): how it ended on this side
/// and the keys that stop it, in one wording. `prevented by KEY` when it never happened (or,
/// for one that ends badly or was put right without any setting's help, what would have kept
/// it from happening); `resolved by KEY` when it happened here and a setting in effect put it
/// right. ` | `: any one; ` + `: all together. The keys are always named, or the line says
/// that none within one or two changes does it.
package struct AnomalyAccount: Sendable, Hashable {
    package enum Fix: String, Sendable, Hashable {
        /// It never happened, or these keys would have kept it from happening.
        case prevented
        /// It happened and these keys, in effect, put it right.
        case resolved
    }

    package var fix: Fix
    /// The alternatives (` | `), each one change or several together (` + `).
    package var keys: [[PolicyChange]]

    package init(_ fix: Fix, keys: [[PolicyChange]]) {
        self.fix = fix
        self.keys = keys
    }

    /// Settings in effect (`savedBy`): each needed (one alternative of all of them), or
    /// (`together`) either one alone enough.
    package init(resolvedBy saved: [PolicyChange], together: Bool) {
        self.init(.resolved, keys: together ? saved.map { [$0] } : [saved])
    }

    /// `prevented by: observer launch | sweep-unfinished true`, `resolved by: observer launch`.
    package var line: String {
        guard !keys.isEmpty, keys.allSatisfy({ !$0.isEmpty }) else {
            return "\(fix.rawValue) by: no hardening within one or two policy changes"
        }
        return "\(fix.rawValue) by: " + AnomalyExplanation.alternatives(keys)
    }
}

extension AnomalyExplanation {
    /// This anomaly's account: `prevented by` the changes that stop it when it ends badly, or
    /// when it was put right by no setting of this policy (what would have kept it from
    /// happening); `resolved by` the settings in effect that put it right.
    package var account: AnomalyAccount {
        if !endsBadly, !savedWays.isEmpty { return AnomalyAccount(.resolved, keys: savedWays) }
        if !endsBadly, !savedBy.isEmpty { return AnomalyAccount(resolvedBy: savedBy, together: savedTogether) }
        return AnomalyAccount(.prevented, keys: preventedBy)
    }
}

extension AvoidedAnomaly {
    /// `resolved by` when it happened on this side too and ended well, `prevented by` when it
    /// never happened here; the settings in effect that did it, or else the changes that stop
    /// it on the side that had it.
    package var account: AnomalyAccount {
        let fix: AnomalyAccount.Fix = happenedHere ? .resolved : .prevented
        if !savedWays.isEmpty { return AnomalyAccount(fix, keys: savedWays) }
        guard savedBy.isEmpty else {
            var account = AnomalyAccount(resolvedBy: savedBy, together: together)
            account.fix = fix
            return account
        }
        return AnomalyAccount(fix, keys: preventedThere)
    }
}
