import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// The Subscriptions view (`T`): each subscriber's paid periods, E and G on one calendar,
/// the cells where they differ marked; the picker (`C`) offers the subscription commands.
@Suite struct SubscriptionViewTests {
    /// Walkthrough 6, N5: a free trial (the dungeon's weekly pass, 3 days at 0.00) is drawn
    /// `f` (free), not `$`, and the paid weeks after it `$`.
    @Test func aFreeTrialIsDrawnFreeNotPaid() throws {
        var d = try DefectTests.play("game-weekly-pass-renewal-naive.yaml")
        d.keys("G")
        let row = try #require(d.model.subscriberRows.first)
        let marks = row.strip.periods.map(\.mark)
        #expect(marks.first == .free, "\(marks)")
        #expect(marks.dropFirst().contains(.paid), "\(marks)")
        d.keys("T")
        #expect(d.screen(120, 40).text.contains("f free"))
    }

    @Test func theGraceCutShowsAsMarksBetweenEAndG() throws {
        var d = try DefectTests.play("sub-grace-cut-naive.yaml")
        d.keys("G")
        d.keys("T")
        let text = d.screen(120, 40).text
        #expect(text.contains("┌ Subscriptions (T closes"), "\(text)")
        #expect(text.contains("alice  pro_monthly · active · auto-renew on · renews Mar 1"), "\(text)")
        #expect(text.contains("^^^^^^"), "the days of the grace cut are marked:\n\(text)")
        #expect(text.contains("A1 grace-cut resolved"), "\(text)")
        Golden.check(d.screen(120, 40), "subscriptions-grace-cut-120x40")
        Golden.check(d.screen(80, 24), "subscriptions-grace-cut-80x24")
        d.keys("T")
        #expect(!d.screen(120, 40).text.contains("┌ Subscriptions (T closes"))
    }

    @Test func theKeysExistInTheStoreKit2WorldOnly() {
        var d = Driver(UIModel())
        d.keys("T")
        #expect(!d.screen(120, 40).text.contains("┌ Subscriptions"))
        #expect(d.screen(120, 40).text.contains("StoreKit 2 only"))
        var sk2 = Driver(UIModel(preset: .sk2Hardened))
        sk2.keys("T")
        #expect(sk2.screen(120, 40).text.contains("no subscriptions yet"))
    }

    @Test func thePickerOffersTheSubscriptionCommands() {
        var d = Driver(UIModel(preset: .sk2Hardened))
        d.keys("C")
        let text = d.screen(120, 40).text
        for label in ["billing fails", "auto-renew off", "change plan to plus_monthly", "delay next notification 2d"] {
            #expect(text.contains(label), "\(label):\n\(text)")
        }
    }

    /// `i` in the view: the selected subscription's renewal info in Apple's field names,
    /// its periods, and whether the server's access matches Apple's status.
    @Test func theInspectorShowsTheRenewalInfo() throws {
        let text = try inspectedAtTheEnd("sub-grace-cut-naive.yaml")
        #expect(text.contains("Subscription 1000000000001"), "\(text)")
        for field in [
            "autoRenewProductId: pro_monthly", "autoRenewStatus: 1 (on)", "isInBillingRetryPeriod: false",
            "gracePeriodExpiresDate: absent", "environment: Production", "Paid periods, oldest first",
        ] {
            #expect(text.contains(field), "\(field):\n\(text)")
        }
        #expect(text.contains("merchant server: grants access until"), "\(text)")
        #expect(text.contains("Transaction.currentEntitlements: 1000000000"), "\(text)")
    }

    /// A refunded (revoked) subscription is not among `Transaction.currentEntitlements`, even
    /// while the naive server still grants it access.
    @Test func aRevokedSubscriptionIsNoCurrentEntitlement() throws {
        let text = try inspectedAtTheEnd("sub-late-renewal-after-refund-naive.yaml")
        #expect(text.contains("status 5 revoked"), "\(text)")
        #expect(text.contains("Transaction.currentEntitlements: none (revoked"), "\(text)")
        #expect(text.contains("merchant server: grants access until"), "\(text)")
    }

    /// The screen after playing `file` to its end, opening the view and inspecting the first
    /// subscription.
    func inspectedAtTheEnd(_ file: String) throws -> String {
        var d = try DefectTests.play(file)
        d.keys("G")
        d.keys("T")
        d.keys("i")
        return d.screen(120, 40).text
    }
}

