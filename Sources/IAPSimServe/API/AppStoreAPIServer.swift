import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import IAPSimCore
import Logging
import NIOCore
import ServiceLifecycle

/// The App Store Server API lookalike (docs/server-api.md), on
/// Hummingbird 2, answered from a world someone else drives.
///
/// For the runner:
/// ```swift
/// let world: some APIWorldProvider = ...            // reads the world under your lock
/// let api = try AppStoreAPIServer(world: world, environment: .production)
/// let port = try await api.start(host: "127.0.0.1", port: 0)   // 0: any free port
/// // IAPSIM_API_URL = "http://127.0.0.1:\(port)"
/// await api.arm(.fail(count: 3, code: 5_000_001))     // server-api-fail 3 (or .outage, .slow)
/// await api.recordTestAttempt(token:, result: "SUCCESS", at: virtualTime)
/// await api.stop()
/// ```
/// Every request reads `world.view()` once, at request time: the answer is the world as it
/// is then (virtual dates; JWT `exp` against the wall clock). Endpoints: Get Transaction Info,
/// Get Transaction History v2, Look Up Order ID, Get Notification History, Request a Test
/// Notification and its status, Send Consumption Information (v2), Set App Account Token, and
/// Get All Subscription Statuses (`AppStoreAPIServer+Subscriptions.swift`).
package actor AppStoreAPIServer {
    let world: any APIWorldProvider
    let environment: StoreEnvironment
    let auth: APIAuth
    let signer: APISigner
    package private(set) var faults = ServerAPIFaultState()
    var limits = APIRateLimits()
    var tests: [(token: String, signedPayload: String, attempts: [(date: Int64, result: String)])] = []
    private var running: Task<Void, any Error>?
    /// The server's service group: stopped gracefully (a cancelled one tears connections down
    /// mid-write, which NIO traps on).
    private var group: ServiceGroup?
    var nextTest = 0
    /// The rate limits' clock (SERVE-CI rule 9): virtual seconds under `--time warp`; the wall
    /// clock's under `--time real` and while holding, so that windows pass as real seconds go
    /// by when the world stands still.
    package private(set) var wallClock = false
    /// The invocation's id block (`iapsim serve`): test-notification tokens and UUIDs come
    /// from it. Random for a server of its own (tests, conformance).
    package private(set) var idBlock = UInt64.random(in: 0..<100_000_000)

    package func useIdBlock(_ block: UInt64) { idBlock = block }

    package init(world: some APIWorldProvider, environment: StoreEnvironment) throws {
        self.world = world
        self.environment = environment
        auth = try APIAuth()
        signer = try APISigner(environment: environment)
    }

    /// Listens on `host:port` (0: a free port) and returns the bound port once it listens;
    /// throws when it cannot (the address is not this machine's, the port is taken) or has not
    /// within `listenSeconds` (`ServeLimits.apiListenSeconds`; in-process tests pass more, since
    /// their process's cooperative threads may all be held by tests that wait synchronously).
    package func start(
        host: String = "127.0.0.1", port: Int = 0, listenSeconds: Int64 = ServeLimits.apiListenSeconds
    ) async throws -> Int {
        let (stream, continuation) = AsyncStream<Result<Int, APIServerError>>.makeStream()
        let app = Application(
            responder: CallbackResponder { [self] (request: Request, _: BasicRequestContext) in
                var request = request
                guard let body = try? await request.collectBody(upTo: ServeLimits.maxAPIRequestBytes) else {
                    return APIAnswer.tooLarge.response
                }
                return await self.respond(
                    method: request.method.rawValue, target: request.uri.string,
                    authorization: request.headers[.authorization], body: String(buffer: body))
            },
            server: .http1(configuration: .init(idleTimeout: .seconds(ServeLimits.apiIdleSeconds))),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(ServeLimits.apiMaxConnections)),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress?.port ?? port))
                continuation.finish()
            },
            logger: Self.quietLogger
        )
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Self.quietLogger))
        self.group = group
        running = Task {
            do {
                try await group.run()
            } catch {
                continuation.yield(.failure(APIServerError(message: "\(error)")))
            }
            continuation.finish()
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(listenSeconds))
            continuation.yield(.failure(APIServerError(message: "not listening after \(listenSeconds) s")))
            continuation.finish()
        }
        defer { watchdog.cancel() }
        for await outcome in stream {
            if case .failure = outcome {
                // Not awaited: a listen that never came may never end either.
                running?.cancel()
                running = nil
            }
            return try outcome.get()
        }
        throw APIServerError(message: "the server stopped before it listened")
    }

    /// Hummingbird's own log stays silent: the runner prints what it needs.
    static var quietLogger: Logger {
        var logger = Logger(label: "iapsim-api")
        logger.logLevel = .critical
        return logger
    }

    /// Stops listening.
    package func stop() async {
        await group?.triggerGracefulShutdown()
        _ = try? await running?.value
        running = nil
        group = nil
    }

    /// Arms or ends a fault (`server-api-fail N [CODE]`, `server-api-slow D`,
    /// `server-api-outage on|off`), by the rule the simulated world keeps (`ServerAPIFaultState`).
    package func arm(_ fault: ServerAPIFault) { faults.apply(fault) }

    /// From now on the rate limits count wall-clock seconds (`--time real`, `--hold`).
    package func useWallClock() { wallClock = true }

    /// The rate-limit window a call falls in, and its end in Unix milliseconds of the same
    /// clock (`Retry-After`).
    func window(_ view: APIWorldView) -> (second: Int, endsAt: Int64) {
        if wallClock {
            let second = Int(Date().timeIntervalSince1970)
            return (second, Int64(second + 1) * 1_000)
        }
        return (view.now / 1_000, APISigner.unix((view.now / 1_000 + 1) * 1_000))
    }

    /// One attempt to deliver a test notification (Apple's `sendAttemptResult`), at a virtual time.
    package func recordTestAttempt(token: String, result: String, at virtual: IAPSimCore.VirtualTime) {
        guard let i = tests.firstIndex(where: { $0.token == token }) else { return }
        tests[i].attempts.append((APISigner.unix(virtual), result))
    }

    /// The answer to one request: status, JSON text (nil: no body), extra headers.
    package func respond(method: String, target: String, authorization: String?, body: String) async -> Response {
        let answer = await answer(method: method, target: target, authorization: authorization, body: body)
        if faults.slowMs > 0 { try? await Task.sleep(nanoseconds: UInt64(faults.slowMs) * 1_000_000) }
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        await world.answered(method: method, path: path, status: answer.status)
        return answer.response
    }

    func answer(method: String, target: String, authorization: String?, body: String) async -> APIAnswer {
        guard auth.accepts(authorization, wallSeconds: Date().timeIntervalSince1970) else { return .unauthorized }
        let split = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = split[0].split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        let query = APIQuery(split.count > 1 ? String(split[1]) : nil)
        // A path the lookalike does not serve: a bare 404, no body (the simulator's reading of
        // Apple's gateway, whose answer to an unknown path Apple does not document).
        guard let route = APIRoute(method: method, path: path) else { return .notServed }
        let view = await world.view()
        let window = window(view)
        guard
            limits.admit(route.name, second: window.second, limit: route.endpoint.perSecond(in: environment))
        else {
            return .error(429, 4_290_000, "Rate limit exceeded.", headers: [("Retry-After", String(window.endsAt))])
        }
        if let fault = faults.take() { return .error(fault.status, fault.code, "An unknown error occurred.") }
        do {
            return try await handle(route, query: query, body: body, view: view)
        } catch {
            return .error(500, 5_000_000, "An unknown error occurred.")
        }
    }
}

