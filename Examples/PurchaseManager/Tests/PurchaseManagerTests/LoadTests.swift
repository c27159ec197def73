import Foundation
import IAPSimStoreKit
import PurchaseManager
import Testing

/// The harness's results do not depend on how loaded the machine is: the same explore seed
/// gives the same report, failure and shrunk reproduction with a thread burning a core.
@Suite(.serialized) struct LoadTests {
    @Test func theSameSeedGivesTheSameReportUnderLoad() async throws {
        let quiet = try await Self.explore()
        let burning = Burner(threads: ProcessInfo.processInfo.activeProcessorCount)
        let loaded = try await Self.explore()
        burning.stop()
        #expect(burning.spins > 0)
        #expect(quiet == loaded, "quiet:\n\(quiet)\nloaded:\n\(loaded)")
        #expect(quiet.contains("0 failed once"), "\(quiet)")
    }

    /// 200 explore runs of the manager finishing before the server's answer: the report, the
    /// first failure shrunk and explained, and how many runs depended on wall time.
    static func explore() async throws -> String {
        let (store, _) = try await launched(.finishBeforeAnswer, users: ["alice", "bob"])
        let report = try await store.explore(runs: 200, seed: 3, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        return "\(report)\n\(report.unconfirmedRuns) failed once; stalls \(store.stallsTaken)"
    }
}

/// Threads that spin until stopped: cores taken from the app's tasks and the harness.
final class Burner: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var count = 0

    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                while self.lock.withLock({ running }) {
                    var x = 0
                    for i in 0..<10_000 { x &+= i }
                    lock.withLock { count &+= x & 1 | 1 }
                }
            }
        }
    }

    var spins: Int { lock.withLock { count } }
    func stop() { lock.withLock { running = false } }
}
