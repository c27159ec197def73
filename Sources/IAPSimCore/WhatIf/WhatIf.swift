/// One policy setting: a key and the value it would take.
package struct PolicyChange: Sendable, Hashable {
    package var key: PolicyKey
    package var value: String

    package init(_ key: PolicyKey, _ value: String) {
        self.key = key
        self.value = value
    }

    /// `observer launch`
    package var words: String { "\(key.rawValue) \(value)" }
}

/// What the replays say about one anomaly of a run.
package struct AnomalyExplanation: Sendable, Hashable {
    package var anomalyId: Int
    /// Left `open` or `permanent` by the run's verdict.
    var endsBadly: Bool
    /// The smallest set of injected inputs without which it does not open; empty when it
    /// opens without any of them (or the run injected none).
    package var causedBy: [ReplayStep]
    /// The replays that would find the cause were not played (their budget): `causedBy` is
    /// empty and says nothing.
    package var causeUnknown = false
    /// The smallest sets of policy changes after which it ends well and nothing new ends
    /// badly, each one alternative; empty when it ends well, or when nothing within one or
    /// two changes does it.
    package var preventedBy: [[PolicyChange]]
    /// The settings in effect whose change to the other policy's value makes it end badly:
    /// each alone (so each is needed: ` + `), or (`savedTogether`) only both at once (so
    /// either alone is enough: ` | `). A setting that matters only through another one (a
    /// token a binding server asks for) is left out.
    package var savedBy: [PolicyChange]
    package var savedTogether = false
    /// Every way the settings in effect put it right, when there is more than one that
    /// holds several settings (`SavingReplays.alternatives`); else empty.
    package var savedWays: [[PolicyChange]] = []
    /// Changes that kept it from ending badly but are no fix, since another anomaly ends
    /// badly after them (at most `SetBack.kept`): why an alternative the other side names is
    /// missing here (walkthrough 6, N4).
    package var setBacks: [SetBack] = []
}

/// A change that kept an anomaly from ending badly and made another end badly: no fix.
package struct SetBack: Sendable, Hashable {
    package var changes: [PolicyChange]
    /// The types of the anomalies that end badly after it and did not before.
    package var opens: [AnomalyType]
    /// The most kept per anomaly.
    static let kept = 3

    /// `server-notifications true + server-clawback full: double-credit, refund-overclawed end
    /// badly after it`
    package var words: String {
        changes.map(\.words).joined(separator: " + ") + ": "
            + opens.map(\.rawValue).joined(separator: ", ") + (opens.count > 1 ? " end" : " ends") + " badly after it"
    }
}

/// An anomaly that ends badly under the other policy and not under the run's own: what the
/// run's policy avoided, and by which of its settings.
package struct AvoidedAnomaly: Sendable, Hashable {
    package var identity: AnomalyIdentity
    /// What the other policy's run called it: `lost-order o1`.
    package var words: String
    package var savedBy: [PolicyChange]
    package var together = false
    /// As `AnomalyExplanation.savedWays`.
    package var savedWays: [[PolicyChange]] = []
    /// It opened on this side too (and ended well): put right, not kept from happening.
    package var happenedHere = false
    /// When no setting of this side is named (`savedBy` empty): the hardening changes that
    /// stop it on the side that had it (its `preventedBy` there).
    package var preventedThere: [[PolicyChange]] = []
}

/// The replays' answers for a whole run.
package struct WhatIfReport: Sendable, Hashable {
    package var explanations: [AnomalyExplanation]
    package var avoided: [AvoidedAnomaly]
    /// The policy the run was set beside (saved-by's other values).
    package var other: Policy
    /// How many replays it took.
    package var replays: Int
    /// How many events they processed, the replay of the run as it was left out
    /// (`WhatIf.replayEventBudget`).
    package var events: Int
    /// Why the replays were not run (a file too long for them to be cheap), if they were not.
    package var notWorkedOut: String? = nil

    package init(
        explanations: [AnomalyExplanation], avoided: [AvoidedAnomaly], other: Policy, replays: Int, events: Int = 0,
        notWorkedOut: String? = nil
    ) {
        self.explanations = explanations
        self.avoided = avoided
        self.other = other
        self.replays = replays
        self.events = events
        self.notWorkedOut = notWorkedOut
    }

    package func explanation(of id: Int) -> AnomalyExplanation? {
        explanations.first { $0.anomalyId == id }
    }
}

