import Foundation
import IAPSimCore
import IAPSimServe
import IAPSimStoreKit

/// Your own backend as the merchant server of a `SimulatedStore`, as `iapsim serve` runs it
/// (docs/serve.md): iapsim's App Store Server API listens, your backend is reached at its URL
/// (`--backend`) or started by a command (`--spawn`), and every world a store plays (the
/// store's first, each `explore` run, each replay) is a world of its own against it, its
/// accounts named apart (`h3-alice`).
///
/// ```swift
/// let backend = try ServedBackend(serveConfig: "serve.yaml", spawn: "python3 backend.py")
/// let store = try SimulatedStore(backend: backend)
/// let app = await store.launch {
///     PurchaseManager(configuration: store.urlSessionConfiguration, baseURL: store.routes.baseURL, ...)
/// }
/// ```
///
/// Your app's requests to `store.routes.baseURL` go through the simulated network (counted,
/// dropped, delayed, refused while the device is offline) and reach your backend as `serve`'s
/// calls, in the words of the `serve.yaml` (its `order` and `report` paths and `fields:`); its
/// answers come back the same way. The App Store sends your backend its notifications, its
/// `ticks:` fire on virtual time, and the auditor reads its `ledger:`. Starting a backend
/// takes a while, a world does not: share one across the tests of a `.serialized` suite. One
/// backend serves one store at a time (its App Store Server API shows one world, the earlier
/// ones behind it, as under `serve`).
public final class ServedBackend: MerchantBackend, @unchecked Sendable {
    let session: ServeSession
    let config: ServeConfig
    /// Where the stepping of a world against this backend runs: a world waits for your
    /// backend's answers, and your backend for iapsim's App Store Server API, whose handlers
    /// need Swift's executors; a wait there, on a few threads shared with every test, could
    /// leave the API no thread to answer on.
    let queue = DispatchQueue(label: "iapsim.served-backend")
    private let lock = NSLock()
    private var closed = false

    /// The backend named by `backend:` of the `serve.yaml` at `serveConfig` (or by `url`), which
    /// must already answer; or, with `spawn`, the command that starts it (`PORT`,
    /// `IAPSIM_API_URL`, `IAPSIM_CERTS` and the rest of docs/serve.md's environment set, its
    /// output shown only with `showOutput`). `environment`: `Production` or `Sandbox`, as the
    /// signed data says it.
    public init(
        serveConfig path: String, url: URL? = nil, spawn: String? = nil, environment: String = "Production",
        showOutput: Bool = false
    ) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SimulatedStoreError.badRoutes("\(path): cannot read the file: \(error.localizedDescription)")
        }
        var options = ServeSession.Options()
        do {
            options.config = try ServeConfig.parse(text, file: path)
        } catch {
            throw SimulatedStoreError.badRoutes(error.description)
        }
        if let url { options.config.backend = url.absoluteString }
        switch environment {
        case "Production": options.environment = .production
        case "Sandbox": options.environment = .sandbox
        default: throw SimulatedStoreError.badBackend("environment \(environment): not one of Production, Sandbox")
        }
        options.spawn = spawn
        options.quietBackend = !showOutput
        // In `swift test` the suite's other tests may hold every cooperative thread for a
        // while (seen on 2 cores: more than 10 s): the API gets as long as the socket tests give it.
        options.apiListenSeconds = max(options.apiListenSeconds, 300)
        if spawn == nil, options.config.backend == nil {
            throw SimulatedStoreError.badBackend(
                "\(path): no backend: give its URL (`backend:` in the file, or url:) or a command (spawn:)")
        }
        do {
            session = try ServeSession(options)
        } catch {
            throw SimulatedStoreError.badBackend(error.description)
        }
        config = options.config
        Self.running.withLock { list in
            list.removeAll { $0.backend == nil }
            list.append(Weak(backend: self))
        }
        _ = Self.closedAtExit
    }

    /// The backends not yet released: a suite's `static let` is never released, so each is
    /// closed when the process exits (its spawned backend stopped, its API closed).
    private struct Weak: @unchecked Sendable { weak var backend: ServedBackend? }
    private static let running = LockedList()
    private static let closedAtExit: Void = {
        atexit {
            for weak in ServedBackend.running.withLock({ $0 }) { weak.backend?.close() }
        }
    }()

    /// `running`'s storage, under a lock.
    private final class LockedList: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Weak] = []
        func withLock<R>(_ body: (inout [Weak]) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&list)
        }
    }

    deinit { close() }

    /// Where your backend is reached (the spawned one's `http://127.0.0.1:PORT`).
    public var url: URL? { URL(string: session.backend) }

    /// Where iapsim's App Store Server API listens (your backend's `IAPSIM_API_URL`).
    public var apiURL: URL? { URL(string: session.apiURL) }

    /// How many worlds have played against it so far.
    public var worlds: Int { session.worlds }

    /// Stops the API and a spawned backend (also done when the last reference goes).
    public func close() {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if first { session.close() }
    }

    /// The link of a new world of `users` (accounts `hN-NAME`).
    package func link(users: [String]) throws -> (world: AnyObject, link: ExternalLink) {
        do {
            let (merchant, link) = try lock.withLock {
                try session.merchant(users: users, prefix: "h\(session.worlds + 1)-")
            }
            return (merchant, link)
        } catch {
            throw SimulatedStoreError.badBackend("\(error)")
        }
    }

    /// Why the world of `world` (its `ServeMerchant`) cannot be judged (the backend
    /// unreachable, its ledger unreadable), if so.
    package func failure(of world: AnyObject) -> String? {
        (world as? ServeMerchant).flatMap { session.failure(of: $0)?.description }
    }

    /// Runs `body` on the backend's own thread and waits for it.
    package func run<R>(_ body: @escaping () -> R) async -> R {
        let work = Unchecked(body)
        return await withCheckedContinuation { (c: CheckedContinuation<Unchecked<R>, Never>) in
            queue.async { c.resume(returning: Unchecked(work.value())) }
        }.value
    }
}

