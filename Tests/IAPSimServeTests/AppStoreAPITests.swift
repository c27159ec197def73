import Crypto
import Foundation
import IAPSimCore
import IAPSimSigned
import Testing

@testable import IAPSimServe

/// The App Store Server API's answers, asked directly (no socket): statuses, errors,
/// pagination, revision, rate limit, auth.
@Suite struct AppStoreAPITests {
    static func server(environment: String? = nil) async throws -> (AppStoreAPIServer, APIWorldView) {
        let sim = try APIWorldFixture.simulation(environment: environment)
        let world = LockedWorld(sim)
        let api = try AppStoreAPIServer(world: world, environment: sim.store.environment)
        return (api, await world.view())
    }

    static func get(_ api: AppStoreAPIServer, _ target: String, auth: String? = nil) async throws -> APIAnswer {
        await api.answer(
            method: "GET", target: target, authorization: try auth ?? APIWorldFixture.token(), body: "")
    }

    static func object(_ answer: APIAnswer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data((answer.json ?? "").utf8)) as? [String: Any])
    }

    static func code(_ answer: APIAnswer) -> Int? {
        (try? JSONSerialization.jsonObject(with: Data((answer.json ?? "").utf8)) as? [String: Any])?["errorCode"]
            as? Int
    }

    @Test func theWorldHasTwoPagesOfCharges() async throws {
        let (_, view) = try await Self.server()
        #expect(view.transactions.count == 23)
        #expect(view.transactions.filter { $0.signed.revocationDate != nil }.count == 1)
        #expect(view.consumptionRequests.map(\.txn) == ["1000000000002"])
        #expect(view.transactions.allSatisfy { $0.orderId.count == 10 && $0.orderId.hasPrefix("M") })
    }

    @Test func transactionInfoAndItsErrors() async throws {
        let (api, _) = try await Self.server()
        let found = try await Self.get(api, "/inApps/v1/transactions/1000000000001")
        #expect(found.status == 200)
        #expect(try Self.object(found)["signedTransactionInfo"] is String)
        let unknown = try await Self.get(api, "/inApps/v1/transactions/1999999999999")
        #expect(unknown.status == 404 && Self.code(unknown) == 4_040_010)
        let bad = try await Self.get(api, "/inApps/v1/transactions/abc")
        #expect(bad.status == 400 && Self.code(bad) == 4_000_006)
        #expect(bad.response.headers[.contentType] == "application/json")
    }

    @Test func historyPagesOldestFirstWithARevision() async throws {
        let (api, _) = try await Self.server()
        let first = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001?"))
        #expect((first["signedTransactions"] as? [String])?.count == 20)
        #expect(first["hasMore"] as? Bool == true)
        #expect(first["appAppleId"] as? Int == 6_450_000_001)
        let revision = try #require(first["revision"] as? String)
        let encoded = try #require(revision.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let second = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001?revision=\(encoded)"))
        #expect((second["signedTransactions"] as? [String])?.count == 3)
        #expect(second["hasMore"] as? Bool == false)
        // The last page's revision, used later: nothing changed since.
        let last = try #require(
            (second["revision"] as? String)?.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let later = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001?revision=\(last)"))
        #expect((later["signedTransactions"] as? [String])?.isEmpty == true)
        let bad = try await Self.get(api, "/inApps/v2/history/1000000000001?revision=nonsense")
        #expect(bad.status == 400 && Self.code(bad) == 4_000_005)
    }

    @Test func historyFiltersAndSort() async throws {
        let (api, _) = try await Self.server()
        let revoked = try Self.object(try await Self.get(api, "/inApps/v2/history/705000000000000001?revoked=TRUE"))
        #expect((revoked["signedTransactions"] as? [String])?.count == 1)
        let kept = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001?revoked=false"))
        #expect((kept["signedTransactions"] as? [String])?.count == 20)
        let nonConsumable = try Self.object(
            try await Self.get(api, "/inApps/v2/history/1000000000001?productType=NON_CONSUMABLE"))
        #expect((nonConsumable["signedTransactions"] as? [String])?.count == 1)
        let down = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001?sort=DESCENDING"))
        let up = try Self.object(try await Self.get(api, "/inApps/v2/history/1000000000001"))
        #expect((down["signedTransactions"] as? [String])?.first != (up["signedTransactions"] as? [String])?.first)
        let badType = try await Self.get(api, "/inApps/v2/history/1000000000001?productType=CAR")
        #expect(Self.code(badType) == 4_000_022)
    }

    @Test func lookUpOrderId() async throws {
        let (api, view) = try await Self.server()
        let order = try #require(view.transactions.first?.orderId)
        let found = try Self.object(try await Self.get(api, "/inApps/v1/lookup/\(order)"))
        #expect(found["status"] as? Int == 0 && (found["signedTransactions"] as? [String])?.count == 1)
        let unknown = try await Self.get(api, "/inApps/v1/lookup/M999999999")
        #expect(unknown.status == 200 && unknown.json == "{\"status\":1}")
    }

    @Test func aBadTokenIs401WithNoBody() async throws {
        let (api, _) = try await Self.server()
        let other = P256.Signing.PrivateKey()
        let bad = [
            nil, "Bearer x.y.z", try APIWorldFixture.token(key: other), try APIWorldFixture.token(kid: "WRONGKEY00"),
            try APIWorldFixture.token(iss: "someone"), try APIWorldFixture.token(aud: "elsewhere"),
            try APIWorldFixture.token(bid: "com.example.other"),
            try APIWorldFixture.token(exp: Int(Date().timeIntervalSince1970) - 10),
        ]
        for auth in bad {
            let answer = await api.answer(
                method: "GET", target: "/inApps/v1/transactions/1000000000001", authorization: auth, body: "")
            #expect(answer.status == 401 && answer.json == nil)
            #expect(answer.response.headers[.contentType] == nil)
        }
    }

    @Test func sandboxRateLimitIsATenthPerVirtualSecond() async throws {
        let (api, view) = try await Self.server(environment: "sandbox")
        var statuses: [Int] = []
        for _ in 0..<6 { statuses.append(try await Self.get(api, "/inApps/v1/transactions/1000000000001").status) }
        #expect(statuses == [200, 200, 200, 200, 200, 429])
        let limited = try await Self.get(api, "/inApps/v1/transactions/1000000000001")
        #expect(Self.code(limited) == 4_290_000)
        let retry = limited.headers.first { $0.0 == "Retry-After" }?.1
        #expect(retry == String(APISigner.unix((view.now / 1_000 + 1) * 1_000)))
        // Another endpoint has its own count.
        #expect(try await Self.get(api, "/inApps/v1/lookup/M1").status == 200)
    }

    /// SERVE-CI rule 9: under `--time real` and while holding, a window is a wall-clock second:
    /// the world stands still, yet a client that waits for `Retry-After` gets through.
    @Test func onTheWallClockAClientHonouringRetryAfterGetsThrough() async throws {
        let (api, _) = try await Self.server(environment: "sandbox")
        await api.useWallClock()
        var limited: (status: Int, headers: [(String, String)])?
        for _ in 0..<20 {
            let answer = try await Self.get(api, "/inApps/v1/transactions/1000000000001")
            if answer.status == 429 {
                limited = (answer.status, answer.headers)
                break
            }
        }
        let retry = try #require(limited?.headers.first { $0.0 == "Retry-After" }.flatMap { Int64($0.1) })
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        #expect(retry > now - 1_000 && retry <= now + 1_000, "Retry-After \(retry) is not the wall clock's \(now)")
        try await Task.sleep(nanoseconds: UInt64(max(0, retry - now) + 50) * 1_000_000)
        #expect(try await Self.get(api, "/inApps/v1/transactions/1000000000001").status == 200)
    }

    @Test func faultsAnswerWithTheirCode() async throws {
        let (api, _) = try await Self.server()
        await api.arm(.fail(count: 2, code: 4_290_000))
        var codes: [Int] = []
        for _ in 0..<3 { codes.append(try await Self.get(api, "/inApps/v1/lookup/M1").status) }
        #expect(codes == [429, 429, 200])
        await api.arm(.outage(true))
        #expect(try await Self.get(api, "/inApps/v1/lookup/M1").status == 503)
    }

    @Test func consumptionAndTestNotifications() async throws {
        let (api, view) = try await Self.server()
        let body = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
        let inWindow = view.consumptionRequests.contains { view.now - $0.at <= 12 * 3_600_000 }
        let put = await api.answer(
            method: "PUT", target: "/inApps/v2/transactions/consumption/1000000000002",
            authorization: try APIWorldFixture.token(), body: body)
        #expect(put.status == (inWindow ? 202 : 400))
        let none = await api.answer(
            method: "PUT", target: "/inApps/v2/transactions/consumption/1000000000003",
            authorization: try APIWorldFixture.token(), body: body)
        #expect(none.status == 400 && Self.code(none) == 4_000_000)
        let test = await api.answer(
            method: "POST", target: "/inApps/v1/notifications/test", authorization: try APIWorldFixture.token(),
            body: "")
        let token = try #require(try Self.object(test)["testNotificationToken"] as? String)
        await api.recordTestAttempt(token: token, result: "SUCCESS", at: view.now)
        let status = try Self.object(try await Self.get(api, "/inApps/v1/notifications/test/\(token)"))
        #expect(status["firstSendAttemptResult"] as? String == "SUCCESS")
        // Production allows one status call a second: the unknown token is asked of a fresh server.
        let (fresh, _) = try await Self.server()
        let unknown = try await Self.get(fresh, "/inApps/v1/notifications/test/nope")
        #expect(unknown.status == 404 && Self.code(unknown) == 4_040_008)
    }

    /// SERVE-CI rule 2: two worlds drew the same notification UUIDs (each world has the same
    /// seed); the backend sees each world's own, and Get Notification History lists every
    /// notification of both, each with its own world's attempts, never merged.
    @Test func notificationHistoryNeverMergesWorlds() async throws {
        let sim = try APIWorldFixture.simulation()
        var view = APIWorldView(simulation: sim, ids: ServeIds(block: 7, world: 1, prefix: "f1-").api)
        view.append(APIWorldView(simulation: sim, ids: ServeIds(block: 7, world: 2, prefix: "f2-").api))
        let api = try AppStoreAPIServer(world: FixedView(shown: view), environment: .production)
        let one = APIWorldView(simulation: sim).notifications
        let start = APISigner.unix(0), end = APISigner.unix(view.now + 1)
        var items: [[String: Any]] = []
        var token: String?
        repeat {
            let query = token.map {
                "?paginationToken=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            }
            let page = try Self.object(
                await api.answer(
                    method: "POST", target: "/inApps/v1/notifications/history" + (query ?? ""),
                    authorization: try APIWorldFixture.token(), body: "{\"startDate\":\(start),\"endDate\":\(end)}"))
            items += page["notificationHistory"] as? [[String: Any]] ?? []
            token = page["paginationToken"] as? String
        } while token != nil
        let uuidsOfOne = Set(one.map(\.notification.uuid))
        #expect(items.count == 2 * uuidsOfOne.count)
        let attempts = items.map { ($0["sendAttempts"] as? [Any])?.count ?? 0 }
        #expect(attempts.reduce(0, +) == 2 * one.count, "every attempt once, in its own world")
    }

    @Test func notificationHistoryListsEveryNotification() async throws {
        let (api, view) = try await Self.server()
        let start = APISigner.unix(0), end = APISigner.unix(view.now + 1)
        let answer = await api.answer(
            method: "POST", target: "/inApps/v1/notifications/history", authorization: try APIWorldFixture.token(),
            body: "{\"startDate\":\(start),\"endDate\":\(end)}")
        let page = try Self.object(answer)
        #expect((page["notificationHistory"] as? [Any])?.count == 20)
        #expect(page["hasMore"] as? Bool == true)
        let token = try #require(
            (page["paginationToken"] as? String)?.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let next = try Self.object(
            await api.answer(
                method: "POST", target: "/inApps/v1/notifications/history?paginationToken=\(token)",
                authorization: try APIWorldFixture.token(), body: "{\"startDate\":\(start),\"endDate\":\(end)}"))
        // 23 ONE_TIME_CHARGE, a REFUND, a CONSUMPTION_REQUEST.
        #expect((next["notificationHistory"] as? [Any])?.count == 5)
    }
}

/// A provider that always shows one view (two worlds appended, as `iapsim serve` shows them).
struct FixedView: APIWorldProvider {
    let shown: APIWorldView
    func view() async -> APIWorldView { shown }
    func consumptionInformation(txn: String, body: String) async {}
    func testNotificationRequested(token: String, signedPayload: String) async {}
}