/// Causes and fixes, found by replay (the auditor's "caused by", "prevented by" and "saved
/// by"). Pure and deterministic: every replay builds its own world from the run's inputs,
/// so the run itself and its log never change. Replays are remembered by (policy, inputs
/// removed): one replay answers for every anomaly of the run at once.
package struct WhatIf: Sendable {
    package let input: ReplayInput
    var cache: [ReplayKey: ReplayVerdict] = [:]
    package internal(set) var replays = 0
    /// The events the replays processed, the replay of the run as it was left out
    /// (`replayEventBudget`).
    package internal(set) var events = 0
    /// Whether a replay was skipped or cut short for the budget (`replayEventBudget`,
    /// `replayStepBudget`).
    package internal(set) var budgetSpent = false
    /// The replay without every injected input could not be played: no anomaly's cause is
    /// known, and none is said to have none.
    package internal(set) var unknownCauses = false
    /// For each anomaly the search for fixes met: changes that kept it from ending badly but
    /// made another one end badly, so they are no fix (`SetBack`), in the order tried.
    var setBacks: [AnomalyIdentity: [SetBack]] = [:]

    struct ReplayKey: Hashable {
        var policy: Policy
        var removed: [Int]
    }

    /// Plays the inputs in place of `ReplayInput.replay` (nil: that one): the world they end
    /// in under a policy without the steps at the removed indices, and when each step ran;
    /// nil when it cannot say (the replay is then taken to change nothing, as past the budget).
    /// A world whose app is real code (the `IAPSimStoreKit` harness) replays that code this way.
    package var replayer: (@Sendable (Policy, Set<Int>) -> (world: Simulation, stepTimes: [VirtualTime])?)?

    package init(_ input: ReplayInput) { self.input = input }

    /// The most events the replays of one report may process in all, the replay of the run
    /// as it was left out (it costs what the run cost): the world's own work, so that a file
    /// whose steps each cost thousands of events (`wait 400d` of a subscription, an outage
    /// retried for 720 hours) costs no more than one whose steps are cheap. A replay that
    /// reaches it stops there and, like every replay after it, is taken to change nothing (so
    /// no cause, fix or saving setting is claimed from it), and the report says its answers
    /// are partial. The shipped scenarios' replays use at most 52,000 events, bench/whatif.sh's file of
    /// 100 anomalies 120,000.
    package static let replayEventBudget = 400_000
    /// The most steps the replays of one report may play in all (each replays the whole file):
    /// a step may cost no event at all, and a file of hundreds of them would otherwise cost
    /// hundreds of whole runs per answer.
    package static let replayStepBudget = 60_000
    /// However long the file, at least this many replays are played (within the event budget).
    static let minimumReplays = 24

    /// How many replays this file's step budget allows.
    var replayBudget: Int { max(Self.minimumReplays, Self.replayStepBudget / max(input.steps.count, 1)) }

    /// The verdict of the inputs under `policy`, without the steps at `removed`; past the
    /// budget, the run's own verdict.
    mutating func verdict(_ policy: Policy, removing removed: Set<Int> = []) -> ReplayVerdict {
        let key = ReplayKey(policy: policy, removed: removed.sorted())
        if let known = cache[key] { return known }
        let asRun = removed.isEmpty && policy == input.policy
        var times: [VirtualTime] = []
        guard let world = replayWithinBudget(policy, removing: removed, stepTimes: &times, asRun: asRun) else {
            return verdict(input.policy)
        }
        let verdict = ReplayVerdict(world, attacks: attacks(removing: removed), stepTimes: times, removed: removed)
        cache[key] = verdict
        return verdict
    }

    /// The world the inputs end in under `policy` without the steps at `removed`; nil when
    /// the budget is spent, before or during the replay (`budgetSpent` is then set). The
    /// replay of the run as it was (`asRun`) is always played, and not counted.
    mutating func replayWithinBudget(
        _ policy: Policy, removing removed: Set<Int> = [], stepTimes: inout [VirtualTime], asRun: Bool = false
    ) -> Simulation? {
        let left = Self.replayEventBudget - events
        guard asRun || (replays < replayBudget && left > 0) else {
            budgetSpent = true
            return nil
        }
        replays += 1
        let world: Simulation
        if let replayer {
            guard let played = replayer(policy, removed) else {
                budgetSpent = true
                return nil
            }
            (world, stepTimes) = played
        } else {
            world = input.replay(
                policy: policy, removing: removed, stepTimes: &stepTimes, eventLimit: asRun ? .max : left)
        }
        guard !asRun else { return world }
        events += world.eventsProcessed
        guard !world.eventLimitReached else {
            budgetSpent = true
            return nil
        }
        return world
    }

    /// Explains every anomaly of `run` (the world the run ended with), set beside `other`
    /// (nil: the other preset of the run's, `PolicyPreset.other`).
    package mutating func report(for run: Simulation, against explicit: Policy? = nil) -> WhatIfReport {
        let other = explicit ?? input.preset.other.policy
        let anomalies = run.auditor.anomalies
        let identities = AnomalyIdentity.all(in: run, attacks: attacks(removing: []))
        let bad = zip(anomalies, identities).filter { $0.0.status.isUnresolved }.map(\.1)
        let good = zip(anomalies, identities).filter { !$0.0.status.isUnresolved }.map(\.1)
        let causes = causedBy(identities)
        let fixes = preventedBy(bad, before: bad)
        var times: [VirtualTime] = []
        let otherWorld = replayWithinBudget(other, stepTimes: &times)
        var saving = SavingReplays(replays: [], targets: [])
        var avoided = otherWorld.map { self.avoided(by: run, under: $0, saving: saving) } ?? []
        // What saved an anomaly is asked only when one ended well here, or only here: a run
        // with none would spend a replay per setting on answers nobody reads.
        if !good.isEmpty || !avoided.isEmpty {
            (saving, avoided) = savings(of: good, towards: explicit, run: run, otherWorld: otherWorld)
        }
        if let otherWorld { avoided = preventedThere(avoided, other: other, otherWorld: otherWorld) }
        let live = liveSavings(of: good)
        // One put right by no setting of this policy: what would have kept it from happening.
        let quiet = good.filter { saving.keys(saving: $0).isEmpty && live[$0] == nil }
        let quietFixes = quiet.isEmpty ? [:] : preventedBy(quiet, before: bad, opening: true)
        var explanations: [AnomalyExplanation] = []
        for (a, identity) in zip(anomalies, identities) {
            let endsBadly = a.status.isUnresolved
            let ways = endsBadly || live[identity] != nil ? [] : saving.alternatives(saving: identity)
            var explanation = AnomalyExplanation(
                anomalyId: a.id, endsBadly: endsBadly,
                causedBy: causes[identity] ?? [], causeUnknown: unknownCauses,
                preventedBy: (endsBadly ? fixes[identity] : quietFixes[identity]) ?? [],
                savedBy: endsBadly ? [] : Self.union(saving.keys(saving: identity), live[identity] ?? []),
                savedTogether: !endsBadly && live[identity] == nil && saving.together(identity))
            if ways.count > 1, !explanation.savedTogether {
                explanation.savedWays = ways
                explanation.savedBy = ways.reduce([]) { Self.union($0, $1) }
            }
            if endsBadly { explanation.setBacks = setBacks[identity] ?? [] }
            explanations.append(explanation)
        }
        return WhatIfReport(
            explanations: explanations, avoided: avoided, other: other, replays: replays, events: events,
            notWorkedOut: budgetSpent ? partialNote : nil)
    }

    /// The settings that saved `good` (the run's anomalies that end well) and the anomalies
    /// `otherWorld` (the inputs under the other policy) left badly that the run did not, with
    /// those anomalies: single settings towards `explicit` (nil: both presets of the run's
    /// world), and pairs when some anomaly no single setting saved.
    mutating func savings(
        of good: [AnomalyIdentity], towards explicit: Policy?, run: Simulation, otherWorld: Simulation?
    ) -> (SavingReplays, [AvoidedAnomaly]) {
        let targets = explicit.map { [$0] } ?? PolicyPreset.presets(in: input.policy.storekit).prefix(2).map(\.policy)
        var saving = savedBy(towards: targets)
        let theirs = otherWorld.map { AnomalyIdentity.all(in: $0, attacks: attacks(removing: [])) } ?? []
        addMechanismChecks(
            to: &saving, for: good + theirs, run: AnomalyIdentity.all(in: run, attacks: attacks(removing: [])))
        addBesidePairs(to: &saving, for: good + theirs, run: ReplayVerdict(run, attacks: attacks(removing: [])))
        var avoided = otherWorld.map { self.avoided(by: run, under: $0, saving: saving) } ?? []
        if good.contains(where: { saving.keys(saving: $0).isEmpty }) || avoided.contains(where: { $0.savedBy.isEmpty })
        {
            addPairs(to: &saving)
            avoided = otherWorld.map { self.avoided(by: run, under: $0, saving: saving) } ?? []
        }
        return (saving, avoided)
    }

    /// What a report whose replays stopped at the budget says.
    var partialNote: String {
        "partly worked out: the replays stopped at their budget (\(Self.replayEventBudget) events in all, "
            + "or \(replayBudget) replays of this file's \(input.steps.count) steps); "
            + "causes, fixes, savings and avoided anomalies past it are not listed"
    }

    /// The attack inputs a replay without `removed` plays, in order.
    func attacks(removing removed: Set<Int>) -> [Int] {
        input.steps.indices.filter { i in
            guard !removed.contains(i) else { return false }
            switch input.steps[i].command {
            case .replay, .forge: return true
            case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall,
                .login, .logout, .network, .networkFault, .storeFault, .askToBuy, .approve, .decline,
                .serverOutage, .serverAPIFault, .refundLoop, .spend, .subscription, .heal, .setPolicy,
                .setPreset, .wait, .settle:
                return false
            }
        }
    }

    /// The keys of the run's world, from the policy key table.
    package static func keys(in policy: Policy) -> [PolicyKey] {
        PolicyKey.shown(in: policy.storekit)
    }
}
