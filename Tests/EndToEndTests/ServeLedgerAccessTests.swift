import Foundation
import Testing

/// Under `serve` a subscription's access is what the backend's ledger lists (docs/serve.md,
/// rule 16): `subscriptions.NAME.access` is judged from the account's `entitlements`, and the
/// verdict's `subscription:` line says which entitlement grants it. The reference backend drops
/// the entitlement on EXPIRED; its `no-expiry` switch keeps it and the file fails.
@Suite(.serialized) struct ServeLedgerAccessTests {
    static let config = "tools/refbackend/serve.yaml"
    static let granted = "scenarios/serve/subscription-notifications.yaml"
    static let expired = "scenarios/serve/subscription-expired.yaml"

    static var python: String? { ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] }

    static func serve(bugs: String = "", _ files: [String]) throws -> CLI.Result {
        let spawn = (bugs.isEmpty ? "" : "BUGS=\(bugs) ") + "\(python!) tools/refbackend/refbackend.py"
        return try CLI.run(["serve", "--verbose", "--config", config, "--spawn", spawn] + files)
    }

    @Test(.enabled(if: python != nil, "no Apple venv"))
    func theAccessIsReadFromTheLedgersEntitlements() throws {
        let result = try Self.serve([Self.granted, Self.expired])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS     \(Self.granted)"), "\(result.stdout)")
        #expect(result.stdout.contains("PASS     \(Self.expired)"), "\(result.stdout)")
        #expect(
            result.stdout.contains("server grants access (the ledger lists pro_monthly)"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "expired, 1 payment(s) (0 renewal(s)), 4.99 kept; server grants no access"
                    + " (the ledger lists no product of its group)"), "\(result.stdout)")
    }

    @Test(.enabled(if: python != nil, "no Apple venv"))
    func aBackendThatIgnoresExpiredFailsTheAccessExpectation() throws {
        let result = try Self.serve(bugs: "no-expiry", [Self.expired])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL     \(Self.expired)"), "\(result.stdout)")
        #expect(result.stdout.contains("subscriptions alice access"), "\(result.stdout)")
        #expect(result.stdout.contains("server grants access (the ledger lists pro_monthly)"), "\(result.stdout)")
    }

    /// A blind backend (no `ledger`) cannot show the access: the file is invalid, naming it.
    @Test func aBlindServeRefusesAnAccessExpectation() throws {
        let dir = CLI.temporaryFile("serve-blind-access")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/serve.yaml"
        let original = try String(contentsOfFile: Self.config, encoding: .utf8)
        let blind = original.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("ledger:") }.joined(separator: "\n")
        #expect(blind != original, "the reference serve.yaml has a ledger line")
        try blind.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLI.run(["serve", "--backend", "http://127.0.0.1:9", "--config", config, Self.expired])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("needs the ledger")
                && (result.stdout + result.stderr).contains("subscriptions.*.access"),
            "\(result.stdout)\(result.stderr)")
    }

    /// A subscription anomaly type is still refused under serve, and the words say what to
    /// expect instead.
    @Test func aSubscriptionAnomalyTypeIsRefusedNamingTheAccessExpectation() throws {
        let dir = CLI.temporaryFile("serve-sub-anomaly")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/f.yaml"
        try """
        format: 1
        title: t
        merchant: external
        policy: sk2-hardened
        steps:
          - do: buy pro_monthly
        expect:
          anomalies: [{type: access-after-end}]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["serve", "--backend", "http://127.0.0.1:9", "--config", Self.config, file])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("access-after-end"), "\(result.stdout)")
        #expect(result.stdout.contains("expect subscriptions.NAME.access"), "\(result.stdout)")
    }
}