/// Subscriptions bought by hand: the StoreKit 2 buy picker offers them.
@Suite struct SubscriptionBuyPickerTests {
    @Test func theStoreKit2BuyPickerOffersEverySubscriptionAndStoreKit1None() {
        let two = Picker.buy(.standard, in: .two).items.map(\.label)
        #expect(two.contains("pro_monthly") && two.contains("plus_monthly") && two.contains("pro_yearly"))
        let one = Picker.buy(.standard, in: .one).items.map(\.label)
        #expect(!one.contains("pro_monthly"))
    }

    @Test func aSubscriptionBoughtByHandMakesTheSubscriptionPickerLive() {
        var d = Driver(UIModel(preset: .sk2Naive))
        d.keys("b4")
        d.wait(wallMs: 6_000)
        d.keys("C")
        guard case .picker(let picker)? = d.model.overlay else {
            Issue.record("no subscription picker")
            return
        }
        // Greyed: only the rows with nothing to act on yet (the plan it has, no price increase
        // waiting for consent); the rest act on the live subscription.
        let refused = picker.items.filter { $0.refused != nil }.map(\.label)
        #expect(refused == ["change plan to pro_monthly", "customer consents"], "\(refused)")
    }
}

/// Issue 54's rows of `C`: each runs the scenario's command (saved as a step by `s`), and the
/// rows that need nothing new appear as the world changes (consent once an increase waits,
/// the member leaving once they joined).
@Suite struct SubscriptionLifeEventRowsTests {
    @Test func thePriceIncreaseConsentAndFamilyRowsRunTheScenarioCommands() {
        var d = Driver(UIModel(users: ["alice"], preset: .sk2Naive))
        d.keys("b4")
        d.wait(wallMs: 6_000)
        d.keys("C9")
        #expect(
            d.model.session.contains { $0.command == .priceIncrease(product: "pro_monthly", cents: 599, consent: true) }
        )
        #expect(d.model.simulation.store.subscriptions.first?.priceIncrease?.priceCents == 599)
        d.keys("Ca")
        #expect(d.model.session.contains { $0.command == .consentToPriceIncrease })
        #expect(d.model.simulation.store.subscriptions.first?.priceIncrease?.consented == true)
        d.keys("Cf")
        #expect(d.model.session.contains { $0.command == .joinFamily("kid") })
        #expect(d.model.simulation.store.familyMember == "kid")
        #expect(SubscriptionMenu.commands(for: d.model).contains { $0.label == "family member leaves" })
        d.keys("Cs")
        #expect(d.model.session.contains { $0.command == .familyShare(on: false) })
        #expect(!d.model.simulation.store.familySharing)
        d.keys("Cm")
        #expect(d.model.simulation.store.defersMessages)
    }

    /// Walkthrough 7, M5: after a subscription ended, a row that needs a live one says so,
    /// not "no subscription yet".
    @Test func aRowWithoutALiveSubscriptionSaysTheLastOneEnded() throws {
        var d = try DefectTests.play("sub-refund-renewal-naive.yaml")
        d.keys("G")
        let status = try #require(d.model.simulation.subscribers.last?.subscription.status)
        #expect(status == .revoked || status == .expired)
        let refused = SubscriptionMenu.picker(for: d.model).items.compactMap(\.refused)
        #expect(refused.contains("no live subscription: the last one is \(status.word)"), "\(refused)")
        #expect(!refused.contains("no subscription yet"), "\(refused)")
        let fresh = Driver(UIModel(users: ["alice"], preset: .sk2Naive))
        #expect(SubscriptionMenu.picker(for: fresh.model).items.compactMap(\.refused).contains("no subscription yet"))
    }

    /// The member's name is an account of their own: none of the run's.
    @Test func theJoiningMemberIsNoneOfTheRunsAccounts() {
        let d = Driver(UIModel(users: ["kid", "alice"], preset: .sk2Naive))
        let join = SubscriptionMenu.commands(for: d.model).first { $0.label == "family member joins" }
        #expect(join?.command == .joinFamily("kid2"), "\(String(describing: join?.command))")
    }
}

