import Foundation
import IAPSimCore

/// Runs explorer indices on `jobs` threads. Each run depends only on its index, so the
/// outcomes are the same for any number of jobs; only the timing differs.
enum ParallelRuns {
    /// What a progress report says: runs done so far, and the unresolved anomalies in them.
    struct Progress: Sendable {
        var runs = 0
        var unresolved = 0
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var outcomes: [[RunOutcome]]
        private var progress = Progress()
        init(_ jobs: Int) { outcomes = Array(repeating: [], count: jobs) }
        func put(_ job: Int, _ runs: [RunOutcome]) {
            lock.lock()
            outcomes[job] = runs
            lock.unlock()
        }
        /// Counts one finished run; returns the totals so far.
        func count(_ outcome: RunOutcome) -> Progress {
            lock.lock()
            defer { lock.unlock() }
            progress.runs += 1
            progress.unresolved += outcome.anomalies.filter(\.status.isUnresolved).count
            return progress
        }
    }

    /// `progress` is called every `every` runs (from any of the threads).
    static func run(
        _ explorer: Explorer, range: Range<Int>, jobs: Int, every: Int = 500,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) -> [RunOutcome] {
        let jobs = max(1, min(jobs, range.count))
        let box = Box(jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var mine: [RunOutcome] = []
            var i = range.lowerBound + job
            while i < range.upperBound {
                let outcome = explorer.run(i)
                mine.append(outcome)
                // Near Int.max (a large --skip) the next index may not exist.
                let (next, overflow) = i.addingReportingOverflow(jobs)
                if overflow { break }
                i = next
                if let progress {
                    let sofar = box.count(outcome)
                    if sofar.runs % every == 0 { progress(sofar) }
                }
            }
            box.put(job, mine)
        }
        return box.outcomes.flatMap { $0 }.sorted { $0.index < $1.index }
    }
}
