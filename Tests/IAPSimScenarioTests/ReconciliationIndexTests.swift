import Testing

@testable import IAPSimCore
@testable import IAPSimScenario

/// The reconciliation's test of work in a long history: the store indexes its transactions by
/// `appAccountToken` from 16 on, and the test looks up the open order's charge there instead
/// of reading every transaction (debug builds read them all too and assert the same answer).
@Suite struct ReconciliationIndexTests {
    func scenario(purchasesBefore: Int) -> String {
        let earlier = String(repeating: "  - do: buy coins_100\n  - do: wait 1m\n", count: purchasesBefore)
        return """
            format: 1
            title: t
            environment: sandbox
            policy: {preset: sk2-hardened, retry-interval: "off", resend-on: none}
            seed: 3
            users: [bob]
            steps:
            \(earlier)  - do: buy coins_100
              - when: charged
                do: server-outage on
              - after: 30s
                do: crash
              - after: 10m
                do: server-outage off
              - when: credited
                within: 2h
                do: wait 0s

            """
    }

    /// The last charge's report and its one sandbox notification are lost to the outage and
    /// the app is dead: only the reconciliation can credit it, after 20 purchases (indexed) as
    /// after none (scanned).
    @Test(arguments: [0, 20])
    func theReconciliationFindsTheOpenOrdersChargeInAnyHistory(purchasesBefore: Int) throws {
        let r = try ScenarioPlayer.run(
            ScenarioParser.parse(text: scenario(purchasesBefore: purchasesBefore), file: "r.yaml")
        )
        .result
        #expect(r.timeout == nil, "the last charge was never credited")
        let store = r.simulation.store
        #expect(store.transactions.count == purchasesBefore + 1)
        #expect(r.simulation.server.balance(of: "bob") == 100 * (purchasesBefore + 1))
        let token = try #require(store.transactions.last?.appAccountToken)
        if purchasesBefore >= 16 {
            #expect(store.positions(withTokens: [token]) == [store.transactions.count - 1])
        } else {
            #expect(store.positions(withTokens: [token]) == nil)
        }
    }
}
