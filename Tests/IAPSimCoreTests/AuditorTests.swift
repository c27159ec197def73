import Testing

@testable import IAPSimCore

/// The auditor on its own: fed facts by hand, shown a world built by hand.
@Suite struct AuditorTests {
    /// One fact of each kind, about transaction "t1" of alice's order "o1" where it names one.
    static func sample(_ kind: Fact.Kind) -> Fact {
        switch kind {
        case .commandIssued: return .commandIssued(.crash)
        case .commandIgnored: return .commandIgnored(.launch, reason: "already running")
        case .faultArmed: return .faultArmed("drop next recharge request")
        case .faultFired: return .faultFired("recharge request dropped")
        case .policyChanged: return .policyChanged(.key(try! PolicySetting(.finish, "on-purchase")))
        case .appLaunched: return .appLaunched(freshInstall: false)
        case .appCrashed: return .appCrashed
        case .appUninstalled: return .appUninstalled
        case .appBackgrounded: return .appBackgrounded
        case .appForegrounded: return .appForegrounded
        case .rechargeWaitingForBuyer: return .rechargeWaitingForBuyer(txn: "t1", buyer: "alice", loggedIn: "bob")
        case .ownedProductNotCharged: return .ownedProductNotCharged(txn: "t3", product: "no_ads", original: "t1")
        case .askToBuyMerged: return .askToBuyMerged(txn: "t1", product: "coins_100")
        case .verifyRetriedInSandbox: return .verifyRetriedInSandbox(txn: "t1")
        case .observerRegistered: return .observerRegistered
        case .storeScreenOpened: return .storeScreenOpened
        case .storeScreenClosed: return .storeScreenClosed
        case .userLoggedIn: return .userLoggedIn("bob")
        case .userLoggedOut: return .userLoggedOut("alice")
        case .networkWentOff: return .networkWentOff
        case .networkCameBack: return .networkCameBack
        case .purchaseAbandoned: return .purchaseAbandoned(product: "coins_100", reason: "request timed out")
        case .paymentAdded:
            return .paymentAdded(txn: "t2", product: "coins_100", applicationUsername: nil, user: "bob", order: "o2")
        case .rechargeWaitingForLogin: return .rechargeWaitingForLogin(txn: "t1")
        case .rechargeAlreadyInFlight: return .rechargeAlreadyInFlight(txn: "t9", forDelivered: "t1")
        case .rechargeSent:
            return .rechargeSent(txn: "t9", order: "o1", user: "alice", reason: .firstDelivery, forDelivered: "t1")
        case .receiptSaved: return .receiptSaved(txn: "t1", tier: .file)
        case .receiptDeleted: return .receiptDeleted(txn: "t1", tier: .file, why: "the server answered")
        case .retryScheduled: return .retryScheduled(txn: "t1", inMs: 1_000, attempt: 1)
        case .rechargeAnswered: return .rechargeAnswered(txn: "t1", outcome: .credited(["t1"]))
        case .transactionFinished: return .transactionFinished(txn: "t1")
        case .finishFailedError: return .finishFailedError(txn: "t1", reason: "cannot finish")
        case .finishSkipped: return .finishSkipped(txn: "t1", reason: "forgot")
        case .transactionUpdated: return .transactionUpdated(txn: "t1", product: "coins_100", state: .purchased)
        case .paymentCharged: return .paymentCharged(txn: "t2", product: "coins_100", priceCents: 99)
        case .transactionsDelivered: return .transactionsDelivered(txns: ["t1"], redelivery: true)
        case .deferredExpired: return .deferredExpired(txn: "t1")
        case .receiptVerified: return .receiptVerified(status: 0, entries: 1)
        case .messageSent: return .messageSent(id: 1, route: .recharge, direction: .request, bytes: 900, sender: .app)
        case .messageArrived: return .messageArrived(id: 1, route: .recharge, direction: .request, latencyMs: 80)
        case .messageDropped: return .messageDropped(id: 1, route: .recharge, direction: .response)
        case .messageUnclaimed: return .messageUnclaimed(id: 1, route: .recharge, direction: .response, latencyMs: 80)
        case .requestFailedOffline: return .requestFailedOffline(route: .recharge)
        case .requestTimedOut: return .requestTimedOut(id: 1, route: .recharge)
        case .orderCreated:
            return .orderCreated(order: "o3", user: "bob", product: "coins_100", token: "x", sender: .app)
        case .coinsCredited:
            return .coinsCredited(
                user: "alice", coins: 100, product: "coins_100", txn: "t1", order: "o1",
                sender: .app, via: .firstDelivery)
        case .rechargeRefused: return .rechargeRefused(txn: "t1", reason: "order o9 does not exist", sender: .attacker)
        case .alreadyCredited: return .alreadyCredited(txn: "t1", sender: .attacker)
        case .replayPrepared: return .replayPrepared(txn: "t1")
        case .replayUnavailable: return .replayUnavailable
        case .listenerStarted: return .listenerStarted
        case .purchaseStarted:
            return .purchaseStarted(txn: "t2", product: "coins_100", appAccountToken: nil, user: "bob", order: "o2")
        case .purchaseReturned: return .purchaseReturned(txn: "t1", product: "coins_100", result: .success)
        case .purchaseCompletedOutsideApp:
            return .purchaseCompletedOutsideApp(txn: "t2", product: "coins_100", user: "bob", order: "o2")
        case .updatesEmitted: return .updatesEmitted(txns: ["t1"], launchReplay: true)
        case .revocationEmitted: return .revocationEmitted(txn: "t1")
        case .unfinishedSwept: return .unfinishedSwept(txns: ["t1"])
        case .transactionSigned: return .transactionSigned(sampleSigned)
        case .finishCalled: return .finishCalled(txn: "t1")
        case .jwsSaved: return .jwsSaved(txn: "t1", tier: .keychain)
        case .jwsDeleted: return .jwsDeleted(txn: "t1", tier: .keychain, why: "the server answered")
        case .jwsChecked: return .jwsChecked(txn: "t1", signer: .forger, verified: true)
        case .signedReplayPrepared: return .signedReplayPrepared(txn: "t1")
        case .forgeryPrepared: return .forgeryPrepared(sampleSigned)
        case .refundIssued: return .refundIssued(txn: "t1", product: "coins_100", priceCents: 99, percent: 100)
        case .refundReversed: return .refundReversed(txn: "t1")
        case .reversalHeard: return .reversalHeard(txn: "t1", outcome: "what was taken back is restored")
        case .coinsRestored: return .coinsRestored(user: "alice", coins: 100, txn: "t1", balance: 100)
        case .noted: return .noted("the simulator's assumption")
        case .notificationSent:
            return .notificationSent(
                ServerNotification(
                    uuid: "u1", type: .oneTimeCharge, signedDate: 0,
                    transaction: sampleSigned, attempt: 1))
        case .notificationUnanswered:
            return .notificationUnanswered(uuid: "u1", type: .refund, txn: "t1", retryInMs: 3_600_000)
        case .notificationDropped: return .notificationDropped(uuid: "u1", type: .refund, txn: "t1")
        case .notificationReceived: return .notificationReceived(uuid: "u1", type: .refund, txn: "t1", attempt: 2)
        case .notificationUnbound: return .notificationUnbound(txn: "t1", reason: "no appAccountToken")
        case .serverUnavailable: return .serverUnavailable(route: .notify)
        case .refundHeard: return .refundHeard(txn: "t1", outcome: "the coins are kept")
        case .coinsClawedBack: return .coinsClawedBack(user: "alice", coins: 100, txn: "t1", balance: -20)
        case .coinsSpent: return .coinsSpent(user: "alice", coins: 80, balance: 20)
        case .historyChecked: return .historyChecked(lookup: "t1", transactions: 2)
        case .reconcileSkipped: return .reconcileSkipped(reason: "nothing known")
        case .subscriptionChanged:
            return .subscriptionChanged(
                SubscriptionNote(
                    event: .renewed, user: "alice", productId: "pro_monthly", txn: "t1", status: .active,
                    expiresAt: 86_400_000, graceUntil: nil, periodStart: 0, priceCents: 499))
        case .accessChanged:
            return .accessChanged(user: "alice", productId: "pro_monthly", until: 86_400_000, why: "DID_RENEW (t1)")
        case .anomalyOpened: return .anomalyOpened(id: 1, type: .lostOrder, txn: "t1", status: .open, summary: "lost")
        case .anomalyStatusChanged:
            return .anomalyStatusChanged(id: 1, type: .lostOrder, status: .resolved, mechanism: "redelivered at launch")
        }
    }

