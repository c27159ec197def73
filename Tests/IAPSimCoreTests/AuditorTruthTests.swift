import Testing

@testable import IAPSimCore

/// docs/world.md, "The rules": the auditor never mislabels.
@Suite struct AuditorTruthTests {
    typealias T = AuditorTests

    static func credit(
        _ user: String, _ txn: String = "t1", order: String? = "o1", coins: Int = 100,
        product: String = "coins_100", via: SendReason = .firstDelivery
    ) -> Fact {
        .coinsCredited(user: user, coins: coins, product: product, txn: txn, order: order, sender: .app, via: via)
    }

    /// C1: a refused pairing that every relaunch repeats; the what-if runs on a copy.
    @Test func aRefusedPairingThatEveryRelaunchRepeatsIsPermanentAndTheLogKeepsOnlyTheVerdict() {
        var h = Harness(weakened(.naive, [(.finish, "after-credit")]))
        h.run(
            .failNextPayment(.cancelled), .buy(product: "coins_100"), .wait(10_000),
            .buy(product: "coins_100"), .wait(60_000), .crash, .wait(60_000), .launch, .openStore)
        h.settle()
        #expect(h.summary == ["duplicate-receipt:open"], "alive as far as the parts show")
        let logBefore = h.sim.log.count
        let now = h.sim.now
        h.sim.concludeVerdict()
        #expect(h.summary == ["duplicate-receipt:permanent"])
        #expect(h.anomalies[0].mechanism == "stuck: every relaunch repeats the same failure")
        #expect(h.sim.log.count == logBefore + 1 && h.sim.now == now, "only the auditor's change is written")
        #expect(h.queue == 2 && h.balance("alice") == 0, "the world itself is untouched")
    }

    /// C1: an open anomaly that a clean relaunch does credit stays open.
    @Test func anOpenAnomalyThatARelaunchWouldCreditStaysOpen() {
        var h = Harness(.naive)
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash, .wait(60_000), .launch)
        h.settle()
        h.sim.concludeVerdict()
        #expect(h.summary == ["lost-order:open"])
    }

    /// C2: an entitlement granted again to the account that holds it.
    @Test func regrantingAnHeldEntitlementIsNoCredit() {
        var a = AuditorTests.afterOneCharge()
        T.feed(&a, .paymentAdded(txn: "t2", product: "no_ads", applicationUsername: nil, user: "alice", order: "o2"))
        T.feed(&a, .paymentCharged(txn: "t2", product: "no_ads", priceCents: 299))
        T.feed(&a, Self.credit("alice", "t2", order: "o2", coins: 0, product: "no_ads"), at: 1)
        T.feed(&a, Self.credit("alice", "t2", order: "o3", coins: 0, product: "no_ads"), at: 2)
        #expect(a.count(.doubleCredit) == 0 && a.grantedNotPaidCents == 0)
        T.feed(&a, Self.credit("bob", "t2", order: "o3", coins: 0, product: "no_ads"), at: 3)
        #expect(a.count(.doubleCredit) == 1, "bob did not hold it: a real grant")
    }

    /// C3: money nets per account.
    @Test func moneyNetsPerAccount() {
        var a = AuditorTests.afterOneCharge()
        T.feed(&a, .paymentAdded(txn: "t2", product: "coins_100", applicationUsername: nil, user: "alice", order: "o2"))
        T.feed(&a, .paymentCharged(txn: "t2", product: "coins_100", priceCents: 99))
        T.feed(&a, .rechargeSent(txn: "t1", order: "o1", user: "alice", reason: .firstDelivery, forDelivered: "t2"))
        T.feed(&a, Self.credit("alice"), at: 1)
        T.feed(&a, Self.credit("alice"), at: 2)
        _ = T.evaluate(&a, at: 40_000)
        #expect(T.summary(a) == ["double-credit:permanent", "duplicate-receipt:permanent"])
        #expect(a.paidNotDeliveredCents == 0 && a.grantedNotPaidCents == 0)
        #expect(a.anomalies[0].summary.contains("order o2 was credited with t1's receipt"))
        #expect(a.anomalies[1].summary.contains("order o2 was credited with t1's receipt"))
        #expect(a.anomalies[1].involved == ["t2", "o2", "t1"])
    }

    /// C4: paired with a transaction already in flight, nothing sent.
    @Test func aPairingWithNothingSentIsADuplicateReceipt() {
        var a = AuditorTests.afterOneCharge()
        T.feed(&a, .transactionsDelivered(txns: ["t1"], redelivery: false), at: 1)
        T.feed(&a, .rechargeAlreadyInFlight(txn: "t9", forDelivered: "t1"), at: 1)
        _ = T.evaluate(&a, at: 40_000)
        #expect(T.summary(a) == ["duplicate-receipt:permanent"])
        #expect(
            a.anomalies[0].summary
                == "order o1 was paired with t9 instead of its own t1 (coins_100 paid by alice); t1 was never sent")
    }

    /// C5: a wrong account is resolved once the buyer is paid; the extra credit is one double credit.
    @Test func aWrongAccountIsResolvedWhenTheBuyerIsPaidToo() {
        var a = AuditorTests.afterOneCharge()
        T.feed(&a, Self.credit("bob"), at: 4)
        _ = T.evaluate(&a, at: 4)
        #expect(T.summary(a) == ["wrong-account:permanent"])
        T.feed(&a, Self.credit("alice", via: .redelivery(.launch)), at: 9)
        _ = T.evaluate(&a, at: 9)
        #expect(T.summary(a) == ["wrong-account:resolved", "double-credit:permanent"])
        #expect(a.anomalies[1].mechanism == "bob was granted it without payment")
        #expect(a.paidNotDeliveredCents == 0 && a.grantedNotPaidCents == 99)
    }

    /// C6: charged while the app does not run: quiet until the grace period after the launch.
    @Test func aChargeWhileTheAppIsClosedWaitsForTheGracePeriodAfterTheNextLaunch() {
        var a = Auditor()
        T.feed(&a, .appLaunched(freshInstall: false))
        T.feed(&a, .appBackgrounded, at: 1)
        T.feed(&a, .paymentAdded(txn: "t1", product: "coins_100", applicationUsername: nil, user: "alice", order: "o1"))
        T.feed(&a, .paymentCharged(txn: "t1", product: "coins_100", priceCents: 99), at: 10)
        #expect(a.graceDeadline("t1") == nil)
        #expect(T.evaluate(&a, at: 3_600_000).isEmpty, "an hour later: still not the app's fault")
        #expect(T.feed(&a, .appForegrounded, at: 3_600_000).isEmpty)
        #expect(a.graceDeadline("t1") == 3_600_000 + a.graceMs)
        #expect(T.evaluate(&a, at: 3_600_000 + a.graceMs).isEmpty)
        #expect(!T.evaluate(&a, at: 3_600_001 + a.graceMs).isEmpty)
        #expect(a.graceDeadline("t1") == nil, "an anomaly now")
    }

    /// Every type reads differently (what prevents each one is found by replay: `WhatIfTests`).
    @Test func everyTypeReadsDifferently() {
        #expect(Set(AnomalyType.allCases.map(\.meaning)).count == AnomalyType.allCases.count)
    }
}
