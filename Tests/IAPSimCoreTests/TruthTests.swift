import Testing

@testable import IAPSimCore

/// docs/world.md, "The rules": the presets as their write-ups did them, and the policy keys that say so.
@Suite struct PresetTruthTests {
    @Test func retransmitRegistersTheObserverAtLaunchSoACrashAtTheChargeIsRedelivered() {
        var h = Harness(.retransmit)
        FailureModeTests.crashAtCharge(&h)
        #expect(h.summary == ["lost-order:resolved"])
        #expect(h.anomalies[0].mechanism == "redelivered at launch")
        #expect(h.balance("alice") == 100)
    }

    @Test func presetsSendAsTheBuyerExceptNaive() {
        #expect(PolicyPreset.naive.policy.resendAs == .currentUser)
        for preset in [PolicyPreset.hardened, .localTable, .retransmit, .retryFile] {
            #expect(preset.policy.resendAs == .buyer, "\(preset)")
            #expect(preset.policy.receipt == .snapshot, "\(preset)")
        }
        #expect(PolicyPreset.retryFile.policy.persistWhen == .afterRetries)
        #expect(PolicyPreset.hardened.policy.persistWhen == .beforeSend)
    }

    @Test func newKeysReadAndWriteTheirValues() throws {
        var p = PolicyPreset.naive.policy
        try p.set(.resendAs, to: "buyer")
        try p.set(.persistWhen, to: "after-retries")
        try p.set(.receipt, to: "fresh")
        #expect(p.value(of: .resendAs) == "buyer")
        #expect(p.value(of: .persistWhen) == "after-retries")
        #expect(p.value(of: .receipt) == "fresh")
        #expect(throws: PolicyValueError.self) { try p.set(.receipt, to: "stale") }
        #expect(PolicyKey.resendAs.acceptedValues == "buyer, current-user")
        #expect(PolicyKey.allCases.map(\.rawValue).contains("persist-when"))
    }

    /// Alice's receipt is pending (its request was lost); she logs out, Bob logs in, the
    /// app is relaunched and StoreKit redelivers.
    static func switchToBob(_ h: inout Harness) {
        h.run(
            .dropNextRequest(.recharge), .buy(product: "coins_100"), .wait(30_000),
            .logout, .login(user: "bob"), .crash, .launch)
        h.settle()
    }

    @Test func aResendAsTheBuyerWaitsForTheBuyerWhenTheServerCreditsWhoeverIsNamed() {
        var h = Harness(.localTable)
        Self.switchToBob(&h)
        #expect(h.balance("bob") == 0)
        #expect(h.sim.app.waitingForLogin == ["1000000000001"])
        #expect(h.logText.contains("waits for its buyer alice (bob is logged in)"))
        h.run(.login(user: "alice"))
        h.settle()
        #expect(h.balance("alice") == 100)
        #expect(h.summary == ["missed-order:resolved"])
    }

    @Test func aResendAsTheCurrentUserPaysWhoeverIsLoggedIn() {
        var h = Harness(weakened(.localTable, [(.resendAs, "current-user")]))
        Self.switchToBob(&h)
        #expect(h.balance("bob") == 100)
        #expect(h.summary == ["wrong-account:permanent"])
    }

    @Test func aResendAsTheBuyerGoesAtOnceWhenTheServerCreditsTheOrderOwner() {
        var h = Harness(weakened(.hardened, [(.retryImmediate, "0"), (.retryInterval, "off")]))
        Self.switchToBob(&h)
        #expect(h.balance("alice") == 100)
        #expect(h.balance("bob") == 0)
        #expect(h.logText.contains("POST /recharge 1000000000001 order o1 uid alice (redelivered at launch)"))
    }

    @Test func retryFileSavesOnlyAfterTheImmediateRetriesFail() {
        var h = Harness(.retryFile)
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(5_000))
        #expect(h.sim.app.files.isEmpty)
        #expect(h.sim.app.memory.count == 1)
        h.run(.wait(5_000))
        #expect(h.sim.app.files.map(\.txn) == ["1000000000001"])
    }

    @Test func aCrashBeforeTheRetriesFailLosesAReceiptKeptOnlyInMemory() {
        var h = Harness(.retryFile)
        h.run(.storeOutage(on: true), .buy(product: "coins_100"), .wait(4_000), .crash)
        #expect(h.sim.app.files.isEmpty)
        #expect(h.sim.app.reachablePending.isEmpty)
    }

    @Test func theRechargeAnswerListsEveryCreditedTransactionOfTheReceiptAndTheAppFinishesEach() {
        var h = Harness(
            weakened(
                .hardened,
                [
                    (.retryImmediate, "0"), (.resendOn, "none"),
                    (.retryInterval, "off"),
                ]))
        h.run(.dropNextResponse(.recharge), .buy(product: "coins_100"))
        h.when("credited")
        #expect(h.queue == 1)
        h.run(.wait(1_000), .buy(product: "coins_550"))
        h.settle()
        let answers = h.sim.log.compactMap { e -> RechargeAnswer? in
            if case .rechargeAnswered(_, let a) = e.fact { return a } else { return nil }
        }
        #expect(answers == [.credited(["1000000000002", "1000000000001"])])
        #expect(h.queue == 0)
        #expect(h.sim.app.keychain.isEmpty)
    }

    @Test func aFreshReceiptNoLongerHoldsAConsumableFinishedBeforeItsSend() {
        var h = Harness(weakened(.naive, [(.receipt, "fresh"), (.retryImmediate, "1")]))
        h.run(.dropNextRequest(.recharge), .buy(product: "coins_100"))
        h.settle()
        #expect(h.logText.contains("refused: transaction 1000000000001 is not in the receipt"))
        #expect(h.summary == ["missed-order:permanent"])
    }
}
