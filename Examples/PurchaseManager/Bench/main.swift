import Foundation
import IAPSimStoreKit
import PurchaseManager

// The figures of bench/app-code.sh: a harness run of one purchase under a fault, and 1,000
// explore runs of the example's manager. Prints; asserts nothing.

struct Keychain: OrderKeychain {
    let storage: SimulatedStorage
    func orders() -> [String: String] {
        storage.data("orders").flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }
    func save(_ orders: [String: String]) { storage.set(try? JSONEncoder().encode(orders), for: "orders") }
}

func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

let store = try SimulatedStore(serverPolicy: .appDependent, users: ["alice", "bob"])
if let us = ProcessInfo.processInfo.environment["IAPSIM_QUIET_US"].flatMap(Int.init) {
    store.quietPeriod = .microseconds(us)
}
_ = await store.launch {
    PurchaseManager(
        configuration: store.urlSessionConfiguration, baseURL: store.routes.baseURL, clock: store.clock,
        keychain: Keychain(storage: store.storage), account: { store.currentUser })
}
let buy: @Sendable (PurchaseManager) async throws -> Void = { _ = try await $0.buy("coins_100") }
let clock = ContinuousClock()

// `purchase-manager-bench findings`: what explore finds in each planted bug, shrunk.
if CommandLine.arguments.dropFirst().first == "findings" {
    let bugs: [(String, PurchaseManager.PlantedBug)] = [
        ("listener on the store screen", .listenerOnStoreScreen), ("finish before the answer", .finishBeforeAnswer),
        ("no token", .noToken), ("ignored .pending", .ignoredPending),
    ]
    for (name, bug) in bugs {
        let buggy = try SimulatedStore(serverPolicy: .appDependent, users: ["alice", "bob"])
        _ = await buggy.launch {
            PurchaseManager(
                configuration: buggy.urlSessionConfiguration, baseURL: buggy.routes.baseURL, clock: buggy.clock,
                keychain: Keychain(storage: buggy.storage), account: { buggy.currentUser }, bugs: bug)
        }
        let report = try await buggy.explore(runs: 1_000, seed: 1, stopAfter: 1, user: buy)
        print("== \(name)\n\(report)\n")
    }
    exit(0)
}

// `purchase-manager-bench zoo SEEDS RUNS [off,on]`: for each planted bug, swarm off and on, each seed
// 1...SEEDS, the runs explore plays to its first failing run (RUNS + 1: none within RUNS), one
// line each: `BUG off|on SEED RUNS TYPE` (bench/zoo.sh reads them).
if CommandLine.arguments.dropFirst().first == "zoo" {
    let seeds = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 20
    let limit = Int(CommandLine.arguments.dropFirst(3).first ?? "") ?? 10_000
    let modes = (CommandLine.arguments.dropFirst(4).first ?? "off,on").split(separator: ",").map { $0 == "on" }
    let bugs: [(String, PurchaseManager.PlantedBug)] = [
        ("listener-on-store-screen", .listenerOnStoreScreen), ("finish-before-answer", .finishBeforeAnswer),
        ("no-appAccountToken", .noToken), ("ignored-pending", .ignoredPending),
    ]
    for (name, bug) in bugs {
        let buggy = try SimulatedStore(serverPolicy: .appDependent, users: ["alice", "bob"])
        _ = await buggy.launch {
            PurchaseManager(
                configuration: buggy.urlSessionConfiguration, baseURL: buggy.routes.baseURL, clock: buggy.clock,
                keychain: Keychain(storage: buggy.storage), account: { buggy.currentUser }, bugs: bug)
        }
        for swarm in modes {
            for seed in 1...seeds {
                let report = try await buggy.explore(
                    runs: limit, seed: UInt64(seed), stopAfter: 1, swarm: swarm, user: buy)
                let runs = report.firstFailure.map { $0.run + 1 } ?? limit + 1
                let type = report.firstFailure?.verdict.unresolved.first?.type ?? "-"
                print("\(name) \(swarm ? "on" : "off") \(seed) \(runs) \(type)")
            }
        }
    }
    exit(0)
}

let purchases = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200
var clean = 0
let start = clock.now
for i in 0..<purchases {
    let v = try await store.play(["drop-next-response recharge", "buy"], seed: UInt64(i + 1), user: buy)
    if v.isClean { clean += 1 }
}
let each = ms(clock.now - start) / Double(purchases)
print(
    String(
        format: "purchase with a fault (drop-next-response recharge): %.2f ms a run, %d runs, %d clean", each,
        purchases, clean))

let runs = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1_000
let exploreStart = clock.now
let report = try await store.explore(runs: runs, seed: 1, user: buy)
let total = ms(clock.now - exploreStart) / 1000
print(
    String(
        format: "explore: %d runs in %.2f s (%.2f ms a run), %d failed", report.runs, total,
        total * 1000 / Double(report.runs), report.failedRuns))
print("stalls taken: \(store.stallsTaken); quiet period after a launch: \(store.quietPeriod)")

// The what-if of one verdict: a replayed report credited again by a server without dedup,
// explained by replaying the run with the app (a replay per candidate setting).
let naive = try SimulatedStore(serverPolicy: .naive)
_ = await naive.launch {
    PurchaseManager(
        configuration: naive.urlSessionConfiguration, baseURL: naive.routes.baseURL, clock: naive.clock,
        keychain: Keychain(storage: naive.storage), account: { naive.currentUser })
}
_ = try await naive.play(["buy", "wait 5s", "replay"], seed: 1, user: buy)
let whatIfStart = clock.now
let explained = await naive.verdict()
let whatIfMs = String(format: "%.0f", ms(clock.now - whatIfStart))
print(
    "verdict with its what-if (replay-fraud under a naive server): \(whatIfMs) ms; "
        + (explained.anomalies.first?.preventedBy ?? "no anomaly"))
