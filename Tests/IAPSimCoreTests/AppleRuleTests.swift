import Testing

@testable import IAPSimCore

/// docs/world.md, "The rules": Apple's rules the simulator used to miss.
@Suite struct AppleRuleTests {
    // MARK: B1 non-consumables

    @Test func aNonConsumableBoughtAgainIsNotChargedAndGrantedOnce() {
        var h = Harness(.hardened)
        h.run(.buy(product: "no_ads"), .wait(60_000), .buy(product: "no_ads"))
        h.settle()
        #expect(h.charged == 1)
        #expect(h.sim.auditor.paidNotDeliveredCents == 0)
        #expect(h.sim.auditor.grantedNotPaidCents == 0)
        #expect(h.sim.server.entitlements.map(\.user) == ["alice"])
        let second = h.sim.store.transaction("1000000000002")
        #expect(second?.state == .purchased)
        #expect(second?.originalId == "1000000000001")
        #expect(h.logText.contains("no_ads already owned: 1000000000002 purchased at no charge"))
        #expect(h.queue == 0)
    }

    @Test func theReceiptCarriesTheOriginalTransactionIdOfARebuy() {
        var h = Harness(.naive)
        h.run(.buy(product: "no_ads"), .wait(60_000), .buy(product: "no_ads"))
        h.settle()
        let entry = h.sim.store.receiptNow.first { $0.transactionId == "1000000000002" }
        #expect(entry?.originalTransactionId == "1000000000001")
        #expect(h.summary.isEmpty)
    }

    @Test func aRebuyCreditsTheOriginalsOrderWhenTheOriginalsRequestWasLost() {
        var h = Harness(.hardened)
        h.run(
            .buy(product: "no_ads"), .login(user: "bob"), .buy(product: "no_ads"),
            .dropNextRequest(.recharge))
        h.settle()
        #expect(h.sim.server.entitlements.map(\.user) == ["alice"])
        #expect(h.summary.isEmpty)
    }

    // MARK: B2 background and foreground

