import Crypto
import Foundation
import IAPSimCore
import IAPSimScenario

/// A simulated App Store, merchant server and network around your app's own purchase code,
/// in `swift test`.
///
/// Build one from a catalog and the merchant server's policy, launch your app in it, act as the
/// user through your app's own methods, inject faults in the scenario vocabulary, let virtual
/// time run, and read the auditor's verdict:
///
/// ```swift
/// let store = try SimulatedStore(serverPolicy: .appDependent)
/// let app = await store.launch {
///     PurchaseManager(configuration: store.urlSessionConfiguration, clock: store.clock)
/// }
/// try await store.perform("drop-next-response recharge")
/// let buy = await store.user(app) { app in try await app.buy("coins_100") }
/// await store.settle()
/// #expect(try await buy.value == .credited)
/// #expect(await store.verdict().isClean)
/// ```
///
/// The same app, seed and steps give the same verdict. Your app's tasks run on Swift's
/// executors; before it lets virtual time move, the store waits until every task it resumed
/// (a purchase call, a `Transaction.updates` listener, a sleep on `clock`, a user action, a
/// request's answer) waits on it again or ends, and, after a launch, for `quietPeriod` of
/// wall time. Work your app does on threads or clocks of its own is not seen; a task that
/// goes `stallLimit` without a call is taken for ended (`stallsTaken` counts it).
public final class SimulatedStore: @unchecked Sendable {
    /// The merchant server's rules (the server side of iapsim's presets, docs/world.md).
    /// docs/app-code.md, "The merchant server's rules".
    public enum ServerPolicy: String, Sendable, CaseIterable {
        /// Dedup, binding by `appAccountToken`, JWS verification, notifications,
        /// reconciliation and clawback: the server side of `sk2-hardened`.
        case hardened
        /// A server that checks the JWS and deduplicates, credits the order a report names
        /// (or the reporting account when it names none), and hears no notification and
        /// reconciles nothing: what the app does not send, or sends wrong, stays wrong.
        case appDependent = "app-dependent"
        /// The server side of `sk2-naive`: no dedup, no binding, no verification.
        case naive
    }

    let lock = NSLock()
    var sim: Simulation
    /// The In-App Purchase keys registered for promotional offers (`registerPromotionalOfferKey`).
    var offerKeys: [String: P256.Signing.PublicKey] = [:]
    /// The code the customer types into the next offer code redemption sheet.
    var enteredOfferCode: String?
    let catalog: Catalog
    let parser: CommandParser
    let signing: Signing
    /// The `URLProtocol` class of each process that asked for one (`SimulatedNetwork`).
    var processSlots: [(process: Int, slot: Int, cls: AnyClass)] = []
    /// The merchant server's paths, as your app calls them.
    // The public properties are computed over internal storage: a client reads them through
    // the module's getters, never at a field offset it computed from the class's layout (which
    // holds the core's package types; a client that laid it out itself read garbage).
    public var routes: MerchantRoutes { merchantRoutes }
    let merchantRoutes: MerchantRoutes
    /// The keychain and files your app keeps across crashes (`storage`).
    public var storage: SimulatedStorage { keptStorage }
    let keptStorage = SimulatedStorage()
    var app: AppState
    var factory: (@Sendable () -> any Sendable)?
    /// Bumped whenever your app calls into the store: the store waits until it stands still.
    var activity = 0
    /// Your app's tasks the store resumed that have not waited on it again yet (nor ended):
    /// while any is owed, virtual time stands still (up to `stallLimit` of wall time).
    var debts = Debts()
    /// Bumped at each launch: calls of a crashed process's tasks are refused.
    var incarnation = 0
    /// True while the launched app's code runs before its first idle moment.
    var launching = false
    /// The revoked transactions already emitted on `Transaction.updates`.
    var revokedEmitted: Set<String> = []
    /// StoreKit's `SKIncludeConsumableInAppPurchaseHistory` (an Info.plist key): when true,
    /// `Transaction.all` and `latest(for:)` keep the finished consumables too.
    public var includeConsumableInAppPurchaseHistory: Bool {
        get { locked { includeConsumables } }
        set { locked { includeConsumables = newValue } }
    }
    var includeConsumables = false
    /// Each JWS handed to your app and the value it signs: what a report to the server carries.
    var signedByJWS: [String: SignedTransaction] = [:]
    /// The preset whose server side `serverPolicy` is: the what-if's other policy is its other.
    let preset: PolicyPreset
    /// The run's inputs so far, for the what-if's replays (`SimulatedStore+Inputs`); while
    /// `recordDepth` is above 0 a call is part of one already recorded (or of a replay).
    var inputs: [RecordedInput] = []
    var recordDepth = 0
    /// True while `play` runs its ending (heal, settle, relaunch, settle): replayed, never removed.
    var hidingInputs = false
    /// What the last launch made, and the user's action of `play` (run on it at each `buy`).
    var lastMade: (any Sendable)?
    var player: (@Sendable (any Sendable) async throws -> Void)?
    /// How long your app's tasks must make no call into the store before the store takes
    /// them for idle and lets virtual time move (wall time; `URLSession` hands answers over on
    /// threads of its own).
    public var quietPeriod: Duration {
        get { locked { quiet } }
        set { locked { quiet = newValue } }
    }
    var quiet: Duration = .milliseconds(1)
    /// How long (wall time) a resumed task of your app may go without calling the store
    /// before the store takes it for ended.
    public var stallLimit: Duration {
        get { locked { stallAfter } }
        set { locked { stallAfter = newValue } }
    }
    var stallAfter: Duration = .milliseconds(500)
    /// How many times the store took a task of your app for ended after `stallLimit`: where
    /// it did, the run's timing depended on wall time. A test may expect none.
    public var stallsTaken: Int { locked { stalls } }
    var stalls = 0
    /// `quiesce` waiting for a debt to be paid, the round of that wait, and its stall timer.
    var paymentWaiter: CheckedContinuation<Bool, Never>?
    var paymentRound = 0
    var stallTimer: Task<Void, Never>?
    /// Your backend, when it is the merchant server (`init(backend:)` of `IAPSimStoreKitServe`),
    /// and this world's token with it.
    package var served: (any MerchantBackend)?
    var servedMerchant: AnyObject?

