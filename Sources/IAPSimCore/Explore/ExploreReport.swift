/// What a batch of explored runs found: counts per anomaly type and status, the runs
/// that ended with something unresolved, and the first such run per type.
package struct ExploreReport: Sendable, Hashable {
    package var runs: Int
    /// Engine events over every run.
    package var events: Int
    /// Log facts over every run.
    package var facts: Int
    /// Anomalies counted by (type, status), over every run.
    package var counts: [AnomalyKey: Int]
    /// Per type: how many runs ended with it unresolved.
    package var failingRuns: [AnomalyType: Int]
    /// Per type: the `candidateCount` lowest-index runs that ended with it unresolved, lowest
    /// first: the runs explore shrinks, its finding the shortest shrunk one (ties by index).
    /// A shard's candidates hold every candidate of the whole explore that it ran: one of the
    /// whole explore's first four is among the first four of its shard.
    package var candidates: [AnomalyType: [RunOutcome]]
    /// How many failing runs a type keeps to shrink.
    package static let candidateCount = 4

    /// Per type: the lowest-index run that ended with it unresolved.
    package var firstFailure: [AnomalyType: RunOutcome] { candidates.compactMapValues(\.first) }

    /// Builds the report; the outcomes may come in any order.
    package init(_ outcomes: [RunOutcome]) {
        self.init()
        for o in outcomes { add(o) }
    }

    /// An empty report, for `add` and `merge`: explore folds each run in as it ends, so its
    /// memory does not grow with the run count.
    package init() {
        runs = 0
        events = 0
        facts = 0
        counts = [:]
        failingRuns = [:]
        candidates = [:]
        failingRunCount = 0
    }

    /// Counts one run. Every field is a sum or the lowest indices: the order in which runs
    /// are added does not change the report.
    package mutating func add(_ o: RunOutcome) {
        runs += 1
        events += o.events
        facts += o.facts
        if !o.failures.isEmpty {
            failingRunCount += 1
            failingRunTypes[o.index] = o.failures
        }
        for key in o.anomalies { counts[key, default: 0] += 1 }
        for type in o.failures {
            failingRuns[type, default: 0] += 1
            keep(type, [o])
        }
    }

    /// Adds another report's runs (those of another thread).
    package mutating func merge(_ other: ExploreReport) {
        runs += other.runs
        events += other.events
        facts += other.facts
        failingRunCount += other.failingRunCount
        counts.merge(other.counts, uniquingKeysWith: +)
        failingRuns.merge(other.failingRuns, uniquingKeysWith: +)
        failingRunTypes.merge(other.failingRunTypes) { a, _ in a }
        for (type, runs) in other.candidates { keep(type, runs) }
    }

    /// Keeps the `candidateCount` lowest indices of `type`'s candidates and `runs`.
    private mutating func keep(_ type: AnomalyType, _ runs: [RunOutcome]) {
        var kept = candidates[type] ?? []
        if kept.count == Self.candidateCount, let last = kept.last, runs.allSatisfy({ $0.index > last.index }) {
            return
        }
        kept += runs
        kept.sort { $0.index < $1.index }
        candidates[type] = Array(kept.prefix(Self.candidateCount))
    }

    /// Anomalies that ended open or permanent (a replay that succeeded is permanent).
    package var unresolved: Int {
        counts.reduce(0) { $0 + ($1.key.status.isUnresolved ? $1.value : 0) }
    }

    /// Runs that ended with at least one unresolved anomaly.
    package var failingRunCount: Int
    /// Each failing run's index and the types it left unresolved (`--junit`: one testcase a
    /// run); passing runs are not kept, so memory grows with the failures only.
    package var failingRunTypes: [Int: [AnomalyType]] = [:]

    /// True when no run ended with an open or permanent anomaly (replays blocked).
    package var clean: Bool { failingRuns.isEmpty }

    package func count(_ type: AnomalyType, _ status: AnomalyStatus) -> Int {
        counts[AnomalyKey(type: type, status: status)] ?? 0
    }

    /// The share of runs that ended with `type` unresolved, from 0 to 1.
    package func share(_ type: AnomalyType) -> Double {
        runs == 0 ? 0 : Double(failingRuns[type] ?? 0) / Double(runs)
    }
}