    static let sampleSigned = SignedTransaction(
        transactionId: "t1", originalTransactionId: "t1", productId: "coins_100", type: .consumable,
        purchaseDate: 0, originalPurchaseDate: 0, signedDate: 5, price: 990, appAccountToken: nil,
        signer: .appStore)

    /// An auditor that saw the app launch and alice pay for order o1 (transaction t1) at
    /// time 0, and nothing since.
    static func afterOneCharge() -> Auditor {
        var a = Auditor()
        feed(&a, .appLaunched(freshInstall: false))
        feed(&a, .paymentAdded(txn: "t1", product: "coins_100", applicationUsername: nil, user: "alice", order: "o1"))
        feed(&a, .paymentCharged(txn: "t1", product: "coins_100", priceCents: 99))
        return a
    }

    @discardableResult
    static func feed(_ a: inout Auditor, _ fact: Fact, at time: VirtualTime = 0) -> [LogEntry] {
        var out: [LogEntry] = []
        a.observe(LogEntry(time: time, part: .app, fact: fact), &out)
        return out
    }

    @Test func everyKindOfFactHasItsOwnKind() {
        for kind in Fact.Kind.allCases {
            #expect(Self.sample(kind).kind == kind)
        }
    }

    @Test func kindsDeclaredUnusedLeaveTheAuditorAsItWas() {
        let before = Self.afterOneCharge()
        let unused = Fact.Kind.allCases.filter { Auditor.use(of: $0) == .unused }
        #expect(unused.count > 30)
        for kind in unused {
            var a = before
            var out: [LogEntry] = []
            a.observe(LogEntry(time: 5, part: .app, fact: Self.sample(kind)), &out)
            #expect(a.graceEnds == before.graceEnds && out.isEmpty, "\(kind)")
            #expect(
                a.ledger == before.ledger && a.anomalies == before.anomalies && a.appAwake == before.appAwake,
                "\(kind) is declared unused, yet feeding it changes the auditor: declare it read")
        }
    }

    @Test func kindsDeclaredReadChangeTheAuditor() {
        // The app's comings and goings change the auditor only where they change whether
        // it runs: from a charge made while it runs, and from one made while it does not.
        var closed = Auditor()
        Self.feed(
            &closed,
            .paymentAdded(
                txn: "t1", product: "coins_100", applicationUsername: nil,
                user: "alice", order: "o1"))
        Self.feed(&closed, .paymentCharged(txn: "t1", product: "coins_100", priceCents: 99))
        let read = Fact.Kind.allCases.filter { Auditor.use(of: $0) == .read }
        #expect(read.count == 27)
        for kind in read {
            let changed = [Self.afterOneCharge(), closed].contains { before in
                var a = before
                var out: [LogEntry] = []
                a.observe(LogEntry(time: 5, part: .app, fact: Self.sample(kind)), &out)
                return a.graceEnds != before.graceEnds || a.ledger != before.ledger || a.anomalies != before.anomalies
                    || a.appAwake != before.appAwake || a.subscriberTimelines != before.subscriberTimelines
            }
            #expect(changed, "\(kind) is declared read, yet feeding it changes nothing")
        }
    }

    @Test func runsThatKeepNoLogBuildExactlyTheFactsTheAuditorReads() {
        var outbox = Outbox(
            now: 0, policy: PolicyPreset.hardened.policy, nextMessageId: 0, nextExchange: 0,
            subscribed: Auditor.subscription, keepsEveryFact: false)
        for kind in Fact.Kind.allCases { outbox.log(.app, Self.sample(kind)) }
        let built = outbox.facts.map(\.fact.kind)
        #expect(built == Fact.Kind.allCases.filter { Auditor.use(of: $0) == .read })
        #expect(outbox.unkept == Fact.Kind.allCases.count - built.count)
    }

    @Test func aWorldWithoutSubscribersBuildsNoFactItKeepsNoLogOf() {
        var outbox = Outbox(
            now: 0, policy: PolicyPreset.hardened.policy, nextMessageId: 0, nextExchange: 0,
            keepsEveryFact: false)
        for kind in Fact.Kind.allCases { outbox.log(.app, Self.sample(kind)) }
        #expect(outbox.facts.isEmpty)
        #expect(outbox.unkept == Fact.Kind.allCases.count)
    }

    // MARK: classification

    /// A world in which nothing can credit anything any more.
    static let emptyWorld = (
        store: AppStore(catalog: .standard, rng: SplitMix64(seed: 1)),
        app: AppProcess(running: true),
        server: MerchantServer(users: ["alice", "bob"], rng: SplitMix64(seed: 2))
    )

    static func evaluate(
        _ a: inout Auditor, at now: VirtualTime, store: AppStore = emptyWorld.store,
        policy: Policy = PolicyPreset.hardened.policy
    ) -> [LogEntry] {
        var out: [LogEntry] = []
        a.evaluate(now: now, store: store, app: emptyWorld.app, server: emptyWorld.server, policy: policy, &out)
        return out
    }

    static func summary(_ a: Auditor) -> [String] {
        a.anomalies.map { "\($0.type.rawValue):\($0.status.rawValue)" }
    }

    /// A store holding alice's charged, unfinished transaction, and its id.
    static func storeWithUnfinishedCharge() -> (AppStore, String) {
        var store = emptyWorld.store
        var out = Outbox(now: 0, policy: PolicyPreset.hardened.policy, nextMessageId: 0, nextExchange: 0)
        let t = store.newTransaction(product: "coins_100", username: nil, now: 0, outcome: .charge)
        store.charge(t.id, out: &out)
        return (store, t.id)
    }

    @Test func anUnhandledChargeBecomesALostOrderAfterTheGracePeriodAndIsResolvedByItsCredit() {
        let (store, txn) = Self.storeWithUnfinishedCharge()
        var a = Auditor()
        Self.feed(&a, .appLaunched(freshInstall: false))
        Self.feed(
            &a, .paymentAdded(txn: txn, product: "coins_100", applicationUsername: nil, user: "alice", order: "o1"))
        Self.feed(&a, .paymentCharged(txn: txn, product: "coins_100", priceCents: 99))
        #expect(Self.evaluate(&a, at: a.graceMs, store: store).isEmpty)
        let opened = Self.evaluate(&a, at: a.graceMs + 1, store: store)
        #expect(
            opened.map(\.fact) == [
                .anomalyOpened(
                    id: 1, type: .lostOrder, txn: txn, status: .open,
                    summary: "coins_100 paid by alice (\(txn), order o1): the app never handled the transaction")
            ])
        #expect(a.anomalies.first?.order == "o1" && a.anomalies.first?.user == "alice")
        Self.feed(
            &a,
            .coinsCredited(
                user: "alice", coins: 100, product: "coins_100", txn: txn, order: "o1",
                sender: .app, via: .redelivery(.launch)), at: 40_000)
        _ = Self.evaluate(&a, at: 40_000, store: store)
        #expect(Self.summary(a) == ["lost-order:resolved"])
        #expect(a.anomalies.first?.mechanism == "redelivered at launch")
        #expect(a.paidNotDeliveredCents == 0 && a.grantedNotPaidCents == 0)
        #expect(a.ledger.active.isEmpty, "a charge settled for good is not looked at again")
    }

    @Test func aHandledChargeThatNothingCanCreditIsAPermanentMissedOrder() {
        var a = Self.afterOneCharge()
        Self.feed(&a, .transactionsDelivered(txns: ["t1"], redelivery: false), at: 1)
        _ = Self.evaluate(&a, at: 40_000)
        #expect(Self.summary(a) == ["missed-order:permanent"])
        #expect(a.anomalies.first?.mechanism == "no record of it remains that any retry could use")
        #expect(a.unresolved.count == 1 && a.paidNotDeliveredCents == 99)
    }

    @Test func aChargeFinishedWithoutCreditIsPermanentAtOnce() {
        var a = Self.afterOneCharge()
        Self.feed(&a, .transactionFinished(txn: "t1"), at: 3)
        _ = Self.evaluate(&a, at: 3)
        #expect(Self.summary(a) == ["lost-order:permanent"])
        #expect(a.anomalies.first?.mechanism == "finished without credit; no record of it remains")
    }

    @Test func aRechargePairedWithAnotherTransactionMakesADuplicateReceipt() {
        var a = Self.afterOneCharge()
        Self.feed(&a, .transactionsDelivered(txns: ["t1"], redelivery: false), at: 1)
        Self.feed(&a, Self.sample(.rechargeSent), at: 1)
        _ = Self.evaluate(&a, at: 40_000)
        #expect(Self.summary(a) == ["duplicate-receipt:permanent"])
    }

    @Test func aSecondCreditIsADoubleCreditAndAnAttackersIsReplayFraud() {
        var a = Self.afterOneCharge()
        let credit = Self.sample(.coinsCredited)
        Self.feed(&a, credit, at: 1)
        #expect(Self.feed(&a, credit, at: 2).map(\.fact.kind) == [.anomalyOpened, .anomalyStatusChanged])
        Self.feed(
            &a,
            .coinsCredited(
                user: "bob", coins: 100, product: "coins_100", txn: "t1", order: "o7",
                sender: .attacker, via: .replay), at: 3)
        #expect(Self.summary(a) == ["double-credit:permanent", "replay-fraud:permanent"])
        #expect(
            a.anomalies.first?.summary
                == "coins_100 paid by alice (t1, order o1) credited 2 times (first try) on order o1")
        #expect(a.anomalies.last?.summary == "old receipt of t1 replayed with fresh order o7 and credited again to bob")
        #expect(a.anomalies.first?.mechanism != a.anomalies.last?.mechanism, "a replay reads unlike a double credit")
        #expect(a.grantedNotPaidCents == 198 && a.paidNotDeliveredCents == 0)
    }

    @Test func aReplayTheServerRefusedIsBlocked() {
        var a = Self.afterOneCharge()
        Self.feed(&a, Self.sample(.rechargeRefused), at: 1)
        Self.feed(&a, Self.sample(.alreadyCredited), at: 2)
        Self.feed(&a, .alreadyCredited(txn: "t1", sender: .app), at: 3)
        #expect(Self.summary(a) == ["replay-fraud:blocked", "replay-fraud:blocked"])
        #expect(
            a.anomalies.map(\.mechanism) == [
                "refused: order o9 does not exist",
                "refused: transaction already credited",
            ])
        #expect(a.count(.replayFraud, .blocked) == 2 && a.unresolved.isEmpty)
    }

    @Test func aCreditToAnotherAccountIsAWrongAccount() {
        var a = Self.afterOneCharge()
        Self.feed(
            &a,
            .coinsCredited(
                user: "bob", coins: 100, product: "coins_100", txn: "t1", order: "o1",
                sender: .app, via: .loginArrived), at: 4)
        let written = Self.evaluate(&a, at: 4)
        #expect(written.count == 2)
        #expect(Self.summary(a) == ["wrong-account:permanent"])
        #expect(a.anomalies.first?.summary == "coins_100 paid by alice (t1, order o1) credited to bob")
        #expect(a.paidNotDeliveredCents == 99 && a.grantedNotPaidCents == 99)
        #expect(Self.evaluate(&a, at: 5).isEmpty, "said once")
    }

    @Test func aChargeWhoseAdderTheAuditorNeverSawHasAnUnknownBuyer() {
        var a = Auditor()
        Self.feed(&a, .paymentCharged(txn: "t5", product: "coins_100", priceCents: 99))
        #expect(a.charges.map(\.buyer) == ["?"])
    }
}