    /// A store over `catalog` (the built-in one by default) with the merchant server's
    /// `serverPolicy`, seeded with `seed`, with the accounts `users` (the first logged in at launch).
    public init(
        catalog: StoreCatalog = .standard, serverPolicy: ServerPolicy = .hardened, seed: UInt64 = 1,
        users: [String] = ["alice"], routes: MerchantRoutes = MerchantRoutes()
    ) throws {
        // A `.storekit` file's `_billingGracePeriodEnabled` gives the grace period the CLI gives it.
        let grace = catalog.catalog.settings.billingGracePeriod ? CatalogOptions.fileGracePeriodMs : nil
        let config = WorldConfig(
            seed: seed, users: users, policy: serverPolicy.policy, appRunning: false, catalog: catalog.catalog,
            gracePeriodMs: grace)
        sim = Simulation(config)
        sim.attachDrivenApp()
        self.catalog = catalog.catalog
        parser = CommandParser(users: config.users, catalog: catalog.catalog)
        signing = try Signing.shared()
        merchantRoutes = routes
        preset = serverPolicy == .naive ? .sk2Naive : .sk2Hardened
        app = AppState()
        SimulatedStore.latest.withLock { $0 = WeakStore(self) }
    }

    /// Hands the merchant server's part of the world just made to the backend, if there is one.
    package func attachBackend() throws {
        guard let backend = served else { return }
        let users = locked { sim.users }
        let (world, link) = try backend.link(users: users)
        locked {
            servedMerchant = world
            sim.attachExternal(link)
        }
    }

    /// Runs `body` under the lock: on the backend's own thread when the world may wait for
    /// your backend (`MerchantBackend.run` says why), else here.
    func worldWork<R>(_ body: @escaping () -> R) async -> R {
        guard let backend = served else { return locked(body) }
        return await backend.run { self.locked(body) }
    }

    deinit { SimulatedNetwork.detach(processSlots.map(\.slot)) }

    /// The clock your app should be given: its `sleep` waits for virtual time.
    public var clock: SimulatedClock { SimulatedClock(store: self) }

    /// The current virtual time, from 0 at the store's creation.
    public var now: Duration { .milliseconds(locked { sim.now }) }

    /// The account logged in now (the scenario's `login` and `logout` change it), or nil.
    public var currentUser: String? { locked { sim.app.loggedIn } }

    func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A task of your app waits on the store again: it is no longer owed (under the lock).
    func blocked(_ task: Int?) {
        activity += 1
        debts.paid(by: task)
        if let w = paymentWaiter {
            paymentWaiter = nil
            stallTimer?.cancel()
            stallTimer = nil
            w.resume(returning: true)
        }
    }

    /// Whether the calling task belongs to the process running now (under the lock: a check
    /// and what it guards are one step, or a crash and a launch could come between them).
    var callerAlive: Bool {
        app.running && (SimulatedStore.callerIncarnation.map { $0 == incarnation } ?? true)
    }

    /// Counts one call of your app and returns whether its process is the live one.
    func noteCall() -> Bool {
        locked {
            activity += 1
            return SimulatedStore.callerIncarnation.map { $0 == incarnation } ?? true
        }
    }
}

extension SimulatedStore {
    /// The store your app's static StoreKit calls (`Product.products(for:)`,
    /// `Transaction.updates`) reach: the one whose `launch` started the calling task, else the
    /// store made last.
    static var current: SimulatedStore? {
        if let s = launchedStore { return s }
        return latest.withLock { $0.store }
    }

    @TaskLocal static var launchedStore: SimulatedStore?
    /// The launch a task belongs to (tasks your app makes inherit it).
    @TaskLocal static var callerIncarnation: Int?

    struct WeakStore: @unchecked Sendable {
        weak var store: SimulatedStore?
        init(_ s: SimulatedStore?) { store = s }
    }

    static let latest = LockedBox(WeakStore(nil))
}

/// A value behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension SimulatedStore.ServerPolicy {
    var policy: Policy {
        switch self {
        case .hardened: return PolicyPreset.sk2Hardened.policy
        case .naive: return PolicyPreset.sk2Naive.policy
        case .appDependent:
            var p = PolicyPreset.sk2Hardened.policy
            p.serverNotifications = false
            p.serverReconcileMs = nil
            p.serverBindOrder = false
            return p
        }
    }
}