    @Test func nothingIsDeliveredInTheBackgroundAndEverythingUnfinishedIsAtTheForeground() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.when("purchasing")
        h.run(.background, .wait(20_000))
        #expect(!h.logText.contains("updatedTransactions"))
        #expect(h.sim.app.inBackground)
        h.run(.foreground)
        h.settle()
        #expect(h.logText.contains("(redelivered at foreground)"))
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 0)
    }

    @Test func anAnswerThatArrivesInTheBackgroundIsHandledAtTheForeground() {
        var h = Harness(.hardened)
        h.run(.buy(product: "coins_100"))
        h.when("request recharge")
        h.run(.background, .wait(60_000))
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 1)
        #expect(h.sim.app.parked.contains { if case .appReceive = $0 { true } else { false } })
        h.run(.foreground)
        h.settle()
        #expect(h.queue == 0)
        #expect(h.logText.contains("recharge 1000000000001 answered: credited"))
    }

    @Test func anAskToBuyApprovedWhileInTheBackgroundReachesTheObserverAtTheForeground() {
        var h = Harness(.hardened)
        h.run(.askToBuy(on: true), .buy(product: "coins_100"))
        h.when("deferred")
        h.run(.background, .wait(60_000), .approve, .wait(60_000))
        #expect(h.charged == 1)
        #expect(h.balance("alice") == 0)
        h.run(.foreground)
        h.settle()
        #expect(h.balance("alice") == 100)
        #expect(h.logText.contains("(redelivered at foreground)"))
    }

    @Test func theUserCannotActInsideABackgroundedApp() {
        var h = Harness(.hardened)
        h.run(.background)
        #expect(h.sim.refusal(of: .buy(product: "coins_100")) == "the app is in the background")
        #expect(h.sim.refusal(of: .background) == "the app is already in the background")
        #expect(h.sim.refusal(of: .crash) == nil)
        h.run(.foreground)
        #expect(h.sim.refusal(of: .foreground) == "the app is not in the background")
    }

    @Test func healBringsABackgroundedAppBack() {
        var h = Harness(.hardened)
        h.run(.background)
        #expect(h.sim.heal() == [.foreground])
    }

    @Test func backgroundAndForegroundAreTriggerEvents() {
        var h = Harness(.hardened)
        let written = h.sim.apply(.background) + h.sim.apply(.foreground)
        #expect(written.compactMap(\.fact.trigger) == [.backgrounded, .foregrounded])
    }

    // MARK: B4 verification statuses

    static func buyAfter(status: Int, _ preset: PolicyPreset = .hardened) -> Harness {
        var h = Harness(preset)
        h.run(.storeStatus(status), .buy(product: "coins_100"))
        h.settle()
        return h
    }

    @Test func retryableStatusesAreRetriedAndCredited() {
        for status in [21002, 21005, 21100, 21199] {
            let h = Self.buyAfter(status: status)
            #expect(h.logText.contains("retry later"), "\(status)")
            #expect(h.balance("alice") == 100, "\(status)")
        }
    }

    @Test func finalStatusesAreRefused() {
        for status in [21003, 21010] {
            let h = Self.buyAfter(status: status)
            #expect(h.logText.contains("refused"), "\(status)")
            #expect(h.balance("alice") == 0, "\(status)")
        }
    }

    @Test func aSandboxReceiptIsVerifiedAgainstTheSandbox() {
        let h = Self.buyAfter(status: 21007)
        #expect(h.logText.contains("21007, retried against the sandbox"))
        #expect(h.balance("alice") == 100)
        #expect(h.summary.isEmpty)
    }

    @Test func storeStatusZeroRestoresNormalAnswers() {
        var h = Harness(.hardened)
        h.run(.storeStatus(21003), .storeStatus(0), .buy(product: "coins_100"))
        h.settle()
        #expect(h.balance("alice") == 100)
        #expect(h.sim.armedFaults.isEmpty)
    }

    @Test func aNaiveAppLosesTheOrderOnARetryableStatus() {
        let h = Self.buyAfter(status: 21002, .naive)
        #expect(h.summary == ["missed-order:permanent"])
    }

    // MARK: B5 Ask to Buy

    @Test func theParentAnswersTheNewestRequest() {
        var h = Harness(.hardened)
        h.run(
            .askToBuy(on: true), .buy(product: "coins_100"), .wait(10_000),
            .buy(product: "coins_550"), .wait(10_000), .approve)
        h.settle()
        #expect(h.sim.auditor.charges.map(\.productId) == ["coins_550"])
        #expect(h.balance("alice") == 550)
    }

    @Test func aRepeatedRequestForTheSameProductIsMergedAndChargedOnce() {
        var h = Harness(.hardened)
        h.run(
            .askToBuy(on: true), .buy(product: "coins_100"), .wait(10_000),
            .buy(product: "coins_100"), .wait(10_000), .approve, .approve)
        h.settle()
        #expect(h.charged == 1)
        #expect(h.sim.store.transactions.count == 1)
        #expect(h.logText.contains("merged into the pending 1000000000001"))
        #expect(h.logText.contains("approve ignored: no payment is waiting for a parent"))
    }

    // MARK: B6 failed transactions

    @Test func aFailedTransactionHasNoIdCannotBeCreditedAndWaitsInTheQueue() {
        var h = Harness(.naive)
        h.run(
            .failNextPaymentUnfinished, .buy(product: "coins_100"), .wait(10_000),
            .buy(product: "coins_100"))
        h.settle()
        let failed = h.sim.store.transaction("1000000000001")
        #expect(failed?.state == .failed)
        #expect(failed?.transactionIdentifier == nil)
        #expect(h.sim.store.queue.map(\.id) == ["1000000000001"])
        #expect(h.logText.contains("1000000000001 coins_100 -> failed (transactionIdentifier (none))"))
        #expect(h.logText.contains("POST /recharge (none) order o2"))
        #expect(h.logText.contains("recharge (none) refused"))
        #expect(h.summary == ["duplicate-receipt:permanent"])
    }

    // MARK: B7 error names

    @Test func aPurchaseThatLosesItsConnectionFailsWithSKErrorUnknown() {
        #expect(PaymentFailure.network.skError == "SKError.unknown")
        #expect(PaymentFailure.cancelled.skError == "SKError.paymentCancelled")
    }
}
