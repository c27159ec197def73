import Foundation
// On a device: `import StoreKit` (docs/app-code.md). In `swift test`: the simulated world.
import IAPSimStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typical StoreKit 2 purchase manager: a `Transaction.updates` listener and a sweep of
/// `Transaction.unfinished` started at launch, an order (and its `appAccountToken`) from the
/// merchant server before each purchase, the signed transaction reported to the server, and
/// `finish()` only after the server's definite answer. A report that gets no answer is
/// retried a few times; what is still unfinished comes back at the next launch.
///
/// `bugs` plants the mistakes teams make (`PlantedBug`), for the tests to catch.
public actor PurchaseManager {
    /// The mistakes a team makes, one flag each.
    public struct PlantedBug: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The listener (and the unfinished sweep) start on the store screen, not at launch.
        public static let listenerOnStoreScreen = PlantedBug(rawValue: 1)
        /// `finish()` right after the purchase, before the server's answer.
        public static let finishBeforeAnswer = PlantedBug(rawValue: 2)
        /// No `appAccountToken` in `purchase(options:)`.
        public static let noToken = PlantedBug(rawValue: 4)
        /// `.pending` is taken for a failure: the order is forgotten, and the listener finishes
        /// transactions it has no order for without reporting them.
        public static let ignoredPending = PlantedBug(rawValue: 8)
    }

    /// What `buy` ends with.
    public enum Outcome: Sendable, Equatable {
        /// Paid, reported and credited by the server.
        case credited
        /// Paid; the server has not confirmed yet (it will be retried).
        case reportPending
        /// Waiting for approval (Ask to Buy): the outcome comes on `Transaction.updates`.
        case pending
        case cancelled
    }

    /// Your backend's paths and the order's product field, under `baseURL`.
    public struct Endpoints: Sendable, Hashable {
        public var orders: String
        public var report: String
        public var productField: String
        public init(orders: String = "orders", report: String = "report", productField: String = "product") {
            self.orders = orders
            self.report = report
            self.productField = productField
        }
    }

    let session: URLSession
    let baseURL: URL
    let endpoints: Endpoints
    let account: @Sendable () -> String?
    let clock: any Clock<Duration>
    let bugs: PlantedBug
    let keychain: any OrderKeychain
    var orders: [String: String]  // appAccountToken (lower-cased) -> orderId, kept in the keychain
    var listening = false
    var reported: Set<UInt64> = []

    static let retries = 3

    /// Made at launch: starts the listener and the unfinished sweep (unless a bug moves them).
    public init(
        configuration: URLSessionConfiguration, baseURL: URL, clock: any Clock<Duration>,
        keychain: any OrderKeychain, account: @escaping @Sendable () -> String?, bugs: PlantedBug = [],
        endpoints: Endpoints = Endpoints()
    ) {
        self.endpoints = endpoints
        self.keychain = keychain
        orders = keychain.orders()
        session = URLSession(configuration: configuration)
        self.baseURL = baseURL
        self.clock = clock
        self.account = account
        self.bugs = bugs
        if !bugs.contains(.listenerOnStoreScreen) {
            Task { await self.startObserving() }
        }
    }

    /// The user opens the store screen.
    public func openStore() {
        if bugs.contains(.listenerOnStoreScreen) { startObserving() }
    }

    /// The listener for the whole life of the process, then the unfinished sweep.
    func startObserving() {
        guard !listening else { return }
        listening = true
        Task {
            for await update in Transaction.updates { await self.handle(update, order: nil) }
        }
        Task {
            for await unfinished in Transaction.unfinished { await self.handle(unfinished, order: nil) }
        }
    }

    /// The user taps Buy.
    public func buy(_ productID: String) async throws -> Outcome {
        openStore()
        guard account() != nil else { throw StoreKitError.notEntitled }
        guard let product = try await Product.products(for: [productID]).first else {
            throw Product.PurchaseError.productUnavailable
        }
        let order = try await createOrder(productID)
        var options: Set<Product.PurchaseOption> = []
        if !bugs.contains(.noToken) { options.insert(.appAccountToken(order.token)) }
        remember(order.token, order.id)
        switch try await product.purchase(options: options) {
        case .success(let verification):
            return await handle(verification, order: order.id)
        case .pending:
            if bugs.contains(.ignoredPending) {
                remember(order.token, nil)
                return .cancelled
            }
            return .pending
        case .userCancelled:
            return .cancelled
        }
    }

    /// Keeps the order a token names (in memory and in the keychain: it outlives a crash).
    func remember(_ token: UUID, _ order: String?) {
        orders[token.uuidString.lowercased()] = order
        keychain.save(orders)
    }

    /// A signed transaction reached the app: report it, finish after the server's answer.
    @discardableResult
    func handle(_ verification: VerificationResult<Transaction>, order: String?) async -> Outcome {
        guard case .verified(let transaction) = verification else { return .cancelled }
        let orderID = order ?? transaction.appAccountToken.flatMap { orders[$0.uuidString.lowercased()] }
        if bugs.contains(.ignoredPending), orderID == nil {
            // "Not ours": the bug cleans it up without telling the server.
            await transaction.finish()
            return .cancelled
        }
        if bugs.contains(.finishBeforeAnswer) { await transaction.finish() }
        for attempt in 0...Self.retries {
            if attempt > 0 { try? await clock.sleep(for: .seconds(5)) }
            guard let answer = await report(verification, order: orderID) else { continue }
            if answer != "retry" {
                reported.insert(transaction.id)
                await transaction.finish()
                return answer == "refused" ? .cancelled : .credited
            }
        }
        return .reportPending
    }

    /// `POST orders`: the order and its token.
    func createOrder(_ productID: String) async throws -> (id: String, token: UUID) {
        let json = try await post(endpoints.orders, ["user": account() ?? "", endpoints.productField: productID])
        guard let id = json?["orderId"] as? String,
            let token = (json?["appAccountToken"] as? String).flatMap({ UUID(uuidString: $0) })
        else { throw URLError(.badServerResponse) }
        return (id, token)
    }

    /// `POST report`: the server's result, or nil when no answer came. The JWS is the
    /// verification result's (StoreKit's `VerificationResult.jwsRepresentation`).
    func report(_ v: VerificationResult<Transaction>, order: String?) async -> String? {
        var body = ["signedTransaction": v.jwsRepresentation, "user": account() ?? ""]
        if let order { body["orderId"] = order }
        return (try? await post(endpoints.report, body))??["result"] as? String
    }

    func post(_ path: String, _ body: [String: String]) async throws -> [String: Any]? {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await session.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}

/// Where the manager keeps its orders across launches: the keychain on a device.
public protocol OrderKeychain: Sendable {
    func orders() -> [String: String]
    func save(_ orders: [String: String])
}
