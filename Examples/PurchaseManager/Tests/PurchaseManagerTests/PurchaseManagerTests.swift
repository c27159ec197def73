import Foundation
import IAPSimStoreKit
import PurchaseManager
import Testing

/// The example's purchase manager under the harness: a purchase, the shipped faults, and
/// each planted bug failing with its anomaly.
@Suite struct PurchaseManagerTests {
    @Test func aPurchaseIsCreditedOnceAndFinished() async throws {
        let (store, app) = try await launched()
        let buy = await store.user { try await app.buy("coins_100") }
        await store.settle()
        #expect(try await buy.value == .credited)
        let verdict = await store.verdict()
        #expect(verdict.isClean, "\(verdict)")
        #expect(verdict.balances["alice"] == 100)
        #expect(verdict.lines.contains("queue: 0 unfinished transaction(s)"))
    }

    /// One purchase under each shipped fault (and a crash at the worst moments): every charge
    /// is credited once, nothing is left open, against the server that relies on the app.
    @Test(arguments: [
        ["drop-next-request order", "buy"],
        ["drop-next-response order", "buy"],
        ["drop-next-request recharge", "buy"],
        ["drop-next-response recharge", "buy"],
        ["drop-next-request recharge", "buy", "wait 3s", "crash", "launch"],
        ["drop-next-response recharge", "buy", "wait 3s", "crash", "launch"],
        ["interrupt-next-payment", "buy"],
        ["interrupt-next-payment", "buy", "wait 10s", "crash", "launch"],
        ["fail-next-payment network", "buy"],
        ["fail-next-payment cancelled", "buy"],
        ["ask-to-buy on", "buy", "wait 5s", "approve"],
        ["ask-to-buy on", "buy", "wait 5s", "crash", "launch", "approve"],
        ["network off", "buy", "wait 5s", "network on", "buy"],
        ["buy", "wait 2100ms", "background", "wait 1m", "foreground"],
        ["latency recharge 40s", "buy", "wait 3s", "crash", "launch"],
        ["server-outage on", "buy", "wait 10s", "server-outage off"],
    ])
    func theShippedFaultsEndClean(_ steps: [String]) async throws {
        let (store, _) = try await launched()
        let verdict = try await store.play(steps, seed: 1, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(verdict.isClean, "\(steps): \(verdict)")
    }

    /// Each planted bug, in the scenario that shows it: the auditor names the anomaly, and
    /// the correct manager ends the same scenario clean.
    @Test(arguments: [
        (
            PurchaseManager.PlantedBug.listenerOnStoreScreen, "lost-order",
            ["interrupt-next-payment", "buy", "wait 10s", "crash", "launch"]
        ),
        (.finishBeforeAnswer, "missed-order", ["drop-next-request recharge", "buy", "wait 3s", "crash", "launch"]),
        (.noToken, "wrong-account", ["interrupt-next-payment", "buy", "wait 5s", "logout", "login bob"]),
        (.ignoredPending, "missed-order", ["ask-to-buy on", "buy", "wait 5s", "approve"]),
    ])
    func eachPlantedBugFailsWithItsAnomaly(bug: PurchaseManager.PlantedBug, anomaly: String, steps: [String])
        async throws
    {
        let (buggy, _) = try await launched(bug, users: ["alice", "bob"])
        let bad = try await buggy.play(steps, seed: 1, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(bad.unresolved.map(\.type) == [anomaly], "\(bad)")
        let (fixed, _) = try await launched(users: ["alice", "bob"])
        let good = try await fixed.play(steps, seed: 1, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(good.isClean, "\(good)")
    }

    /// The same app, seed and steps give the same verdict, line for line.
    @Test func theSameRunGivesTheSameVerdict() async throws {
        let steps = ["drop-next-response recharge", "buy", "wait 3s", "crash", "launch", "buy"]
        var seen: [[String]] = []
        for _ in 0..<3 {
            let (store, _) = try await launched(.finishBeforeAnswer)
            let v = try await store.play(steps, seed: 9, as: PurchaseManager.self) { app in
                _ = try await app.buy("coins_100")
            }
            seen.append(v.lines)
        }
        #expect(seen[0] == seen[1] && seen[1] == seen[2], "\(seen)")
    }
}
