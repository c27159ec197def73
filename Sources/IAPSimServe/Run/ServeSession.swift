import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimSigned

#if canImport(Glibc)
    import Glibc
#endif

/// One `iapsim serve` invocation (docs/serve.md): the App Store Server API listening, the
/// backend reached (or spawned), then each file or explore run as a world of its own against
/// it. Everything HTTP lives here and below; the command prints and picks exit codes.
package final class ServeSession: @unchecked Sendable {
    package struct Options: Sendable {
        package var config = ServeConfig()
        package var environment: StoreEnvironment = .production
        package var apiHost = "127.0.0.1"
        package var apiPort = 0
        package var spawn: String?
        package var realTime = false
        /// `--record`: each line of the recording (the header first), to the command's file.
        package var record: (@Sendable (String) -> Void)?
        package var replay: String?
        /// `--race`: deliveries with a twin go out together (ServeMerchant+Race.swift).
        package var race = false
        /// The terminal UI runs: a spawned backend's output would write over its screen.
        package var quietBackend = false
        /// How long the API may take to listen before the session fails (`--api-listen`'s
        /// bound by default). In a test process (`ServedBackend`) the cooperative threads may
        /// all be held by tests that wait synchronously for a while: it waits longer there,
        /// and no longer than it takes to listen.
        package var apiListenSeconds = ServeLimits.apiListenSeconds
        package init() {}
    }

    package let options: Options
    package let block: UInt64
    package let api = ServeAPIWorld()
    package private(set) var backend = ""
    package private(set) var apiURL = ""
    let transport: ServeTransport
    let http: BackendHTTP?
    var server: AppStoreAPIServer?
    var spawned: ServeSpawn?
    var certs: ServeKeyFolder?
    /// Worlds played so far (each file or run is world N, `fN-` / `rN-`).
    package private(set) var worlds = 0

    /// Starts the API, then the backend (`--spawn`) or checks it answers; a failure is exit 3
    /// (or 2 for a bad recording).
    package init(_ options: Options) throws(ServeFailure) {
        self.options = options
        var recorded: (block: UInt64, exchanges: [HTTPExchange])?
        if let replay = options.replay {
            recorded = try ServeRecord.read(try ServeRecord.readFile(replay), file: replay)
        }
        block = recorded?.block ?? UInt64(Int.random(in: ServeRecord.blocks))
        var backend = options.config.backend ?? ""
        var backendPort: Int?
        if options.spawn != nil {
            guard let port = ServeSpawn.freePort() else { throw ServeFailure(exitCode: 3, "--spawn: no free port") }
            backendPort = port
            backend = "http://127.0.0.1:\(port)"
        }
        self.backend = backend
        if let recorded {
            http = nil
            transport = ReplayTransport(recorded: recorded.exchanges, file: options.replay ?? "")
        } else {
            let http = BackendHTTP(base: backend)
            self.http = http
            transport = LiveTransport(http: http, record: options.record, block: block, paced: options.realTime)
        }
        try startAPI()
        if let command = options.spawn, let port = backendPort, let http {
            try spawn(command, port: port, http: http)
        }
        if recorded == nil, options.spawn == nil, let http { try checkReachable(http) }
    }

    func startAPI() throws(ServeFailure) {
        let api = self.api
        let environment = options.environment
        let host = options.apiHost
        let port = options.apiPort
        let listenSeconds = options.apiListenSeconds
        let started: Result<(AppStoreAPIServer, Int), ServeFailure> = Blocking.run {
            do {
                let server = try AppStoreAPIServer(world: api, environment: environment)
                let bound = try await server.start(host: host, port: port, listenSeconds: listenSeconds)
                return .success((server, bound))
            } catch {
                return .failure(
                    ServeFailure(exitCode: 3, "the App Store Server API could not listen on \(host):\(port): \(error)"))
            }
        }
        let (server, bound) = try started.get()
        self.server = server
        api.server = server
        if options.realTime { Blocking.run { await server.useWallClock() } }
        let block = self.block
        Blocking.run { await server.useIdBlock(block) }
        apiURL = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(bound)"
        api.listening(at: apiURL)
    }

    func spawn(_ command: String, port: Int, http: BackendHTTP) throws(ServeFailure) {
        let keys: [(name: String, bytes: [UInt8])]
        do {
            keys = [
                ("root.cer", try SigningChain.appStore().root), ("api-key.p8", Array(try APIKey.pem().utf8)),
                ("api-key.json", Array(APIKey.json.utf8)),
            ]
        } catch {
            throw ServeFailure(exitCode: 3, "--spawn: cannot make the keys: \(error)")
        }
        ServeSpawn.installSignalCleanup()
        let folder = try ServeKeyFolder.make(keys)
        certs = folder
        let child = try ServeSpawn(
            command: command,
            environment: [
                "PORT": String(port), "IAPSIM_API_URL": apiURL, "IAPSIM_CERTS": folder.path,
                "IAPSIM_ENVIRONMENT": options.environment.payloadName,
                "IAPSIM_BUNDLE_ID": SignedDataDefaults.bundleId,
                "IAPSIM_APP_APPLE_ID": String(SignedDataDefaults.appAppleId),
            ], discardOutput: options.quietBackend)
        spawned = child
        if let failure = child.waitUntilHealthy(base: backend, http: http) {
            close()
            throw failure
        }
    }

    /// Without `--spawn`, the backend must answer something before anything runs.
    func checkReachable(_ http: BackendHTTP) throws(ServeFailure) {
        let path = options.config.ledger?.path ?? "/healthz"
        let e = http.call(
            HTTPExchange(virtual: 0, method: "GET", path: path, headers: [], body: ""),
            seconds: ServeLimits.notificationAnswerSeconds)
        guard e.status != nil else {
            throw ServeFailure(
                exitCode: 3,
                "the backend at \(backend) cannot be reached (GET \(path): \(e.failure ?? "no answer")); start it, "
                    + "or give --spawn 'CMD'")
        }
    }

    /// The merchant for the next world; its users are prefixed `prefix` (`f3-` for the third
    /// file, `r17-` for explore's run 17).
    package func merchant(users: [String], prefix: String, raceSeed: UInt64? = nil) throws(ServeFailure) -> (
        ServeMerchant, ExternalLink
    ) {
        worlds += 1
        (transport as? LiveTransport)?.world = worlds
        let ids = ServeIds(block: block, world: worlds, prefix: prefix)
        let merchant: ServeMerchant
        do {
            merchant = try ServeMerchant(
                config: options.config, ids: ids, users: users, environment: options.environment,
                transport: transport, api: api)
        } catch {
            throw ServeFailure(exitCode: 3, "cannot sign for \(options.environment.payloadName): \(error)")
        }
        merchant.race = ServeRace(on: options.race, draw: raceSeed.map { SplitMix64(seed: $0) })
        let link = ExternalLink(
            merchant: merchant, tickPeriods: options.config.ticks.map(\.everyMs), blind: options.config.ledger == nil,
            canSpend: options.config.spend != nil)
        return (merchant, link)
    }

    /// Why the run cannot go on (the backend unreachable at the first call, its ledger
    /// unreadable, a replay diverged), if so.
    package func failure(of merchant: ServeMerchant) -> ServeFailure? {
        transport.failure ?? merchant.failure
    }

    /// A replay must be asked for every exchange it holds.
    package var replayUnfinished: ServeFailure? {
        guard let replay = transport as? ReplayTransport, replay.failure == nil, !replay.finished else { return nil }
        return ServeFailure(
            exitCode: 2,
            "replay diverged: the run made \(replay.next) exchanges, the recording \(options.replay ?? "") holds more")
    }

    /// The serve's server-side fault commands (`server-api-fail`, `-slow`, `-outage`).
    package func arm(_ fault: ServerAPIFault) {
        guard let server else { return }
        Blocking.run { await server.arm(fault) }
    }

    /// `--hold`: answers from the final state until SIGTERM or SIGINT; then returns, so that
    /// the exit status is still the verdict's (the caller closes the session).
    package func hold() {
        if let server { Blocking.run { await server.useWallClock() } }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        ServeSession.holdPipe = fds[1]
        ServeSpawn.unblock([SIGINT, SIGTERM])
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in
                var byte: UInt8 = 1
                _ = write(ServeSession.holdPipe, &byte, 1)
            }
        }
        serve(until: fds[0])
        Glibc.close(fds[0])
        Glibc.close(fds[1])
    }

    /// While holding (the API answers on its own threads): wakes every `holdPollMs` to
    /// deliver the TEST notifications asked for meanwhile, since no exchange follows to carry
    /// them; returns once `wake` is readable (a signal wrote to it).
    func serve(until wake: Int32) {
        var watched = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&watched, 1, Self.holdPollMs)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
            deliverHeldTests()
        }
    }

    /// How often `hold()` looks for TEST notifications to deliver.
    static let holdPollMs: Int32 = 200

    /// Delivers the TEST notifications asked for while holding, straight to the backend (not
    /// recorded: the run is over) at the last world's virtual time; a replay has no backend,
    /// so its attempts time out.
    func deliverHeldTests() {
        let tests = api.takeTestRequests()
        guard !tests.isEmpty else { return }
        let now = api.now
        for test in tests {
            let sent = http?.call(
                HTTPExchange(
                    virtual: Int64(now), method: "POST", path: options.config.notify.path, headers: [],
                    body: ServeMerchant.testBody(test.signedPayload)),
                seconds: ServeLimits.notificationAnswerSeconds)
            api.recordTestAttempt(
                token: test.token, result: sent.map(ServeMerchant.testResult) ?? "TIMED_OUT", at: now)
        }
    }

    /// Where a signal wakes `hold()` (a signal handler can reach no instance).
    nonisolated(unsafe) static var holdPipe: Int32 = -1

    /// Stops the API, the spawned backend, the HTTP client; removes the keys' directory.
    package func close() {
        spawned?.stop()
        spawned = nil
        if let server {
            Blocking.run(within: .seconds(ServeLimits.spawnKillGraceSeconds), orElse: ()) { await server.stop() }
            self.server = nil
        }
        http?.shutdown()
        certs?.remove()
        certs = nil
    }
}
