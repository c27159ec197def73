import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Price increases (docs/world.md, "Price increases"): with consent, `PRICE_INCREASE` /
/// `PENDING`, `priceIncreaseStatus` 0, StoreKit's message, `ACCEPTED` at consent and the
/// renewal at the new price, or `EXPIRED` / `PRICE_INCREASE` without it; without consent,
/// `ACCEPTED` at once and the renewal at the new price; the server's reading of it.
@Suite struct PriceIncreaseTests {
    static let sk2 = "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\n"

    func run(_ lines: [String], head: String = sk2) throws -> ScenarioResult {
        let text = head + "steps:\n" + lines.map { "  - do: \($0)\n" }.joined()
        return try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: "s.yaml")).result
    }

    func notifications(_ sim: Simulation) -> [ServerNotification] {
        sim.log.compactMap { e -> ServerNotification? in
            guard case .notificationSent(let n) = e.fact, n.attempt <= 1 else { return nil }
            return n
        }
    }

    func signed(_ sim: Simulation) -> [String: SignedTransaction] {
        var byId: [String: SignedTransaction] = [:]
        for entry in sim.log {
            if case .transactionSigned(let s) = entry.fact { byId[s.transactionId] = s }
        }
        return byId
    }

    @Test func anIncreaseThatNeedsConsentIsPendingWithTheNewRenewalPriceAndAMessage() throws {
        let r = try run(["buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 1h"])
        let sim = r.simulation
        let sent = try #require(notifications(sim).first { $0.type == .priceIncrease })
        #expect(sent.subtype == .pending)
        #expect(sent.renewalInfo?.priceIncreaseStatus == 0 && sent.renewalInfo?.renewalPrice == 6_990)
        let info = sim.store.renewalInfo(0, at: sim.now)
        #expect(info.priceIncreaseStatus == 0 && info.renewalPrice == 6_990)
        // The app runs: StoreKit hands it the message at once, and it shows it.
        let lines = sim.log.map(\.fact.text)
        #expect(lines.contains { $0.hasPrefix("Message.messages: a Message with reason priceIncreaseConsent") })
        #expect(
            sim.store.deliveredMessages == [StoreKitMessage(reason: "priceIncreaseConsent", productId: "pro_monthly")])
    }

    @Test func theMessageWaitsForTheAppsLaunchWhenTheAppIsNotRunning() throws {
        let r = try run([
            "buy pro_monthly", "wait 1m", "crash", "price-increase pro_monthly 6.99 consent", "wait 1h",
        ])
        let before = r.simulation.log.map(\.fact.text)
        #expect(!before.contains { $0.hasPrefix("Message.messages") })
        #expect(r.simulation.store.deliveredMessages.isEmpty)
        let launched = try run([
            "buy pro_monthly", "wait 1m", "crash", "price-increase pro_monthly 6.99 consent", "wait 1h", "launch",
            "wait 1m",
        ])
        let log = launched.simulation.log
        let launchAt = try #require(log.lastIndex { if case .appLaunched = $0.fact { true } else { false } })
        let messageAt = try #require(log.lastIndex { $0.fact.text.hasPrefix("Message.messages") })
        #expect(messageAt > launchAt)
        #expect(launched.simulation.store.deliveredMessages.count == 1)
    }

    @Test func consentSendsAcceptedAndTheRenewalIsChargedTheNewPrice() throws {
        let r = try run([
            "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 1d", "consent",
            "wait 1h",
        ])
        let accepted = try #require(notifications(r.simulation).first { $0.subtype == .accepted })
        #expect(accepted.type == .priceIncrease && accepted.renewalInfo?.priceIncreaseStatus == 1)
        #expect(r.simulation.store.deliveredMessages.isEmpty)
        let renewed = try run([
            "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 1d", "consent",
            "wait 35d",
        ])
        let sim = renewed.simulation
        let s = try #require(sim.store.subscriptions.first)
        #expect(s.status == .active && s.periods.map(\.priceCents) == [499, 699])
        #expect(signed(sim)[s.periods[1].transactionId]?.price == 6_990)
        // Charged once at the new price; no increase pending after it.
        #expect(sim.store.renewalInfo(0, at: sim.now).priceIncreaseStatus == nil)
        #expect(Transcript.subscriptionLines(sim).joined().contains("11.98 kept"))
        #expect(sim.auditor.anomalies.isEmpty)
    }

    @Test func withoutConsentByTheRenewalDateTheSubscriptionExpiresForThePriceIncrease() throws {
        let r = try run(["buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 35d"])
        let sim = r.simulation
        let s = try #require(sim.store.subscriptions.first)
        #expect(s.status == .expired && s.periods.count == 1 && s.expirationIntent == 3)
        let expired = try #require(notifications(sim).first { $0.type == .expired })
        #expect(expired.subtype == .priceIncrease && expired.renewalInfo?.expirationIntent == 3)
        // Nothing was charged at the renewal, and the hardened server ended access.
        #expect(sim.subscriptionCharges == 1)
        #expect(sim.log.map(\.fact.text).contains { $0.contains("not charged: the customer has not consented") })
        #expect(sim.subscribers.first?.access == false)
        #expect(sim.auditor.anomalies.isEmpty)
    }

    @Test func anIncreaseWithoutConsentIsAcceptedAtOnceAndRenewsAtTheNewPrice() throws {
        let r = try run(["buy pro_monthly", "wait 1m", "price-increase pro_monthly 5.99 no-consent", "wait 35d"])
        let sim = r.simulation
        let sent = notifications(sim).filter { $0.type == .priceIncrease }
        #expect(sent.map(\.subtype) == [.accepted])
        #expect(sent.first?.renewalInfo?.priceIncreaseStatus == 1 && sent.first?.renewalInfo?.renewalPrice == 5_990)
        #expect(!sim.log.map(\.fact.text).contains { $0.hasPrefix("Message.messages") })
        let s = try #require(sim.store.subscriptions.first)
        #expect(s.status == .active && s.periods.map(\.priceCents) == [499, 599])
        #expect(signed(sim)[s.periods[1].transactionId]?.price == 5_990)
    }

    @Test func theNaiveServerKeepsAccessAfterExpiredPriceIncreaseAndTheAuditorSaysWhy() throws {
        let head =
            "format: 1\ntitle: t\npolicy: {preset: sk2-naive, server-notifications: true}\nusers: [alice]\n"
        let r = try run(
            ["buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 35d"], head: head)
        let sim = r.simulation
        #expect(sim.store.subscriptions.first?.status == .expired)
        #expect(sim.subscribers.first?.access == true)
        let lines = sim.log.map(\.fact.text)
        #expect(lines.contains { $0.hasPrefix("EXPIRED/PRICE_INCREASE for") && $0.contains("ignored") })
        let anomaly = try #require(sim.auditor.anomalies.first)
        #expect(anomaly.type == .accessAfterEnd)
        #expect(sim.auditor.grantedNotPaidCents > 0)
        // The same run with the hardened reading of PRICE_INCREASE: no anomaly.
        let fixed = try run(
            ["buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 35d"],
            head: head.replacingOccurrences(
                of: "server-notifications: true}",
                with: "server-notifications: true, server-price-increase: await-renewal}"))
        #expect(fixed.simulation.auditor.anomalies.isEmpty)
        #expect(fixed.simulation.subscribers.first?.access == false)
    }

    @Test func theCommandsAreRefusedWhereTheyCannotApply() throws {
        let none = try run(["price-increase pro_monthly 6.99 consent"])
        #expect(none.simulation.log.map(\.fact.text).contains { $0.contains("no subscription renews to pro_monthly") })
        let lower = try run(["buy pro_monthly", "wait 1m", "price-increase pro_monthly 3.99 consent"])
        #expect(lower.simulation.log.map(\.fact.text).contains { $0.contains("a price increase must be higher") })
        let noConsent = try run(["buy pro_monthly", "wait 1m", "consent"])
        #expect(
            noConsent.simulation.log.map(\.fact.text).contains {
                $0.contains("no price increase waits for the customer's consent")
            })
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(
                text: Self.sk2 + "steps:\n  - do: price-increase pro_monthly cheap consent\n", file: "s.yaml")
        }
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(
                text: Self.sk2 + "steps:\n  - do: price-increase pro_monthly 6.99 maybe\n", file: "s.yaml")
        }
    }

    // MARK: the app defers StoreKit's message; the new price for new purchases

    @Test func theAppDefersTheMessageAndShowsTheSheetWhenItChooses() throws {
        let r = try run([
            "messages defer", "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 1h",
        ])
        let lines = r.simulation.log.map(\.fact.text)
        let delivered = try #require(
            lines.first { $0.hasPrefix("Message.messages: a Message with reason priceIncreaseConsent") })
        #expect(
            delivered.hasSuffix(
                "the app defers it (no display(in:); StoreKit 1: paymentQueueShouldShowPriceConsent false): no sheet yet"
            ))
        #expect(!lines.contains { $0.contains("sheet is shown") || $0.contains("sheet of pro_monthly") })
        // Delivered, deferred, still unanswered: Message.messages keeps it.
        #expect(r.simulation.store.messageDeferred)
        #expect(r.simulation.store.deliveredMessages.count == 1)
        let shown = try run([
            "messages defer", "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 1h",
            "messages show", "consent", "wait 31d",
        ])
        let after = shown.simulation.log.map(\.fact.text)
        #expect(
            after.contains(
                "the app calls display(in:) on the deferred Message (StoreKit 1: showPriceConsentIfNeeded()): the price "
                    + "increase sheet of pro_monthly at 6.99 is shown"))
        #expect(!shown.simulation.store.messageDeferred && !shown.simulation.store.defersMessages)
        #expect(shown.simulation.store.subscriptions[0].periods.map(\.priceCents) == [499, 699])
    }

    @Test func showingWithNothingDeferredAndDeferringTwiceAreRefused() throws {
        let r = try run(["buy pro_monthly", "messages show", "messages defer", "messages defer"])
        let refusals = r.simulation.log.compactMap { e -> String? in
            guard case .commandIgnored(_, let reason) = e.fact else { return nil }
            return reason
        }
        #expect(
            refusals.contains { $0.contains("the app defers no StoreKit message (messages defer first)") },
            "\(refusals)")
        #expect(refusals.contains { $0.contains("the app already defers StoreKit's messages") }, "\(refusals)")
    }

    /// A price increase charged once is charged at every renewal after it, not only the first.
    @Test func theNewPriceStaysForEveryRenewalAfterTheConsentedOne() throws {
        let r = try run([
            "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "consent", "wait 95d",
        ])
        let prices = r.simulation.store.subscriptions[0].periods.map(\.priceCents)
        #expect(prices == [499, 699, 699, 699], "\(prices)")
        #expect(r.simulation.store.renewalInfo(0, at: r.simulation.now).renewalPrice == 6_990)
    }

    /// After an increase, a new purchase (here a resubscription after the expiry without
    /// consent) is charged the new price, signed with it, and renews at it.
    @Test func aNewPurchaseAfterAPriceIncreaseIsChargedTheNewPrice() throws {
        let r = try run([
            "buy pro_monthly", "wait 1m", "price-increase pro_monthly 6.99 consent", "wait 35d", "buy pro_monthly",
            "wait 32d",
        ])
        let sim = r.simulation
        let s = sim.store.subscriptions[0]
        #expect(s.periods.map(\.priceCents) == [499, 699, 699], "\(s.periods)")
        let prices = signed(sim).values.filter { $0.productId == "pro_monthly" }.sorted {
            $0.transactionId < $1.transactionId
        }
        .map(\.price)
        #expect(prices == [4_990, 6_990, 6_990], "\(prices)")
        #expect(notifications(sim).contains { $0.type == .subscribed && $0.subtype == .resubscribe })
    }
}
