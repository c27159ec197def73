import Foundation
import IAPSimCore
import IAPSimSigned
import Testing

@testable import IAPSimServe

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API on a real socket (127.0.0.1:0), asked over HTTP; and Apple's own Python clients
/// against it (tools/conformance.py) when the library is installed.
@Suite(.serialized) struct AppStoreAPISocketTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// IAPSIM_APPLE_PYTHON, else the python of tools/apple-venv.sh's venv when it exists.
    static let applePython: String? = {
        if let path = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] { return path }
        let local = repository + "/.venv-apple/bin/python"
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }()

    /// This process's cooperative threads are shared with the tests that wait synchronously
    /// (tmux, subprocesses): on two cores the server's start, each hop of its handlers and the
    /// client's continuations queue behind them, for more than the 10 s a user's
    /// `--api-listen` gets, and more than 300 s (a fresh-clone CI run of stop 64 timed out a
    /// request at 1,236 s into the run). The bound is the whole suite's length: the queue
    /// drains when those tests end, so only a server that never answers waits it out.
    static let listenSeconds: Int64 = 1_800

    static func fetch(_ url: String, auth: String?) async throws -> (Int, [String: String], Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let auth { request.setValue(auth, forHTTPHeaderField: "Authorization") }
        // As long as the server's start may take (URLSession's 60 s ran out on two loaded cores).
        request.timeoutInterval = TimeInterval(listenSeconds)
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return (http.statusCode, headers, data)
    }

    @Test func servesOnAFreePortWithExactContentTypes() async throws {
        let sim = try APIWorldFixture.simulation()
        let api = try AppStoreAPIServer(world: LockedWorld(sim), environment: sim.store.environment)
        let port = try await api.start(host: "127.0.0.1", port: 0, listenSeconds: Self.listenSeconds)
        defer { Task { await api.stop() } }
        #expect(port > 0)
        let base = "http://127.0.0.1:\(port)"
        let (status, headers, body) = try await Self.fetch(
            base + "/inApps/v1/transactions/1000000000001", auth: try APIWorldFixture.token())
        #expect(status == 200)
        #expect(headers["content-type"] == "application/json")
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("{\"signedTransactionInfo\":\"ey"))
        let (denied, deniedHeaders, deniedBody) = try await Self.fetch(
            base + "/inApps/v1/transactions/1000000000001", auth: nil)
        #expect(denied == 401 && deniedBody.isEmpty && deniedHeaders["content-type"] == nil)
        await api.stop()
    }

    /// tools/conformance.py, once with the sync client and once with the async one, each
    /// against its own server (the test-notification endpoints allow one call a second).
    @Test(
        .enabled(
            if: applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func applesPythonClientsConform() async throws {
        let python = try #require(Self.applePython)
        let directory = NSTemporaryDirectory() + "iapsim-conformance-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(try SigningChain.appStore().root).write(to: URL(fileURLWithPath: directory + "/root.cer"))
        try Data(try APIKey.pem().utf8).write(to: URL(fileURLWithPath: directory + "/api-key.p8"))
        try Data(APIKey.json.utf8).write(to: URL(fileURLWithPath: directory + "/api-key.json"))
        let sim = try APIWorldFixture.simulation()
        let view = APIWorldView(simulation: sim)
        let consumption = try #require(view.consumptionRequests.first)
        let uuids = view.notifications.map(\.notification.uuid)
        let world: [String: Any] = [
            "transactionId": "1000000000001", "count": view.transactions.count,
            "revoked": view.transactions.filter { $0.signed.revocationDate != nil }.count,
            "orderId": try #require(view.transactions.first?.orderId),
            "consumptionTransactionId": consumption.txn,
            "consumptionAccepted": view.now - consumption.at <= 12 * 3_600_000,
            "notifications": Set(uuids).count,
            "startDate": APISigner.unix(0), "endDate": APISigner.unix(view.now + 1),
        ]
        try JSONSerialization.data(withJSONObject: world).write(to: URL(fileURLWithPath: directory + "/world.json"))
        for only in ["sync", "async"] {
            let api = try AppStoreAPIServer(world: LockedWorld(sim), environment: sim.store.environment)
            let port = try await api.start(host: "127.0.0.1", port: 0, listenSeconds: Self.listenSeconds)
            let (status, text) = await Self.conformance(
                python: python, port: port, certs: directory, environment: sim.store.environment.payloadName,
                only: only)
            await api.stop()
            print("conformance.py --only \(only):\n" + text, terminator: "")
            #expect(status == 0, "\(text)")
            #expect(text.contains(" passed, 0 failed"))
        }
    }

    /// Get All Subscription Statuses, judged by Apple's clients (sync and async) over a world
    /// with one monthly subscription, renewed, then auto-renew turned off.
    @Test(
        .enabled(
            if: applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func applesClientsReadSubscriptionStatuses() async throws {
        let python = try #require(Self.applePython)
        let directory = NSTemporaryDirectory() + "iapsim-conformance-subs-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(try SigningChain.appStore().root).write(to: URL(fileURLWithPath: directory + "/root.cer"))
        try Data(try APIKey.pem().utf8).write(to: URL(fileURLWithPath: directory + "/api-key.p8"))
        try Data(APIKey.json.utf8).write(to: URL(fileURLWithPath: directory + "/api-key.json"))
        let sim = try APIWorldFixture.subscriptionSimulation()
        let sub = try #require(APIWorldView(simulation: sim).subscriptions.first)
        let world: [String: Any] = [
            "subscriptionTransactionId": sub.latest.transactionId, "originalTransactionId": sub.originalTransactionId,
            "subscriptionStatus": sub.status, "autoRenewStatus": sub.renewalInfo.autoRenewStatus,
        ]
        #expect(sub.status == 1 && sub.renewalInfo.autoRenewStatus == 0, "active, auto-renew off")
        #expect(sub.latest.transactionId != sub.originalTransactionId, "the newest transaction is a renewal")
        try JSONSerialization.data(withJSONObject: world).write(to: URL(fileURLWithPath: directory + "/world.json"))
        let api = try AppStoreAPIServer(world: LockedWorld(sim), environment: sim.store.environment)
        let port = try await api.start(host: "127.0.0.1", port: 0, listenSeconds: Self.listenSeconds)
        let (status, text) = await Self.conformance(
            python: python, port: port, certs: directory, environment: sim.store.environment.payloadName,
            only: "subscriptions")
        await api.stop()
        print("conformance.py --only subscriptions:\n" + text, terminator: "")
        #expect(status == 0, "\(text)")
        #expect(text.contains("8 passed, 0 failed"), "\(text)")
    }

    /// Runs tools/conformance.py against the API on `port`: its exit status and output.
    static func conformance(python: String, port: Int, certs: String, environment: String, only: String) async
        -> (Int32, String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            repository + "/tools/conformance.py", "--url", "http://127.0.0.1:\(port)", "--certs", certs,
            "--environment", environment, "--expect", certs + "/world.json", "--only", only,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        do { try process.run() } catch { return (-1, "\(error)") }
        // Read off the cooperative pool: the server answers on it meanwhile.
        let text = await withCheckedContinuation { done in
            DispatchQueue.global().async {
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                done.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        return (process.terminationStatus, text)
    }
}
