import Foundation
import IAPSimCore

/// Runs explorer indices on `jobs` threads. Each run depends only on its index, so the
/// report is the same for any number of jobs; only the timing differs. Each run is folded
/// into its thread's report as it ends: memory does not grow with the number of runs.
enum ParallelRuns {
    /// What a progress report says: runs done so far, and the unresolved anomalies in them.
    struct Progress: Sendable {
        var runs = 0
        var unresolved = 0
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var report = ExploreReport()
        private var progress = Progress()
        func put(_ runs: ExploreReport) {
            lock.lock()
            report.merge(runs)
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
    ) -> ExploreReport {
        let jobs = max(1, min(jobs, range.count))
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var mine = ExploreReport()
            // Each run restarts the thread's world, which keeps the room of its lists.
            var world: Simulation?
            var i = range.lowerBound + job
            while i < range.upperBound {
                let outcome = explorer.run(i, in: &world)
                mine.add(outcome)
                // Near Int.max (a large --skip) the next index may not exist.
                let (next, overflow) = i.addingReportingOverflow(jobs)
                if overflow { break }
                i = next
                if let progress {
                    let sofar = box.count(outcome)
                    if sofar.runs % every == 0 { progress(sofar) }
                }
            }
            box.put(mine)
        }
        return box.report
    }
}
