import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// `T`: shows or closes the Subscriptions view.
    mutating func toggleSubscriptions() {
        status = subscriptionsView.toggle()
    }

    /// One row per subscription of the Apple ID, in the order bought.
    var subscriberRows: [SubscriberRow] {
        let timelines = simulation.auditor.subscriberTimelines
        return simulation.subscribers.map { view in
            let s = view.subscription
            let line = timelines.first { $0.user == view.user }
            let ids = s.originalTransactionId
            let anomalies = simulation.auditor.anomalies.filter {
                $0.involved.contains(ids)
            }
            return SubscriberRow(
                user: view.user, product: s.productId, status: s.status, autoRenew: s.autoRenew,
                renewsTo: s.autoRenewProductId == s.productId ? nil : s.autoRenewProductId,
                periodEnd: s.status == .expired || s.status == .revoked ? nil : s.expiresAt,
                retrySince: s.status == .billingRetry || s.status == .grace ? s.retryStartedAt : nil,
                graceUntil: s.status == .grace ? s.gracePeriodExpiresAt : nil,
                granted: view.access,
                strip: SubscriptionStrip(
                    periods: UIModel.paidPeriods(s, now: simulation.now),
                    entitled: line?.entitled(until: simulation.now) ?? [],
                    granted: line?.granted(until: simulation.now) ?? [], changes: UIModel.planChanges(s)),
                anomalies: anomalies.map { "A\($0.id) \($0.type.rawValue) \($0.status.rawValue)" })
        }
    }

    /// The paid strip: each period as charged or refunded, then every billing retry (or
    /// grace) that followed a failed renewal, kept after it ended, up to now.
    static func paidPeriods(_ s: Subscription, now: VirtualTime) -> [SubscriptionStrip.Period] {
        var out = s.periods.map {
            SubscriptionStrip.Period(start: $0.start, end: $0.end, mark: $0.refunded ? .refunded : .paid)
        }
        for retry in s.billingRetries where now > retry.start {
            let end = min(retry.end ?? now, now)
            let grace = retry.graceUntil.map { min($0, end) } ?? retry.start
            if grace > retry.start {
                out.append(SubscriptionStrip.Period(start: retry.start, end: grace, mark: .grace))
            }
            if end > grace { out.append(SubscriptionStrip.Period(start: grace, end: end, mark: .retry)) }
        }
        return out
    }

    /// The plan changes of a subscription: a period of another product than the one before
    /// it; an upgrade when the one before was cut short with a prorated refund.
    static func planChanges(_ s: Subscription) -> [SubscriptionStrip.PlanChange] {
        zip(s.periods, s.periods.dropFirst()).compactMap { before, after in
            guard before.productId != after.productId else { return nil }
            return SubscriptionStrip.PlanChange(at: after.start, upgrade: before.refundCents > 0 && !before.refunded)
        }
    }
}

/// The subscription picker (`C`): one row per subscription command, built from the world as
/// it is now; a row the world would refuse is greyed with its reason.
enum SubscriptionMenu {
    static func commands(for model: UIModel) -> [(label: String, detail: String, command: Command?)] {
        let live = model.simulation.subscribers.last { $0.status != .expired && $0.status != .revoked }
        let billing = model.simulation.store.billingFails
        var rows: [(label: String, detail: String, command: Command?)] = [
            (
                billing ? "billing recovers" : "billing fails",
                "the customer's payment method fails at every renewal / works again",
                .billingFail(on: !billing)
            ),
            (
                live?.subscription.autoRenew == false ? "auto-renew on" : "auto-renew off",
                "the customer's choice in Settings",
                .autoRenew(on: live?.subscription.autoRenew == false)
            ),
        ]
        for product in model.simulation.config.catalog.subscriptions.map(\.id) {
            rows.append(
                (
                    "change plan to \(product)", "upgrade at once, downgrade or crossgrade at renewal",
                    .changePlan(product: product)
                ))
        }
        let newest = live?.subscription.periods.last?.transactionId
        rows.append(
            (
                "refund the current period", "Apple refunds its newest transaction (REFUND)",
                newest.map { .refund(txn: $0) }
            ))
        rows.append(
            (
                "delay next notification 2d", "the next notification V2 leaves two days late",
                .delayNextNotification(2 * 86_400_000)
            ))
        // Last, so that the rows above keep their numbers.
        let grace = model.simulation.store.gracePeriodMs
        rows.append(
            grace == nil
                ? (
                    "grace period 16d", "App Store Connect: a renewal that fails keeps access 16 days (weekly: 6)",
                    .gracePeriod(CatalogOptions.fileGracePeriodMs)
                )
                : (
                    "grace period off", "App Store Connect: a renewal that fails goes to billing retry at once",
                    .gracePeriod(nil)
                ))
        return rows
    }

    static func picker(for model: UIModel) -> Picker {
        Picker(
            title: "Subscription",
            items: commands(for: model).map { row in
                guard let command = row.command else {
                    var item = PickerItem(row.label, row.detail, .run(.wait(0)))
                    item.refused = "no subscription yet"
                    return item
                }
                return PickerItem(row.label, row.detail + " (\(command.scenarioText))", .run(command))
            })
    }
}
