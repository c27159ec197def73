import Foundation
import IAPSimStoreKit
import PurchaseManager
import Testing

/// Explore: random schedules of purchases and faults around the example's manager.
@Suite struct ExploreTests {
    static let runs = Int(ProcessInfo.processInfo.environment["IAPSIM_EXPLORE_RUNS"] ?? "") ?? 1_000

    /// The manager passes every run: nothing unresolved, no money lost either side.
    @Test func theManagerPassesAThousandRuns() async throws {
        let (store, _) = try await launched(users: ["alice", "bob"])
        let report = try await store.explore(runs: Self.runs, seed: 1, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(report.runs == Self.runs)
        #expect(report.passed, "\(report)")
        #expect(store.stallsTaken == 0)
    }

    /// Each planted bug: explore finds it, names its anomaly, and shrinks the run to a short
    /// reproduction that `play` replays to the same anomaly. A listener that starts late
    /// loses what the app never saw (lost-order) or, after a crash, what it saw and could not
    /// report (missed-order): explore finds whichever comes first.
    @Test(arguments: [
        (PurchaseManager.PlantedBug.listenerOnStoreScreen, ["lost-order", "missed-order"]),
        (.finishBeforeAnswer, ["missed-order"]),
        (.noToken, ["wrong-account"]),
        (.ignoredPending, ["missed-order"]),
    ])
    func explorationFindsEachPlantedBug(bug: PurchaseManager.PlantedBug, anomalies: [String]) async throws {
        let (store, _) = try await launched(bug, users: ["alice", "bob"])
        let report = try await store.explore(runs: 1_000, seed: 1, stopAfter: 1, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        let failure = try #require(report.firstFailure, "\(report)")
        #expect(report.failedRuns == 1)
        let anomaly = try #require(failure.verdict.unresolved.first?.type, "\(report)")
        #expect(anomalies.contains(anomaly), "\(report)")
        #expect(failure.reproduction.count <= failure.steps.count)
        #expect(failure.reproduction.count <= 6, "\(report)")
        let again = try await store.play(failure.reproduction, seed: failure.seed, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(again.unresolved.first?.type == anomaly, "\(again)")
    }

    /// Swarm draws (`swarm: true`, each run its own mix of fault families): explore still
    /// finds each planted bug, and the same seed finds it in the same run, with the same steps.
    @Test(arguments: [
        PurchaseManager.PlantedBug.listenerOnStoreScreen, .finishBeforeAnswer, .noToken, .ignoredPending,
    ])
    func swarmFindsEachPlantedBugAndReplaysIt(bug: PurchaseManager.PlantedBug) async throws {
        let (store, _) = try await launched(bug, users: ["alice", "bob"])
        func explore() async throws -> ExploreReport {
            try await store.explore(runs: 1_000, seed: 1, stopAfter: 1, swarm: true, as: PurchaseManager.self) {
                _ = try await $0.buy("coins_100")
            }
        }
        let first = try #require(try await explore().firstFailure)
        let again = try #require(try await explore().firstFailure)
        #expect(first.run == again.run)
        #expect(first.seed == again.seed)
        #expect(first.steps == again.steps)
        #expect(!first.verdict.unresolved.isEmpty || !first.verdict.isClean)
    }
}
