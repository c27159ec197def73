import Foundation
import IAPSimStoreKit
import IAPSimStoreKitServe
import PurchaseManager
import Testing

/// The example's purchase manager against a real backend: iapsim's reference backend
/// (tools/refbackend: Python, sqlite, Apple's app-store-server-library verifying every JWS and
/// reconciling through the App Store Server API iapsim serves), spawned as `iapsim serve
/// --spawn` spawns it. The app's requests cross the simulated network to it; the auditor reads
/// its ledger. Needs the venv with Apple's library (IAPSIM_APPLE_PYTHON or .venv-apple).
@Suite(.serialized, .enabled(if: applePython != nil, "no Python with Apple's library (IAPSIM_APPLE_PYTHON)"))
struct BackendTests {
    static let python = applePython

    /// The reference backend's own words (tools/refbackend/README.md): the app speaks them.
    static let endpoints = PurchaseManager.Endpoints(
        orders: "orders", report: "apple/report", productField: "productId")

    /// The reference backend, with `bugs` switched on (its `BUGS`), for one test.
    static func backend(bugs: String = "") throws -> ServedBackend {
        let env = bugs.isEmpty ? "" : "BUGS=\(bugs) "
        return try ServedBackend(
            serveConfig: "tools/refbackend/serve.yaml",
            spawn: "\(env)\(python ?? "python3") tools/refbackend/refbackend.py")
    }

    static func launched(_ backend: ServedBackend, bugs: PurchaseManager.PlantedBug = [], seed: UInt64 = 1)
        async throws -> (SimulatedStore, PurchaseManager)
    {
        let store = try SimulatedStore(backend: backend, seed: seed)
        let app = await store.launch { manager(store, bugs) }
        return (store, app)
    }

    static func manager(_ store: SimulatedStore, _ bugs: PurchaseManager.PlantedBug) -> PurchaseManager {
        PurchaseManager(
            configuration: store.urlSessionConfiguration, baseURL: store.routes.baseURL, clock: store.clock,
            keychain: StorageKeychain(storage: store.storage), account: { store.currentUser }, bugs: bugs,
            endpoints: endpoints)
    }

    /// A purchase: the app's order and report reach the backend, which verifies the JWS and
    /// credits it; the auditor sees the credit in the backend's ledger.
    @Test func aPurchaseReachesTheRealBackendAndIsCreditedOnce() async throws {
        let backend = try Self.backend()
        defer { backend.close() }
        let (store, app) = try await Self.launched(backend)
        let buy = await store.user(app) { try await $0.buy("coins_100") }
        await store.settle()
        #expect(try await buy.value == .credited)
        let verdict = await store.verdict()
        #expect(verdict.isClean, "\(verdict)")
        #expect(verdict.backendFailure == nil)
        #expect(verdict.balances["alice"] == 100, "\(verdict)")
        #expect(verdict.lines.contains("queue: 0 unfinished transaction(s)"), "\(verdict)")
        #expect(backend.worlds == 1)
    }

    /// The shipped faults against the real backend: the app's retries meet the backend's
    /// dedup, its notifications and its reconciliation; every charge is credited once. Each
    /// run is a world of its own (accounts `h2-alice`, `h3-alice`, ...) on one backend.
    @Test func theShippedFaultsEndCleanAgainstTheRealBackend() async throws {
        let backend = try Self.backend()
        defer { backend.close() }
        let (store, _) = try await Self.launched(backend)
        // The steps, and the coins the account ends with (offline or in an outage, the order
        // is never made and nothing is bought).
        let cases: [([String], Int)] = [
            (["drop-next-response recharge", "buy"], 100),
            (["drop-next-request recharge", "buy", "wait 3s", "crash", "launch"], 100),
            (["interrupt-next-payment", "buy", "wait 10s", "crash", "launch"], 100),
            (["network off", "buy", "wait 5s", "network on", "buy"], 100),
            (["server-outage on", "buy", "wait 10s", "server-outage off"], 0),
            (["buy", "wait 1m", "buy"], 200),
        ]
        for (steps, coins) in cases {
            let verdict = try await store.play(steps, seed: 1, as: PurchaseManager.self) { app in
                _ = try await app.buy("coins_100")
            }
            #expect(verdict.isClean, "\(steps): \(verdict)")
            #expect(verdict.balances["alice"] == coins, "\(steps): \(verdict)")
        }
        #expect(backend.worlds == 1 + cases.count)
    }

    /// A backend bug the app's correct retry exposes: with `no-dedup`, a report whose answer
    /// was lost is credited again when the app retries it (and again by the backend's
    /// notification handler and its reconciliation, each of which credits without asking).
    @Test func aBackendWithoutDedupDoubleCreditsTheAppsRetry() async throws {
        let backend = try Self.backend(bugs: "no-dedup")
        defer { backend.close() }
        let (store, _) = try await Self.launched(backend)
        let verdict = try await store.play(["drop-next-response recharge", "buy"], seed: 1, as: PurchaseManager.self) {
            _ = try await $0.buy("coins_100")
        }
        #expect(!verdict.isClean)
        #expect(verdict.unresolved.map(\.type).contains("double-credit"), "\(verdict)")
        #expect((verdict.balances["alice"] ?? 0) >= 200, "\(verdict)")
        #expect(verdict.grantedWithoutPaymentCents > 0)
        #expect(verdict.lines.contains { $0.contains("your backend is real and cannot be copied") }, "\(verdict)")
    }

    /// Explore against the real backend: random schedules of buys and faults, each run its
    /// own world on the one backend; the correct manager and the reference backend never fail.
    @Test func exploreAgainstTheRealBackend() async throws {
        let backend = try Self.backend()
        defer { backend.close() }
        let (store, _) = try await Self.launched(backend)
        let report = try await store.explore(runs: 25, seed: 3, as: PurchaseManager.self) { app in
            _ = try await app.buy("coins_100")
        }
        #expect(report.failedRuns == 0, "\(report)")
        #expect(report.runs == 25)
        #expect(backend.worlds >= 26)
        #expect(store.stallsTaken == 0)
    }

    /// A backend that is not there: one clear error naming it, before anything runs.
    @Test func anUnreachableBackendIsNamed() throws {
        #expect {
            _ = try ServedBackend(serveConfig: "tools/refbackend/serve.yaml", url: URL(string: "http://127.0.0.1:9")!)
        } throws: { error in
            "\(error)".contains("cannot be reached") && "\(error)".contains("http://127.0.0.1:9")
        }
    }
}

/// The Python of the venv that holds Apple's app-store-server-library, if there is one.
let applePython: String? = {
    if let p = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] { return p }
    let venv = FileManager.default.currentDirectoryPath + "/.venv-apple/bin/python"
    return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
}()
