import Testing

@testable import IAPSimCore

/// Every failure mode of docs/world.md: once under a policy that exposes it, once under the fix.
@Suite struct FailureModeTests {
    // MARK: lost order

    static func crashAtCharge(_ h: inout Harness) {
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash, .wait(60_000), .launch)
        h.settle()
    }

    @Test func lostOrderStaysOpenWhileTheObserverWaitsForTheStoreScreen() {
        var h = Harness(.naive)
        Self.crashAtCharge(&h)
        #expect(h.summary == ["lost-order:open"])
        #expect(h.balance("alice") == 0)
        #expect(h.queue == 1)
        #expect(h.sim.auditor.paidNotDeliveredCents == 99)
    }

    @Test func lostOrderUnderNaiveIsRecoveredOnlyWhenTheStoreScreenOpens() {
        var h = Harness(.naive)
        Self.crashAtCharge(&h)
        h.run(.openStore)
        h.settle()
        #expect(h.summary == ["lost-order:resolved"])
        #expect(h.anomalies[0].mechanism == "redelivered when the store screen opened")
        #expect(h.balance("alice") == 100)
    }

    @Test func lostOrderIsRedeliveredAtLaunchUnderHardened() {
        var h = Harness(.hardened)
        Self.crashAtCharge(&h)
        #expect(h.summary == ["lost-order:resolved"])
        #expect(h.anomalies[0].mechanism == "redelivered at launch")
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 0)
        #expect(h.sim.auditor.paidNotDeliveredCents == 0)
    }

    // MARK: missed order

    @Test func lostRechargeRequestIsAPermanentMissedOrderUnderNaive() {
        var h = Harness(.naive)
        h.run(.dropNextRequest(.recharge), .buy(product: "coins_100"))
        h.settle()
        #expect(h.summary == ["missed-order:permanent"])
        #expect(h.balance("alice") == 0)
        #expect(h.queue == 0)
        #expect(h.sim.auditor.paidNotDeliveredCents == 99)
    }

    @Test func lostRechargeRequestIsRetriedAndCreditedOnceUnderHardened() {
        var h = Harness(.hardened)
        h.run(.dropNextRequest(.recharge), .buy(product: "coins_100"))
        h.settle()
        #expect(h.summary == [])
        #expect(h.balance("alice") == 100)
        #expect(h.sim.server.credits.count == 1)
        #expect(h.logText.contains("immediate retry 1"))
    }

    @Test func offlineMissedOrderResolvesWhenTheNetworkReturnsUnderHardened() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(.network(on: false), .wait(120_000), .network(on: true))
        h.settle()
        #expect(h.summary == ["missed-order:resolved"])
        #expect(h.anomalies[0].mechanism == "resent when the network returned")
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 0)
    }

    // MARK: replay fraud

    @Test func replayedReceiptIsCreditedAgainByANaiveServer() {
        var h = Harness(.naive)
        h.run(.buy(product: "coins_100"), .settle, .replay, .settle, .replay, .settle)
        #expect(h.summary == ["replay-fraud:permanent", "replay-fraud:permanent"])
        #expect(h.balance("alice") == 300)
        #expect(h.sim.auditor.grantedNotPaidCents == 198)
    }

    @Test func replayIsBlockedByDedupAndOrderBinding() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"), .settle, .replay, .settle)
        #expect(h.summary == ["replay-fraud:blocked"])
        #expect(h.anomalies[0].mechanism == "refused: transaction already credited")
        #expect(h.balance("alice") == 100)
        #expect(h.sim.auditor.grantedNotPaidCents == 0)
    }

    @Test func replayIsBlockedByOrderBindingAlone() {
        var h = Harness(weakened(.hardened, [(.serverDedup, "false")]))
        h.run(.buy(product: "coins_100"), .settle, .replay, .settle)
        #expect(h.summary == ["replay-fraud:blocked"])
        #expect(h.anomalies[0].mechanism?.contains("token does not match") == true)
        #expect(h.balance("alice") == 100)
    }

    // MARK: duplicate receipt

    @Test func unfinishedFailedTransactionIsPairedWithTheNextOrderUnderNaive() {
        var h = Harness(.naive)
        h.run(.failNextPayment(.cancelled), .buy(product: "coins_100"), .settle)
        h.run(.buy(product: "coins_100"), .settle)
        #expect(h.charged == 1)
        #expect(h.summary == ["duplicate-receipt:permanent"])
        #expect(h.balance("alice") == 0)
        #expect(h.sim.auditor.paidNotDeliveredCents == 99)
        #expect(h.logText.contains("is not in the receipt"))
    }

    @Test func pairingByTokenCreditsTheRealPaymentDespiteALeftoverFailure() {
        var h = Harness(.hardened)
        h.run(.failNextPaymentUnfinished, .buy(product: "coins_100"), .settle)
        h.run(.buy(product: "coins_100"), .settle)
        #expect(h.charged == 1)
        #expect(h.summary == [])
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 1, "the failed transaction the bug skipped is still unfinished")
    }

    // MARK: double credit

    static func lostResponseThenRedelivery(_ h: inout Harness) {
        h.run(.dropNextResponse(.recharge), .buy(product: "coins_100"), .settle)
        h.run(.crash, .launch, .openStore, .settle)
    }

    @Test func lostResponseAndRedeliveryCreditTwiceWithoutServerDedup() {
        var h = Harness(weakened(.naive, [(.finish, "after-credit")]))
        Self.lostResponseThenRedelivery(&h)
        #expect(h.summary == ["double-credit:permanent"])
        #expect(h.balance("alice") == 200)
        #expect(h.sim.auditor.grantedNotPaidCents == 99)
        #expect(h.queue == 0)
    }

    @Test func lostResponseIsAnsweredAlreadyCreditedUnderHardened() {
        var h = Harness(.hardened)
        Self.lostResponseThenRedelivery(&h)
        #expect(h.summary == [])
        #expect(h.balance("alice") == 100)
        #expect(h.logText.contains("already credited"))
        #expect(h.queue == 0)
    }

    // MARK: wrong account

    static func accountSwitchBeforeDelivery(_ h: inout Harness) {
        h.run(.buy(product: "coins_100"))
        h.when("charged")
        h.run(
            .crash, .network(on: false), .wait(60_000), .launch, .logout, .login(user: "bob"),
            .network(on: true), .openStore)
        h.settle()
    }

    @Test func pendingTransactionIsCreditedToWhoeverIsLoggedInUnderNaive() {
        var h = Harness(.naive)
        Self.accountSwitchBeforeDelivery(&h)
        #expect(h.anomalies(.wrongAccount).map(\.status) == [.permanent])
        #expect(h.balance("alice") == 0)
        #expect(h.balance("bob") == 100)
        #expect(h.sim.auditor.paidNotDeliveredCents == 99)
        #expect(h.sim.auditor.grantedNotPaidCents == 99)
    }

    @Test func orderOwnerIsCreditedWhateverAccountIsLoggedIn() {
        var h = Harness(.hardened)
        Self.accountSwitchBeforeDelivery(&h)
        #expect(h.anomalies(.wrongAccount).isEmpty)
        #expect(h.summary == ["lost-order:resolved"])
        #expect(h.balance("alice") == 100)
        #expect(h.balance("bob") == 0)
    }
}