/// A value handed between threads by the store's own discipline (its lock).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension SimulatedStore {
    /// A store whose merchant server is your own backend (`ServedBackend`, as `iapsim serve`
    /// runs it): your app's requests to `baseURL` reach it in the words of its `serve.yaml`
    /// (`routes` are that file's paths and names), the App Store notifies it and answers its
    /// App Store Server API calls, and the auditor reads its ledger. Each world the store plays
    /// (this one, each `explore` run, each replay) is a new world against the same backend.
    /// The what-if is not worked out (a real backend cannot be copied), as under `serve`.
    public convenience init(
        backend: ServedBackend, catalog: StoreCatalog = .standard, seed: UInt64 = 1, users: [String] = ["alice"],
        baseURL: URL = URL(string: "https://merchant.example.com")!
    ) throws {
        try self.init(
            catalog: catalog, serverPolicy: .hardened, seed: seed, users: users,
            routes: MerchantRoutes(baseURL: baseURL, config: backend.config))
        served = backend
        try attachBackend()
    }

}

extension MerchantRoutes {
    /// The merchant server at `baseURL`, spoken to as the `serve.yaml` at `path` says your
    /// backend is (docs/serve.md, the same contract as `iapsim serve`): its `order` and `report`
    /// paths, and its `fields:` renaming `user`, `productId`, `orderId`, `appAccountToken`,
    /// `signedTransaction` and `result`. An app whose code `serve` tests against your backend
    /// runs here against the simulated one unchanged. Without `order`, the app's order
    /// requests find no host (under `serve`, iapsim makes the orders itself).
    public init(baseURL: URL, serveConfig path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SimulatedStoreError.badRoutes("\(path): cannot read the file: \(error.localizedDescription)")
        }
        let config: ServeConfig
        do {
            config = try ServeConfig.parse(text, file: path)
        } catch {
            throw SimulatedStoreError.badRoutes(error.description)
        }
        self.init(baseURL: baseURL, config: config)
    }

    /// The paths and names of a read `serve.yaml`.
    init(baseURL: URL, config: ServeConfig) {
        self.init(baseURL: baseURL, orders: config.order?.path ?? "", report: config.report.path)
        orderFields = config.order?.fields ?? [:]
        reportFields = config.report.fields
        productField = orderFields["productId"] ?? "productId"
    }

}
