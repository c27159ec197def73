import Testing

@testable import IAPSimCore

@Suite struct AppStoreTests {
    func store() -> AppStore { AppStore(catalog: .standard, rng: SplitMix64(seed: 3)) }
    func outbox() -> Outbox { Outbox(now: 0, policy: PolicyPreset.hardened.policy, nextMessageId: 0, nextExchange: 0) }

    @Test func consumableIsInTheReceiptFromChargeUntilFinished() {
        var s = store(), out = outbox()
        let id = s.addPayment(product: "coins_100", applicationUsername: nil, user: "alice", order: nil, &out)
        #expect(s.readReceipt().entries.isEmpty, "not charged yet")
        s.resolvePayment(id, &out)
        #expect(s.readReceipt().entries.map(\.transactionId) == [id])
        s.finish(id, &out)
        #expect(s.readReceipt().entries.isEmpty)
    }

    @Test func nonConsumableStaysInTheReceiptAfterFinish() {
        var s = store(), out = outbox()
        let id = s.addPayment(product: "no_ads", applicationUsername: nil, user: "alice", order: nil, &out)
        s.resolvePayment(id, &out)
        s.finish(id, &out)
        #expect(s.readReceipt().entries.map(\.transactionId) == [id])
        #expect(s.queue.isEmpty)
    }

    @Test func receiptSnapshotStillVerifiesAfterTheTransactionIsFinished() {
        var s = store(), out = outbox()
        let id = s.addPayment(product: "coins_100", applicationUsername: nil, user: "alice", order: nil, &out)
        s.resolvePayment(id, &out)
        let saved = s.readReceipt()
        s.finish(id, &out)
        #expect(s.verify(saved) == VerifyStatus.valid)
        #expect(saved.entry(for: id) != nil)
    }

    @Test func verificationAnswersMalformedForgedAndUnavailable() {
        var s = store(), out = outbox()
        let id = s.addPayment(product: "coins_100", applicationUsername: nil, user: "alice", order: nil, &out)
        s.resolvePayment(id, &out)
        var forged = s.readReceipt()
        forged.entries[0].productId = "coins_550"
        #expect(s.verify(nil) == VerifyStatus.malformed)
        #expect(s.verify(forged) == VerifyStatus.notAuthentic)
        s.outage = true
        #expect(s.verify(s.readReceipt()) == VerifyStatus.unavailable)
    }

    @Test func applicationUsernameComesBackOnlyWhenItIsAUUID() {
        var s = store(), out = outbox()
        let uuid = "7f8d27e4-1111-4222-8333-444455556666"
        let a = s.addPayment(product: "coins_100", applicationUsername: uuid, user: "alice", order: nil, &out)
        let b = s.addPayment(
            product: "coins_100", applicationUsername: "alice-order-7", user: "alice", order: nil, &out)
        s.resolvePayment(a, &out)
        s.resolvePayment(b, &out)
        let r = s.readReceipt()
        #expect(r.entry(for: a)?.appAccountToken == uuid)
        #expect(r.entry(for: b)?.appAccountToken == nil)
        #expect(r.entry(for: a)?.originalTransactionId == a)
    }

    @Test func finishingAPurchasingTransactionIsAnError() {
        var s = store(), out = outbox()
        let id = s.addPayment(product: "coins_100", applicationUsername: nil, user: "alice", order: nil, &out)
        s.finish(id, &out)
        #expect(s.queue.map(\.id) == [id])
        #expect(
            out.facts.contains {
                if case .finishFailedError = $0.fact { return true }; return false
            })
    }

    @Test func transactionIdsAreUnique() {
        var s = store(), out = outbox()
        let ids = (0..<50).map { _ in
            s.addPayment(product: "coins_100", applicationUsername: nil, user: "a", order: nil, &out)
        }
        #expect(Set(ids).count == 50)
    }

    @Test func askToBuyDefersUntilApprovedAndChargesThen() {
        var h = Harness(.hardened)
        h.run(.askToBuy(on: true), .buy(product: "coins_100"))
        h.when("deferred")
        h.run(.wait(60_000))
        #expect(h.charged == 0)
        h.run(.approve, .settle)
        #expect(h.charged == 1)
        #expect(h.balance("alice") == 100)
    }

    @Test func declinedAskToBuyFailsWithoutCharge() {
        var h = Harness(.hardened)
        h.run(.askToBuy(on: true), .buy(product: "coins_100"))
        h.when("deferred")
        h.run(.decline, .settle)
        #expect(h.charged == 0)
        #expect(h.queue == 0, "hardened finishes failed transactions")
    }

    @Test func unansweredAskToBuyVanishesAfter24hWithNoCallback() {
        var h = Harness(.hardened)
        h.run(.askToBuy(on: true), .buy(product: "coins_100"))
        h.when("deferred")
        h.run(.wait(24 * 3_600_000 - 1))
        #expect(h.queue == 1)
        h.run(.wait(10))
        #expect(h.queue == 0)
        #expect(h.logText.contains("expired unanswered"))
        #expect(!h.logText.contains("paymentQueue(_:updatedTransactions:) [1000000000001]"))
    }

    @Test func interruptedPurchaseIsAFailureThenASeparatePurchase() {
        var h = Harness(.hardened)
        h.run(.interruptNextPayment, .buy(product: "coins_100"))
        h.when("failed")
        h.when("charged", within: 31_000)
        h.settle()
        let txns = h.sim.store.transactions
        #expect(txns.count == 2)
        #expect(txns[0].state == .failed && txns[1].state == .purchased)
        #expect(txns[1].chargedAt! - txns[0].createdAt == 30_000)
        #expect(h.balance("alice") == 100)
        #expect(h.summary == [])
    }

    @Test func unfinishedTransactionsAreRedeliveredAtEveryLaunchUntilFinished() {
        var h = Harness(weakened(.hardened, [(.serverDedup, "false")]))
        h.run(.network(on: false), .buy(product: "coins_100"))
        // The order request fails offline: nothing was bought.
        #expect(h.charged == 0)
        h.run(.network(on: true), .buy(product: "coins_100"))
        h.when("charged")
        h.run(.crash, .launch)
        h.when("delivered")
        h.run(.crash, .launch)
        h.when("delivered")
        h.settle()
        #expect(h.balance("alice") == 100)
        #expect(h.queue == 0)
    }

    @Test func nothingIsDeliveredWhileNoObserverIsRegistered() {
        var h = Harness(.naive)
        h.run(.buy(product: "coins_100"))
        h.when("purchasing")
        h.run(.closeStore)
        h.settle()
        #expect(!h.logText.contains("updatedTransactions"))
        #expect(h.summary == ["lost-order:open"])
    }
}

@Test func lookingAtTheReceiptChangesNothing() {
    var h = Harness(.naive)
    h.run(.buy(product: "coins_100"))
    h.when("charged")
    let before = h.sim.store
    #expect(h.sim.store.receiptNow.map(\.productId) == ["coins_100"])
    #expect(h.sim.store.receiptNow == h.sim.store.receiptNow)
    #expect(h.sim.store == before)
}
