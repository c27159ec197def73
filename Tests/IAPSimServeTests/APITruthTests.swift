import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimSigned
import Testing

@testable import IAPSimServe

/// The lookalike as Apple runs it (docs/server-api.md): Send Consumption Information
/// refuses what Apple refuses, Get Transaction History v1 is served, and a replaced
/// subscription transaction carries `isUpgraded`.
@Suite struct APITruthTests {
    static func server(_ text: String) async throws -> AppStoreAPIServer {
        var player = ScenarioPlayer(try ScenarioParser.parse(text: text, file: "t.yaml"), logLimit: nil)
        while !player.stepsDone { _ = player.playStep() }
        let world = LockedWorld(player.simulation)
        return try AppStoreAPIServer(world: world, environment: player.simulation.store.environment)
    }

    static func world(_ steps: [String]) -> String {
        "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\nsteps:\n"
            + steps.map { "  - do: \($0)\n" }.joined()
    }

    static func put(_ api: AppStoreAPIServer, _ txn: String, _ body: String) async throws -> (Int, Int?) {
        let answer = await api.answer(
            method: "PUT", target: "/inApps/v2/transactions/consumption/\(txn)",
            authorization: try APIWorldFixture.token(), body: body)
        return (answer.status, AppStoreAPITests.code(answer))
    }

    @Test func sendConsumptionInformationRefusesWhatAppleRefuses() async throws {
        let api = try await Self.server(Self.world(["buy coins_100", "wait 1m", "refund-request newest", "wait 1m"]))
        let txn = "1000000000001"
        let cases: [(String, Int, Int?)] = [
            (
                #"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, 400,
                4_000_035
            ),
            (#"{"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, 400, 4_000_035),
            (#"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#, 400, 4_000_041),
            (#"{"customerConsented":true,"sampleContentProvided":false}"#, 400, 4_000_036),
            (
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"NOT_A_STATUS"}"#, 400,
                4_000_036
            ),
            (
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED"}"#,
                400, 4_000_000
            ),
            (
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","consumptionPercentage":0}"#,
                400, 4_000_000
            ),
            (
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","consumptionPercentage":80000}"#,
                202, nil
            ),
            (
                #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"UNDELIVERED_OTHER"}"#, 202,
                nil
            ),
        ]
        for (body, status, code) in cases {
            let (s, c) = try await Self.put(api, txn, body)
            #expect(s == status && c == code, "\(body): \(s) \(String(describing: c))")
        }
    }

    @Test func aSubscriptionTakesNoConsumptionPercentage() async throws {
        let api = try await Self.server(Self.world(["buy pro_monthly", "wait 5d", "refund-request newest", "wait 1m"]))
        let base =
            #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED""#
        #expect(
            try await Self.put(api, "1000000000001", base + ",\"consumptionPercentage\":50000}") == (400, 4_000_000))
        #expect(try await Self.put(api, "1000000000001", base + "}") == (202, nil))
    }

    @Test func historyV1IsServedWithoutFinishedConsumables() async throws {
        let api = try await Self.server(Self.world(["buy coins_100", "wait 1m", "buy no_ads", "wait 1m"]))
        let v2 = try AppStoreAPITests.object(try await AppStoreAPITests.get(api, "/inApps/v2/history/1000000000001"))
        let v1 = try AppStoreAPITests.object(try await AppStoreAPITests.get(api, "/inApps/v1/history/1000000000001"))
        #expect((v2["signedTransactions"] as? [String])?.count == 2)
        #expect((v1["signedTransactions"] as? [String])?.count == 1)
        #expect(v1["hasMore"] as? Bool == false)
        let bad = try await AppStoreAPITests.get(api, "/inApps/v1/history/abc")
        #expect(bad.status == 400 && AppStoreAPITests.code(bad) == 4_000_006)
    }

    @Test func theTransactionAnUpgradeReplacedSaysIsUpgradedInHistory() async throws {
        let api = try await Self.server(
            Self.world(["buy pro_yearly", "wait 10d", "change-plan plus_monthly", "wait 1h"]))
        let page = try AppStoreAPITests.object(try await AppStoreAPITests.get(api, "/inApps/v2/history/1000000000001"))
        let payloads = try #require(page["signedTransactions"] as? [String]).map(Self.payload)
        let old = try #require(payloads.first { $0["transactionId"] as? String == "1000000000001" })
        #expect(old["isUpgraded"] as? Bool == true)
        let new = try #require(payloads.first { $0["transactionId"] as? String != "1000000000001" })
        #expect(new["isUpgraded"] == nil)
    }

    /// The payload of a compact JWS.
    static func payload(_ jws: String) -> [String: Any] {
        var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = Data(base64Encoded: part) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