/// The status line of a subscription being retried names the retry, not a past renewal.
@Suite struct SubscriptionRetryWordsTests {
    static func screen(_ file: String, steps: Int) throws -> String {
        var d = Driver(UIModel(play: try RenderGoldenTests.shipped(file), file: file))
        d.key(.enter, times: steps)
        d.keys("T")
        return d.screen().text
    }

    @Test func graceSaysUntilWhenAndBillingRetrySaysSinceWhen() throws {
        let grace = try Self.screen("sub-grace-cut-naive.yaml", steps: 6)
        #expect(grace.contains("in grace until Feb 17"), "\(grace)")
        #expect(!grace.contains("renews Feb 1"))
        let retry = try Self.screen("sub-billing-retry-naive.yaml", steps: 5)
        #expect(retry.contains("retrying since Feb 1"), "\(retry)")
        #expect(!retry.contains("renews Feb 1"))
    }

    /// Defect 8 of walkthrough 3: the billing-retry days stay `x` after the recovery, the
    /// legend fits 80 columns, and an upgrade leaves a mark.
    @Test func billingRetryStaysOnTheStripAfterTheRecovery() throws {
        var d = try DefectTests.play("sub-billing-retry-naive.yaml")
        d.keys("G")
        d.keys("T")
        let text = d.screen(120, 40).text
        #expect(text.contains("$xxxx"), "\(text)")
        #expect(text.contains("- not yet"), "\(text)")
        let narrow = d.screen(80, 24).text
        #expect(narrow.contains("^ E and G differ > 30s"), "the legend is whole at 80 columns:\n\(narrow)")
        var up = try DefectTests.play("sub-upgrade-naive.yaml")
        up.keys("G")
        up.keys("T")
        #expect(up.screen(120, 40).text.contains("$U$"), "\(up.screen(120, 40).text)")
    }

    /// Defect 12 of walkthrough 3: the Merchant panel shows the access it grants and lists
    /// the subscription's credited transaction; the Auditor counts subscription payments as
    /// the verdict does (`charged: 2 payment(s)`).
    @Test func theMerchantPanelShowsAccessAndTheAuditorCountsSubscriptionPayments() throws {
        var d = try DefectTests.play("sub-billing-retry-naive.yaml")
        d.keys("G")
        let text = d.screen(120, 40).text
        #expect(text.contains("pro_monthly no access since Feb 1"), "\(text)")
        #expect(!text.contains("credited none yet"), "\(text)")
        #expect(text.contains("2 charge(s), 1 anomaly"), "\(text)")
        #expect(d.screen(80, 24).text.contains("no access since Feb 1"), "\(d.screen(80, 24).text)")
    }

    /// Walkthrough 6: a refunded renewal has no order row to say so; the Merchant panel's
    /// `refunded` line names it, at both sizes. A run with no refund has no such line.
    @Test func theMerchantPanelNamesARefundedRenewal() throws {
        var d = try DefectTests.play("sub-refund-renewal-naive.yaml")
        d.keys("G")
        let refunded = try #require(d.model.simulation.store.subscriptions.first?.periods.first { $0.refunded })
        for (w, h) in [(120, 40), (80, 24)] {
            let merchant = DefectTests.panel(d.screen(w, h), "Merchant server")
            let line = merchant.first { $0.hasPrefix("refunded ") }
            #expect(line?.contains(refunded.transactionId.suffix(4)) == true, "\(w)x\(h):\n\(merchant)")
        }
        var clean = try DefectTests.play("sub-billing-retry-naive.yaml")
        clean.keys("G")
        #expect(!DefectTests.panel(clean.screen(120, 40), "Merchant server").contains { $0.hasPrefix("refunded") })
    }

    /// Walkthrough 6: the `C` menu's price increase names its price as `b` does (`$5.99`).
    @Test func thePriceIncreaseRowNamesTheCurrency() {
        var d = Driver(UIModel(users: ["alice"], preset: .sk2Naive))
        d.keys("b4")
        d.wait(wallMs: 6_000)
        let rows = SubscriptionMenu.commands(for: d.model)
        let increase = rows.first { $0.label == "price increase (consent)" }
        #expect(increase?.detail == "$5.99 at the next renewal, if agreed", "\(String(describing: increase?.detail))")
    }
}
