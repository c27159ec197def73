import IAPSimCore
import Testing

@testable import IAPSimScenario

/// The third truth pass (docs/world.md, "Subscriptions" and "The server side"): the probe
/// files of the 2026 fidelity audit, each asserting the corrected behaviour.
@Suite struct SubscriptionTruthTests {
    static let sk2 = "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\n"
    static let day: VirtualTime = 86_400_000

    func run(_ text: String) throws -> ScenarioResult {
        try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: "s.yaml")).result
    }

    func steps(_ lines: [String], head: String = sk2) -> String {
        head + "steps:\n" + lines.map { "  - do: \($0)\n" }.joined()
    }

    func failures(_ result: ScenarioResult) -> [String] {
        result.expectations.filter { !$0.holds }.map { "\($0.name): expected \($0.expected), got \($0.actual)" }
    }

    func notifications(_ sim: Simulation) -> [ServerNotification] {
        sim.log.compactMap { e -> ServerNotification? in
            guard case .notificationSent(let n) = e.fact, n.attempt <= 1 else { return nil }
            return n
        }
    }

    /// `data.status` of the first notification of `type` (and `subtype`).
    func status(
        _ sim: Simulation, _ type: NotificationType, _ subtype: NotificationSubtype? = nil
    ) -> SubscriptionStatus? {
        notifications(sim).first { $0.type == type && $0.subtype == subtype }?.renewalInfo?.status
    }

    @Test func aReversedRefundReinstatesTheSubscriptionAndTheServerThatRestoresIsNotBlamed() throws {
        let text =
            steps(["buy pro_monthly", "wait 5d", "refund newest", "wait 1h", "refund-reverse newest", "wait 40d"])
            + "expect:\n  refunded: 0\n  renewals: 1\n  subscriptions: {alice: {status: active, access: true}}\n"
            + "  anomalies:\n    - {type: access-after-revoke, count: 0}\n  unresolved: 0\n"
        let result = try run(text)
        #expect(failures(result).isEmpty, "\(failures(result))")
        let sim = result.simulation
        #expect(status(sim, .refundReversed) == .active)
        #expect(sim.store.subscriptions[0].periods.allSatisfy { $0.refundedAt == nil && $0.refundCents == 0 })
        let money = Transcript.subscriptionLines(sim).joined()
        #expect(money.contains("9.98 kept"), "\(money)")
    }

    /// Without a status poll nothing tells it otherwise: she stays out. (With sk2-hardened's
    /// daily poll, the verdict runs to that poll, which gives her access back: resolved.)
    @Test func aServerThatIgnoresRefundReversedKeepsAPayingSubscriberOut() throws {
        let head =
            "format: 1\ntitle: t\npolicy: {preset: sk2-hardened, server-refund-reversed: ignore,"
            + " server-status-poll: \"off\"}\nusers: [alice]\n"
        let text =
            steps(
                ["buy pro_monthly", "wait 5d", "refund newest", "wait 1h", "refund-reverse newest", "wait 1h"],
                head: head)
            + "expect:\n  subscriptions: {alice: {status: active, access: false}}\n"
            + "  anomalies:\n    - {type: renewal-unserved}\n"
        let result = try run(text)
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test func dataStatusIsTheSubscriptionsStatusAtSignedDate() throws {
        let retry = try run(steps(["buy pro_monthly", "wait 1m", "billing-fail on", "wait 40d"])).simulation
        #expect(status(retry, .didFailToRenew) == .billingRetry)
        let grace = try run(
            steps(
                ["buy pro_monthly", "wait 1m", "billing-fail on", "wait 100d"],
                head: Self.sk2 + "grace-period: 16d\n")
        ).simulation
        #expect(status(grace, .didFailToRenew, .gracePeriod) == .grace)
        #expect(status(grace, .gracePeriodExpired) == .billingRetry)
        #expect(status(grace, .expired, .billingRetry) == .expired)
        let early = try run(
            Self.sk2 + "steps:\n  - do: buy pro_monthly\n  - when: renewed\n    within: 32d\n    do: wait 2d\n"
                + "  - do: refund 1000000000001\n  - do: wait 1h\n"
        ).simulation
        #expect(status(early, .refund) == .active)
        // Get All Subscription Statuses and the read API give the same value.
        #expect(early.subscribers[0].renewalInfo.status == early.store.subscriptions[0].status)
    }

    @Test func recentSubscriptionStartDateIgnoresLapsesUnderSixtyDays() throws {
        let retry = try run(
            steps(["buy pro_monthly", "wait 1m", "billing-fail on", "wait 35d", "billing-fail off", "wait 3d"])
        ).simulation
        let recovery = try #require(notifications(retry).first { $0.subtype == .billingRecovery })
        #expect(recovery.renewalInfo?.recentSubscriptionStartDate == retry.store.subscriptions[0].periods[0].start)
        let again = try run(
            Self.sk2 + "steps:\n  - do: buy pro_monthly\n  - do: wait 1m\n  - do: auto-renew off\n"
                + "  - when: expired\n    within: 32d\n"
                + "    do: wait 10d\n  - do: buy pro_monthly\n  - do: wait 1h\n"
        ).simulation
        let resubscribed = try #require(notifications(again).first { $0.subtype == .resubscribe })
        #expect(resubscribed.renewalInfo?.recentSubscriptionStartDate == again.store.subscriptions[0].periods[0].start)
    }

    @Test func aRefundRequestForASubscriptionAsksForConsumptionAndTurnsAutoRenewOff() throws {
        let sim = try run(
            steps(["buy pro_monthly", "wait 5d", "refund-request newest reason LEGAL", "wait 1h"])
        ).simulation
        let list = notifications(sim)
        let request = try #require(list.first { $0.type == .consumptionRequest })
        #expect(request.consumptionRequestReason == .legal)
        let off = try #require(list.first { $0.subtype == .autoRenewDisabled })
        #expect(off.renewalInfo?.autoRenewStatus == 0)
        #expect(
            list.firstIndex { $0.type == .consumptionRequest }! < list.firstIndex { $0.subtype == .autoRenewDisabled }!)
        let answered = sim.log.contains { e in
            guard case .noted(let text) = e.fact else { return false }
            return text.contains("answered with Send Consumption Information")
                && text.contains("sampleContentProvided false") && !text.contains("consumptionPercentage")
        }
        #expect(answered)
        #expect(try Command.read("refund-request newest", users: []) == .refundRequest(txn: nil))
        #expect(
            try Command.read("refund-request 7 reason OTHER", users: []) == .refundRequest(txn: "7", reason: .other))
        #expect(throws: CommandError.self) { try Command.read("refund-request 7 reason MAYBE", users: []) }
    }

    @Test func theRenewalInfoAlwaysHasItsRenewalDatePriceTokenAndAppTransactionId() throws {
        let sim = try run(steps(["buy pro_monthly", "wait 1m", "auto-renew off", "wait 40d"])).simulation
        let expired = try #require(notifications(sim).first { $0.type == .expired }?.renewalInfo)
        #expect(expired.renewalDate == sim.store.subscriptions[0].expiresAt)
        #expect(expired.renewalDate < sim.now)
        #expect(expired.renewalPrice == 4_990)
        #expect(expired.appAccountToken != nil && expired.appAccountToken == sim.store.subscriptions[0].appAccountToken)
        #expect(expired.appTransactionId == AppStore.appTransactionId)
    }

    @Test func theTransactionAnUpgradeReplacedIsSignedWithIsUpgraded() throws {
        let sim = try run(steps(["buy pro_yearly", "wait 10d", "change-plan plus_monthly", "wait 1h"])).simulation
        let old = try #require(sim.store.transaction("1000000000001"))
        #expect(sim.store.signedForAPI(old, now: sim.now)?.subscription?.isUpgraded == true)
        let new = try #require(sim.store.transaction(sim.store.subscriptions[0].latestTransactionId))
        #expect(sim.store.signedForAPI(new, now: sim.now)?.subscription?.isUpgraded == false)
    }

    @Test func moneyLinesCountPartialAndUpgradeRefunds() throws {
        let partial = try run(steps(["buy pro_monthly", "wait 5d", "refund newest percent 80", "wait 1d"])).simulation
        #expect(Transcript.subscriptionLines(partial).joined().contains("1.00 kept"))
        let upgrade = try run(steps(["buy pro_yearly", "wait 10d", "change-plan plus_monthly", "wait 1h"])).simulation
        let periods = upgrade.store.subscriptions[0].periods
        #expect(periods[0].refundCents > 0 && periods[0].keptCents == 4_999 - periods[0].refundCents)
        let kept = periods.reduce(0) { $0 + $1.keptCents }
        #expect(Transcript.subscriptionLines(upgrade).joined().contains("\(formatMoney(kept)) kept"))
    }

    @Test func renewalsAreChargedADayBeforeExpiryAndKeepTheFirstPurchasesDay() throws {
        let sim = try run(
            Self.sk2 + "steps:\n  - at: 30d\n    do: buy pro_monthly\n  - do: wait 100d\n"
        ).simulation
        let periods = sim.store.subscriptions[0].periods
        let days = periods.map { SubscriptionCalendar.day($0.end) }
        #expect(Array(days.prefix(3)) == ["2026-02-28", "2026-03-31", "2026-04-30"])
        for (before, renewal) in zip(periods, periods.dropFirst()) {
            #expect(renewal.start == before.end)
            let charged = try #require(sim.store.transaction(renewal.transactionId)?.chargedAt)
            #expect(charged == before.end - Self.day)
        }
        let failing = try run(steps(["buy pro_monthly", "wait 1m", "billing-fail on", "wait 40d"])).simulation
        let failed = try #require(
            failing.log.first { e in
                guard case .subscriptionChanged(let n) = e.fact else { return false }
                return n.event == .renewalFailed
            })
        #expect(failed.time == failing.store.subscriptions[0].periods[0].end)
        let found = failing.log.contains { e in
            guard case .noted(let text) = e.fact else { return false }
            return text.hasPrefix("renewal charge of") && e.time == failed.time - Self.day
        }
        #expect(found)
    }

    @Test func refundRemainingRefundsTheUnusedShareOfThePeriod() throws {
        let sim = try run(steps(["buy pro_monthly", "wait 10d", "refund newest remaining", "wait 1h"])).simulation
        let t = try #require(sim.store.transaction("1000000000001"))
        let signed = try #require(sim.store.signedForAPI(t, now: sim.now))
        #expect(signed.revocationType == "REFUND_PRORATED")
        #expect(signed.revocationPercentage == 68_000)
        #expect(sim.store.subscriptions[0].status == .revoked)
        #expect(Command.refund(txn: nil, percent: Command.remainingShare).scenarioText == "refund newest remaining")
        let full = try run(steps(["buy pro_monthly", "wait 10d", "refund newest", "wait 1h"])).simulation
        #expect(
            full.store.signedForAPI(full.store.transaction("1000000000001")!, now: full.now)?.revocationType
                == "REFUND_FULL")
    }
}
