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
    /// Per type: the lowest-index run that ended with it unresolved.
    package var firstFailure: [AnomalyType: RunOutcome]

    /// Builds the report; the outcomes may come in any order (they are sorted by index).
    package init(_ outcomes: [RunOutcome]) {
        runs = outcomes.count
        events = 0
        facts = 0
        counts = [:]
        failingRuns = [:]
        firstFailure = [:]
        failingRunCount = 0
        for o in outcomes.sorted(by: { $0.index < $1.index }) {
            events += o.events
            facts += o.facts
            if !o.failures.isEmpty { failingRunCount += 1 }
            for key in o.anomalies { counts[key, default: 0] += 1 }
            for type in o.failures {
                failingRuns[type, default: 0] += 1
                if firstFailure[type] == nil { firstFailure[type] = o }
            }
        }
    }

    /// Anomalies that ended open or permanent (a replay that succeeded is permanent).
    package var unresolved: Int {
        counts.reduce(0) { $0 + ($1.key.status.isUnresolved ? $1.value : 0) }
    }

    /// Runs that ended with at least one unresolved anomaly.
    package var failingRunCount: Int

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
