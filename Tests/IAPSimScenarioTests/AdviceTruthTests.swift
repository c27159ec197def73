import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Issue 49, item 2: advice never weakens. The truth hunt's naive findings
/// (../shared/reviews/truth-hunt.md, rows 16-18, files N1 and N2), kept as they were found.
@Suite struct AdviceTruthTests {
    static func explain(_ text: String) throws -> (ScenarioResult, WhatIfReport) {
        let scenario = try ScenarioParser.parse(text: text, file: "finding.yaml")
        let result = ScenarioPlayer.run(scenario).result
        return (result, scenario.whatIf(result.simulation))
    }

    static func fixes(_ x: AnomalyExplanation) -> [Set<String>] { x.preventedBy.map { Set($0.map(\.words)) } }

    /// N1 (row 16): a refund the sk2-naive server never hears of. `server-bind-order true`
    /// ends it only by refusing the purchase (no token to bind): the coins are never
    /// delivered, so it prevents nothing; the pairs that take the coins back are offered.
    @Test func aRefundUnclawedIsNotPreventedByRefusingEveryPurchase() throws {
        let (result, report) = try Self.explain(
            """
            format: 1
            title: N1
            policy: sk2-naive
            seed: 5266705631892356520
            users: [alice]
            steps:
              - do: buy coins_100
              - after: 10s
                do: refund newest
            """)
        let a = try #require(result.simulation.auditor.anomalies.first { $0.type == .refundUnclawed })
        #expect(a.status == .permanent)
        let x = try #require(report.explanation(of: a.id))
        let fixes = Self.fixes(x)
        #expect(!fixes.contains { $0.contains("server-bind-order true") }, "\(fixes)")
        #expect(fixes.contains(["server-notifications true", "server-clawback refunded-share"]), "\(fixes)")
        #expect(x.preventedByLine?.contains("server-bind-order") == false)
    }

    /// N2 (row 17): a full clawback on a 40% refund. The fix is the refunded share, not a
    /// server that refuses the purchase; the file's own `policy server-clawback full` step
    /// does not undo a change applied from the start.
    @Test func aRefundOverclawedIsPreventedByTheRefundedShare() throws {
        let (result, report) = try Self.explain(
            """
            format: 1
            title: N2
            policy: sk2-naive
            seed: 15897925802583272582
            users: [alice]
            grace-period: 16d
            steps:
              - do: policy server-notifications true
              - do: policy server-clawback full
              - do: buy coins_100
              - after: 10s
                do: refund newest percent 40
            """)
        let a = try #require(result.simulation.auditor.anomalies.first { $0.type == .refundOverclawed })
        #expect(a.status == .permanent)
        let fixes = Self.fixes(try #require(report.explanation(of: a.id)))
        #expect(!fixes.contains { $0.contains("server-bind-order true") }, "\(fixes)")
        #expect(fixes.contains(["server-clawback refunded-share"]), "\(fixes)")
    }

    /// A change counts only if the purchase it concerns is still delivered: every fix offered
    /// for N1 leaves the purchase credited when replayed.
    @Test func everyFixOfferedStillDeliversThePurchase() throws {
        let text = """
            format: 1
            title: N1
            policy: sk2-naive
            seed: 5266705631892356520
            users: [alice]
            steps:
              - do: buy coins_100
              - after: 10s
                do: refund newest
            """
        let scenario = try ScenarioParser.parse(text: text, file: "finding.yaml")
        let (_, report) = try Self.explain(text)
        let fixes = try #require(report.explanations.first).preventedBy
        #expect(!fixes.isEmpty)
        for fix in fixes {
            var policy = scenario.policy
            for change in fix { try policy.set(change.key, to: change.value) }
            let replay = scenario.replayInput.replay(policy: policy)
            #expect(replay.auditor.charges.allSatisfy { !$0.credits.isEmpty }, "\(fix.map(\.words))")
        }
    }

    /// Row 18: alice subscribes, bob logs in, the server grants bob the subscription. Bob
    /// never subscribed: nothing of his "ended"; the account is wrong.
    @Test func aSubscriptionGrantedToAnAccountThatNeverSubscribedIsWrongAccount() throws {
        let (result, report) = try Self.explain(
            """
            format: 1
            title: row 18
            policy: sk2-naive
            users: [alice, bob]
            steps:
              - do: buy pro_yearly
              - do: login bob
            """)
        let anomalies = result.simulation.auditor.anomalies
        #expect(!anomalies.contains { $0.type == .accessAfterEnd }, "\(anomalies.map(\.type))")
        let bob = try #require(anomalies.first { $0.type == .wrongAccount })
        #expect(bob.status == .permanent)
        #expect(bob.summary.contains("bob never subscribed"), "\(bob.summary)")
        #expect(anomalies.contains { $0.type == .renewalUnserved }, "alice paid and has no access")
        let x = try #require(report.explanation(of: bob.id))
        #expect(x.causedBy.contains { $0.command == .login(user: "bob") })
        #expect(Self.fixes(x).contains(["credit-to order-owner"]))
    }

    /// A subscriber whose own period ended and who keeps access is still `access-after-end`.
    @Test func aSubscriberKeptPastTheEndIsStillAccessAfterEnd() throws {
        let (result, _) = try Self.explain(
            """
            format: 1
            title: seed 3, run 809
            policy: sk2-naive
            seed: 12017738893392682128
            users: [alice]
            grace-period: 16d
            steps:
              - do: buy pro_yearly
              - do: billing-fail on
              - after: 10s
                do: crash
              - do: change-plan plus_monthly
              - do: wait 1680h
              - do: heal
              - do: launch
            """)
        let types = result.simulation.auditor.anomalies.map(\.type)
        #expect(types == [.accessAfterEnd], "\(types)")
    }

    /// A reproduction's faults are its cause: when the replay without them cannot be played
    /// (past the budget, or a harness that cannot say), the verdict does not claim that no
    /// injected input caused it.
    @Test func aCauseNotWorkedOutIsNotClaimedAbsent() throws {
        let scenario = try ScenarioParser.parse(
            text: """
                format: 1
                title: t
                policy: naive
                users: [alice]
                steps:
                  - do: policy finish on-purchase
                  - do: drop-next-request recharge
                  - do: buy coins_100
                  - do: wait 10s
                  - do: crash
                """, file: "t.yaml")
        let run = ScenarioPlayer.run(scenario).result.simulation
        let input = scenario.replayInput
        var engine = WhatIf(input)
        engine.replayer = { policy, removed in
            guard removed.isEmpty else { return nil }
            var times: [VirtualTime] = []
            return (input.replay(policy: policy, removing: [], stepTimes: &times), times)
        }
        let report = engine.report(for: run)
        let a = try #require(run.auditor.anomalies.first)
        let line = try #require(report.explanation(of: a.id)).causedByLine
        #expect(!line.contains("no injected input"), "\(line)")
        // Played for real, the faults are named.
        let real = scenario.whatIf(run)
        let words = try #require(real.explanation(of: a.id)).causedByLine
        #expect(words.contains("drop-next-request recharge"), "\(words)")
    }
}