/// The endpoint a request names, with its path argument.
enum APIRoute {
    case transaction(String), history(String), historyV1(String), lookup(String), notificationHistory, testNotification
    case testNotificationStatus(String), consumption(String), subscriptions(String), setAppAccountToken(String)

    /// The endpoint of the one table (`ServerAPIEndpoint`) the request names, with its argument.
    init?(method: String, path: [String]) {
        guard let (endpoint, argument) = ServerAPIEndpoint.match(method: method, segments: path) else { return nil }
        let a = argument ?? ""
        switch endpoint {
        case .transaction: self = .transaction(a)
        case .history: self = .history(a)
        case .historyV1: self = .historyV1(a)
        case .lookup: self = .lookup(a)
        case .subscriptions: self = .subscriptions(a)
        case .notificationHistory: self = .notificationHistory
        case .testNotification: self = .testNotification
        case .testNotificationStatus: self = .testNotificationStatus(a)
        case .consumption: self = .consumption(a)
        case .setAppAccountToken: self = .setAppAccountToken(a)
        }
    }

    /// The endpoint of the table it is.
    var endpoint: ServerAPIEndpoint {
        switch self {
        case .transaction: return .transaction
        case .history: return .history
        case .historyV1: return .historyV1
        case .lookup: return .lookup
        case .notificationHistory: return .notificationHistory
        case .testNotification: return .testNotification
        case .testNotificationStatus: return .testNotificationStatus
        case .consumption: return .consumption
        case .subscriptions: return .subscriptions
        case .setAppAccountToken: return .setAppAccountToken
        }
    }

    /// The rate limit's name of the endpoint.
    var name: String { endpoint.rateLimitName }
}

/// An answer before it is a response: every body is `Content-Type: application/json`
/// exactly; a 401 has no body and no Content-Type.
struct APIAnswer: Sendable {
    var status: Int
    var json: String?
    var headers: [(String, String)] = []

    static let unauthorized = APIAnswer(status: 401, json: nil)
    /// A path no endpoint serves: 404 with no body and no error code.
    static let notServed = APIAnswer(status: 404, json: nil)
    /// A request body over `ServeLimits.maxAPIRequestBytes`, whoever sent it.
    static let tooLarge = error(
        413, 4_130_000, "The request body is larger than \(ServeLimits.maxAPIRequestBytes / 1_048_576) MB.")

    static func error(_ status: Int, _ code: Int, _ message: String, headers: [(String, String)] = []) -> APIAnswer {
        APIAnswer(
            status: status, json: "{\"errorCode\":\(code),\"errorMessage\":\(APIJSON.quote(message))}",
            headers: headers)
    }

    var response: Response {
        var fields = HTTPFields()
        for (name, value) in headers { if let n = HTTPField.Name(name) { fields[n] = value } }
        guard let json else { return Response(status: .init(code: status), headers: fields) }
        fields[.contentType] = "application/json"
        return Response(
            status: .init(code: status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}

struct APIServerError: Error, CustomStringConvertible, Sendable {
    let message: String
    var description: String { message }
}
