import Foundation
import IAPSimCore

/// Runs explorer indices on `jobs` threads. Each run depends only on its index, so the
/// outcomes are the same for any number of jobs; only the timing differs.
enum ParallelRuns {
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var outcomes: [[RunOutcome]]
        init(_ jobs: Int) { outcomes = Array(repeating: [], count: jobs) }
        func put(_ job: Int, _ runs: [RunOutcome]) {
            lock.lock()
            outcomes[job] = runs
            lock.unlock()
        }
    }

    static func run(_ explorer: Explorer, range: Range<Int>, jobs: Int,
                    progress: (@Sendable (Int) -> Void)? = nil) -> [RunOutcome] {
        let jobs = max(1, min(jobs, range.count))
        let box = Box(jobs)
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var mine: [RunOutcome] = []
            var i = range.lowerBound + job
            while i < range.upperBound {
                mine.append(explorer.run(i))
                i += jobs
                if let progress, counter.increment() % 500 == 0 { progress(counter.value) }
            }
            box.put(job, mine)
        }
        return box.outcomes.flatMap { $0 }.sorted { $0.index < $1.index }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
        func increment() -> Int { lock.lock(); defer { lock.unlock() }; n += 1; return n }
    }
}
