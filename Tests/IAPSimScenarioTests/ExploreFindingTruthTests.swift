import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Two sk2-hardened explore findings beyond CI's seeds, shrunk, each a defect of the
/// simulated merchant server, not of the preset: kept as they were found, with what the
/// fixed server does.
@Suite struct ExploreFindingTruthTests {
    func run(_ text: String) throws -> ScenarioResult {
        try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: "finding.yaml")).result
    }

    func summary(_ r: ScenarioResult) -> [String] {
        r.simulation.auditor.anomalies.map { "\($0.type.rawValue):\($0.status.rawValue)" }
    }

    /// Seed 5, run 14240: a refund at the very millisecond of the purchase, then the app's
    /// sweep reports the purchase. The report is news of the purchase; the refund, heard
    /// before it, is the newer news even at the same millisecond: access stays revoked.
    @Test func aReportAtTheMillisecondOfARefundDoesNotGrantAccessAgain() throws {
        let r = try run(seed5(outage: false))
        #expect(summary(r).isEmpty, "\(summary(r))")
        #expect(!r.simulation.server.hasAccess("alice", at: r.simulation.now, policy: r.simulation.policy))
    }

    /// Seed 5's finding: a yearly subscription, the app dead at its delivery, refunded, the
    /// app launched again; with `outage`, the server is down from 1 s to the heal 70 days later.
    func seed5(outage: Bool) -> String {
        let down = outage ? "\n  - after: 1s\n    do: server-outage on" : ""
        let wait = outage ? "\n  - do: wait 1680h\n  - do: heal" : ""
        return """
            format: 1
            title: t
            policy: sk2-hardened
            seed: 5729951302438371622
            users: [alice]
            grace-period: 16d
            steps:
              - do: buy pro_yearly\(down)
              - when: delivered
                do: crash
              - do: refund newest\(wait)
              - do: launch
            """
    }

    /// Seed 5, run 14240 (found again after the fix above): the subscription refunded while
    /// the server is down and every REFUND notification lost, then the app's sweep at launch
    /// reports it. StoreKit hands the transaction over signed now, revoked; the app sent the
    /// older copy its keychain kept (no revocation), and the server granted a year. The app
    /// sends what StoreKit just signed: the server hears the revocation, grants nothing.
    @Test func aSweptTransactionIsReportedAsStoreKitSignsItNowNotAsTheKeychainKeptIt() throws {
        let r = try run(seed5(outage: true))
        #expect(summary(r).isEmpty, "\(summary(r))")
        #expect(!r.simulation.server.hasAccess("alice", at: r.simulation.now, policy: r.simulation.policy))
        let reported = r.simulation.log.compactMap { e -> SignedTransaction? in
            if case .transactionSigned(let s) = e.fact, e.time > 6_048_000_000 { return s }
            return nil
        }
        #expect(!reported.isEmpty && reported.allSatisfy { $0.revocationDate != nil })
    }

    /// Seed 5, run 14240 (found a third time, the app running throughout): the refund reaches
    /// the running app on `Transaction.updates` while its report of the purchase is still
    /// being retried against a server that is down. The retries after the outage carried the
    /// JWS kept from the purchase and won a year of access; they now carry the revoked one.
    @Test func aReportStillOwedCarriesTheRevocationTheAppWasHanded() throws {
        let r = try run(
            """
            format: 1
            title: t
            policy: sk2-hardened
            seed: 5729951302438371622
            users: [alice]
            grace-period: 16d
            steps:
              - do: buy pro_yearly
              - after: 1s
                do: server-outage on
              - after: 10s
                do: refund newest
              - do: wait 1680h
              - do: heal
            """)
        #expect(summary(r).isEmpty, "\(summary(r))")
        #expect(!r.simulation.server.hasAccess("alice", at: r.simulation.now, policy: r.simulation.policy))
    }

    /// Seed 4, run 936, with Apple's steps a second apart: a full refund whose REFUND is held
    /// back an hour, its reversal, then a 50% refund. The stale REFUND arrives last; a server
    /// that applies refund news as it arrives takes back the whole again (refund-overclawed,
    /// "prevented by: no hardening" before `server-refund-order` existed); one that compares
    /// `signedDate` ignores it and keeps the customer's other half. (Without reconciliation:
    /// with it, the hourly history read sets the clawback back to the newest share.)
    @Test(arguments: [("signed-date", 50, false), ("arrival", 0, true)])
    func aRefundDelayedPastNewerRefundNewsIsIgnoredBySignedDate(order: String, coins: Int, overclawed: Bool) throws {
        let r = try run(
            """
            format: 1
            title: t
            policy: {preset: sk2-hardened, server-refund-order: \(order), server-reconcile: "off"}
            seed: 18274622515081626997
            users: [alice]
            steps:
              - do: buy coins_100
              - after: 10s
                do: delay-next-notification 1h
              - do: refund newest
              - after: 1s
                do: refund-reverse newest
              - after: 1s
                do: refund newest percent 50
              - do: heal
            """)
        #expect(r.simulation.server.balance(of: "alice") == coins)
        #expect(summary(r).contains("refund-overclawed:permanent") == overclawed, "\(summary(r))")
        #expect(summary(r).filter { !$0.hasSuffix(":resolved") }.count == (overclawed ? 1 : 0), "\(summary(r))")
    }

    /// Seed 3, run 2415: an unlock refunded 50% (kept: a share of an unlock rounds to
    /// nothing), the refund reversed while the server is down, then refunded whole. The
    /// whole refund, heard after the outage, takes the unlock back.
    @Test func aWholeRefundAfterAProratedOneTakesTheUnlockBack() throws {
        let r = try run(
            """
            format: 1
            title: t
            policy: sk2-hardened
            seed: 2193268827541497902
            users: [alice]
            grace-period: 3d
            steps:
              - do: buy no_ads
              - after: 1s
                do: buy coins_100
              - after: 10s
                do: refund newest
              - do: refund newest percent 50
              - after: 250ms
                do: server-outage on
              - do: refund-reverse newest
              - do: refund newest
              - do: wait 1680h
              - do: heal
            """)
        #expect(summary(r) == ["refund-unclawed:resolved", "refund-unclawed:resolved"], "\(summary(r))")
        #expect(!r.simulation.server.entitlements.contains { $0.user == "alice" && $0.product == "no_ads" })
    }
}

extension ExploreFindingTruthTests {
    /// Seed 1, run 1251 (found while fixing the two above): an unlock refunded whole is no
    /// longer owned, so buying it again is charged again (StoreKit 2 returns the existing
    /// transaction only for what the Apple ID owns), and the server takes back nothing twice.
    @Test func aRefundedUnlockIsBoughtAndChargedAgain() throws {
        let r = try run(
            """
            format: 1
            title: t
            policy: sk2-hardened
            users: [alice]
            steps:
              - do: buy no_ads
              - after: 10s
                do: refund newest
              - after: 1m
                do: buy no_ads
            """)
        #expect(summary(r) == ["refund-unclawed:resolved"], "\(summary(r))")
        let charges = r.simulation.log.filter { if case .paymentCharged = $0.fact { true } else { false } }
        #expect(charges.count == 2, "the second purchase is charged: \(charges)")
        #expect(r.simulation.server.entitlements.contains { $0.user == "alice" && $0.product == "no_ads" })
    }
}
