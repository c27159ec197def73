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
}
