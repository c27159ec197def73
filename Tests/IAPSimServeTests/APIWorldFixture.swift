import Crypto
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimSigned

@testable import IAPSimServe

/// A world for the API to answer from: 23 charges (two pages of history), a full refund,
/// a refund request (CONSUMPTION_REQUEST) and the notifications of each.
enum APIWorldFixture {
    static let yaml = """
        format: 1
        title: "The App Store Server API's test world"
        policy: sk2-hardened
        seed: 7
        users: [alice]
        steps:
        \((1...22).map { _ in "  - do: buy coins_100\n  - after: 1m\n    do: wait 0s\n" }.joined())\
          - do: buy no_ads
          - after: 1m
            do: refund newest
          - after: 1m
            do: refund-request 1000000000002
          - after: 1m
            do: wait 0s
        """

    /// The world once the scenario has settled, with its whole log.
    static func simulation(environment: String? = nil) throws -> Simulation {
        var text = yaml
        if let environment {
            text = text.replacingOccurrences(of: "seed: 7", with: "seed: 7\nenvironment: \(environment)")
        }
        let scenario = try ScenarioParser.parse(text: text, file: "api-world.yaml")
        var player = ScenarioPlayer(scenario, logLimit: nil)
        _ = player.finish()
        return player.simulation
    }

    /// A world with one monthly subscription: bought, renewed once, auto-renew then off.
    static func subscriptionSimulation() throws -> Simulation {
        let text = """
            format: 1
            title: "A subscription for the API"
            policy: sk2-hardened
            users: [alice]
            steps:
              - do: buy pro_monthly
              - after: 35d
                do: auto-renew off
              - after: 1m
                do: wait 0s
            """
        var player = ScenarioPlayer(try ScenarioParser.parse(text: text, file: "api-subs.yaml"), logLimit: nil)
        while !player.stepsDone { _ = player.playStep() }
        return player.simulation
    }

    /// An App Store Server API token as Apple's clients make it: ES256 with api-key.p8.
    static func token(
        key: P256.Signing.PrivateKey? = nil, kid: String = APIKey.keyId, iss: String = APIKey.issuerId,
        aud: String = "appstoreconnect-v1", bid: String = APIKey.bundleId,
        exp: Int = Int(Date().timeIntervalSince1970) + 3_600
    ) throws -> String {
        let header = JSONText.members([("alg", .string("ES256")), ("kid", .string(kid)), ("typ", .string("JWT"))])
        let claims = JSONText.members([
            ("bid", .string(bid)), ("iss", .string(iss)), ("aud", .string(aud)), ("exp", .integer(Int64(exp))),
        ])
        let input =
            JWSSigner.base64URL(Array(header.text.utf8)) + "." + JWSSigner.base64URL(Array(claims.text.utf8))
        let signature = try (key ?? APIKey.privateKey()).signature(for: Array(input.utf8))
        return "Bearer " + input + "." + JWSSigner.base64URL(Array(signature.rawRepresentation))
    }
}
