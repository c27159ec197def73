import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimSigned
import Testing

@testable import IAPSimServe

/// Apple's rules for the lookalike that the 2026-c audit found missing (issue 49, item 3;
/// docs/server-api.md): Get Notification History's filters refused as Apple refuses them, Set
/// App Account Token served, a path no endpoint serves a bare 404, and a TEST notification
/// delivered under `serve --hold`.
@Suite(.serialized) struct APIAppleRulesTests {
    static func history(_ api: AppStoreAPIServer, _ filters: String) async throws -> APIAnswer {
        await api.answer(
            method: "POST", target: "/inApps/v1/notifications/history", authorization: try APIWorldFixture.token(),
            body: "{\"startDate\":\(APISigner.unix(0)),\"endDate\":\(APISigner.unix(400 * 86_400_000))\(filters)}")
    }

    static func put(_ api: AppStoreAPIServer, _ id: String, _ body: String) async throws -> APIAnswer {
        await api.answer(
            method: "PUT", target: "/inApps/v1/transactions/\(id)/appAccountToken",
            authorization: try APIWorldFixture.token(), body: body)
    }

    /// N7: `transactionId` with `notificationType` is `4000019`; an unknown type, an unknown
    /// subtype, a subtype without its type, or a pair Apple never sends is `4000018`.
    @Test func notificationHistoryRefusesTwoFiltersAndAnUnknownType() async throws {
        let (api, _) = try await AppStoreAPITests.server()
        let refused: [(String, Int)] = [
            (#","transactionId":"1000000000002","notificationType":"REFUND""#, 4_000_019),
            (#","transactionId":"1000000000002","notificationSubtype":"VOLUNTARY""#, 4_000_019),
            (#","notificationType":"NOPE""#, 4_000_018),
            (#","notificationType":"REFUND","notificationSubtype":"NOPE""#, 4_000_018),
            (#","notificationType":"SUBSCRIBED","notificationSubtype":"VOLUNTARY""#, 4_000_018),
            (#","notificationType":"REFUND","notificationSubtype":"VOLUNTARY""#, 4_000_018),
            (#","notificationSubtype":"RESUBSCRIBE""#, 4_000_018),
        ]
        for (filters, code) in refused {
            let answer = try await Self.history(api, filters)
            #expect(answer.status == 400 && AppStoreAPITests.code(answer) == code, "\(filters): \(answer.json ?? "")")
        }
        let refunds = try await Self.history(api, #","notificationType":"REFUND""#)
        #expect(refunds.status == 200)
        #expect((try AppStoreAPITests.object(refunds)["notificationHistory"] as? [Any])?.count == 1)
        let byTransaction = try await Self.history(api, #","transactionId":"1000000000002""#)
        #expect(byTransaction.status == 200)
        let expired = try await Self.history(api, #","notificationType":"EXPIRED","notificationSubtype":"VOLUNTARY""#)
        #expect(expired.status == 200)
        #expect((try AppStoreAPITests.object(expired)["notificationHistory"] as? [Any])?.isEmpty == true)
    }

    /// N9: Set App Account Token answers 200 with no body, and from then on the transaction,
    /// the renewal info, the renewals and their notifications carry the token; it refuses what
    /// Apple refuses.
    @Test func setAppAccountTokenIsServedAndLaterPayloadsCarryTheToken() async throws {
        var player = ScenarioPlayer(
            try ScenarioParser.parse(
                text: APITruthTests.world(["buy pro_monthly", "wait 1d"]), file: "t.yaml"), logLimit: nil)
        while !player.stepsDone { _ = player.playStep() }
        let world = LockedWorld(player.simulation)
        let api = try AppStoreAPIServer(world: world, environment: .production)
        let token = "6f1c2e8a-0b7d-4c1e-9a3f-2d5e8b7c4a10"
        let old = await world.simulation.store.transaction("1000000000001")?.appAccountToken
        #expect(old != nil && old != token)

        let set = try await Self.put(api, "1000000000001", "{\"appAccountToken\":\"\(token)\"}")
        #expect(set.status == 200 && set.json == nil, "\(set.status) \(set.json ?? "")")
        let info = try await AppStoreAPITests.get(api, "/inApps/v1/transactions/1000000000001")
        let signed = try #require(try AppStoreAPITests.object(info)["signedTransactionInfo"] as? String)
        #expect(APITruthTests.payload(signed)["appAccountToken"] as? String == token)

        await world.update { $0.run(until: $0.now + 40 * 86_400_000) }
        let sim = await world.simulation
        let renewal = try #require(sim.store.transaction("1000000000002"))
        #expect(renewal.subscription?.reason == .renewal)
        #expect(renewal.appAccountToken == token)
        #expect(sim.subscribers.first?.renewalInfo.appAccountToken == token)
        let renewed = sim.log.compactMap { e -> ServerNotification? in
            guard case .notificationSent(let n) = e.fact, n.type == .didRenew else { return nil }
            return n
        }
        #expect(!renewed.isEmpty && renewed.allSatisfy { $0.transaction.appAccountToken == token })
        #expect(renewed.allSatisfy { $0.renewalInfo?.appAccountToken == token })

        let refused: [(String, String, Int, Int)] = [
            ("1000000000001", #"{"appAccountToken":"not-a-uuid"}"#, 400, 4_000_183),
            ("1000000000001", "{}", 400, 4_000_183),
            ("1000000000002", "{\"appAccountToken\":\"\(token)\"}", 400, 4_000_187),
            ("1000000000099", "{\"appAccountToken\":\"\(token)\"}", 404, 4_040_010),
            ("abc", "{\"appAccountToken\":\"\(token)\"}", 400, 4_000_008),
        ]
        for (id, body, status, code) in refused {
            let answer = try await Self.put(api, id, body)
            #expect(answer.status == status && AppStoreAPITests.code(answer) == code, "\(id) \(body)")
        }
    }

    /// N9 under `serve`: a token the backend set during an exchange is the world's when the
    /// exchange ends, so the renewals that follow carry it (and the log says so).
    @Test func aTokenSetDuringAnExchangeIsCarriedByTheRenewalsAfterIt() {
        let token = "6f1c2e8a-0b7d-4c1e-9a3f-2d5e8b7c4a10"
        let backend = TokenSettingBackend(change: AppAccountTokenChange(original: "1000000000001", token: token))
        var policy = PolicyPreset.sk2Hardened.policy
        policy.serverReconcileMs = nil
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: policy))
        sim.external = ExternalLink(merchant: backend)
        _ = sim.apply(.buy(product: "pro_monthly"))
        sim.run(until: 40 * 86_400_000)
        #expect(backend.set)
        #expect(sim.store.transaction("1000000000001")?.appAccountToken == token)
        let renewal = sim.store.transactions.first { $0.subscription?.reason == .renewal }
        #expect(renewal?.appAccountToken == token)
        #expect(sim.subscribers.first?.renewalInfo.appAccountToken == token)
        #expect(sim.log.contains { $0.fact.text.contains("Set App Account Token: 1000000000001") })
    }

    /// N9: a path that no endpoint serves is a bare 404: no body, no invented error code.
    @Test func anUnservedPathIsABare404() async throws {
        let (api, _) = try await AppStoreAPITests.server()
        let token = try APIWorldFixture.token()
        for (method, target) in [
            ("GET", "/inApps/v2/refund/lookup/1000000000001"),
            ("GET", "/inApps/v1/transactions/appTransactions/1000000000001"),
            ("PUT", "/inApps/v1/transactions/consumption/1000000000001"),
            ("DELETE", "/inApps/v1/transactions/1000000000001"),
        ] {
            let answer = await api.answer(method: method, target: target, authorization: token, body: "{}")
            #expect(answer.status == 404 && answer.json == nil, "\(method) \(target): \(answer.json ?? "")")
        }
    }

    /// N8: under `--hold` no exchange follows, yet a TEST notification asked for reaches the
    /// backend within a second and Get Test Notification Status shows the attempt.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func aTestNotificationIsDeliveredWhileHolding() async throws {
        let seen = NSTemporaryDirectory() + "iapsim-held-test-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: seen) }
        var options = ServeSession.Options()
        options.spawn =
            "MODE=notes SEEN=\(seen) python3 \(AppStoreAPISocketTests.repository)/Tests/Fixtures/serve/hostile_round3.py"
        options.quietBackend = true
        // The suite's other tests may hold the cooperative threads a while: as the socket tests.
        options.apiListenSeconds = AppStoreAPISocketTests.listenSeconds
        // The session blocks while it starts and stops: on a thread of its own, not the test's.
        let chosen = options
        let started = await Self.offThePool { Result { try ServeSession(chosen) } }
        let session = try started.get()
        let server = try #require(session.server)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (wake, woken) = (fds[0], fds[1])
        let held = Thread { session.serve(until: wake) }
        held.start()
        defer { Self.stop(held, wake: wake, woken: woken, session) }
        let asked = await server.answer(
            method: "POST", target: "/inApps/v1/notifications/test", authorization: try APIWorldFixture.token(),
            body: "")
        let testToken = try #require(try AppStoreAPITests.object(asked)["testNotificationToken"] as? String)
        let clock = ContinuousClock()
        let start = clock.now
        var attempts: [[String: Any]] = []
        // The hold loop looks every 200 ms and delivers at once (a second on an idle machine);
        // the wait allows a loaded one (the whole suite on two cores, where ten were once too
        // few) sixty; it ends as soon as the attempt is there.
        while attempts.isEmpty, clock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
            // The status endpoint allows one call a second: its answer is read from the server.
            attempts =
                await server.tests.first { $0.token == testToken }?.attempts.map {
                    ["sendAttemptResult": $0.result]
                } ?? []
        }
        #expect(attempts.first?["sendAttemptResult"] as? String == "SUCCESS", "no attempt within \(clock.now - start)")
        try await Task.sleep(for: .milliseconds(1_100))
        let status = try await AppStoreAPITests.get(server, "/inApps/v1/notifications/test/\(testToken)")
        let sent = try AppStoreAPITests.object(status)["sendAttempts"] as? [[String: Any]]
        #expect(sent?.first?["sendAttemptResult"] as? String == "SUCCESS", "\(status.json ?? "")")
        let lines = (try? String(contentsOfFile: seen, encoding: .utf8)) ?? ""
        #expect(lines.contains("POST /apple/notifications {\"signedPayload\":"), "\(lines)")
    }

    /// Wakes the holding thread, waits for it, and closes the session.
    static func stop(_ held: Thread, wake: Int32, woken: Int32, _ session: ServeSession) {
        var byte: UInt8 = 1
        _ = write(woken, &byte, 1)
        while !held.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        close(wake)
        close(woken)
        session.close()
    }

    /// `work` on a thread of its own, awaited without holding one of the cooperative threads.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in Thread { done.resume(returning: work()) }.start() }
    }
}

/// A backend that sets an app account token through the API while it answers its first
/// notification (as Set App Account Token during an exchange would).
final class TokenSettingBackend: ExternalMerchant, @unchecked Sendable {
    let change: AppAccountTokenChange
    var set = false

    init(change: AppAccountTokenChange) { self.change = change }

    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        switch request {
        case .order: return ExternalReply(.order(id: "o1", token: "00000000-0000-4000-8000-000000000001"))
        case .report(let r, _, _): return ExternalReply(.report(.credited([r.transactionId])))
        case .notification:
            var reply = ExternalReply(.notification(status: 200))
            if !set {
                set = true
                reply.tokenChanges = [change]
            }
            return reply
        default: return ExternalReply(.done(nil))
        }
    }
}
