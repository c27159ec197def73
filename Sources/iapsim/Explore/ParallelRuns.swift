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

    /// Runs `shard`'s run indices in `range` (every index without one).
    /// `progress` is called every `every` runs (from any of the threads).
    static func run(
        _ explorer: Explorer, range: Range<Int>, shard: Shard = .whole, jobs: Int, every: Int = 500,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) -> ExploreReport {
        let count = shard.runs(in: range)
        let jobs = max(1, min(jobs, count))
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var mine = ExploreReport()
            // Each run restarts the thread's world, which keeps the room of its lists.
            var world: Simulation?
            // Counted by the shard's k-th run, not by index: near Int.max (a large --skip)
            // the next index may not exist.
            var k = job
            while k < count {
                let outcome = explorer.run(shard.run(k, in: range), in: &world)
                mine.add(outcome)
                k += jobs
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
