import IAPSimCore

extension Inspector {
    /// A subscription: the renewal info as the App Store would sign it now
    /// (`JWSRenewalInfoDecodedPayload`, Apple's field names), its paid periods, and the access
    /// the merchant server grants.
    func subscription(_ v: SubscriberView) -> [Line] {
        let s = v.subscription
        let r = v.renewalInfo
        func date(_ t: VirtualTime?) -> String { t.map(SubscriptionCalendar.iso) ?? "absent" }
        var out: [Line] = [
            [
                Span(v.user + " ", Style(bold: true)), Span(s.productId, Style(.accent, bold: true)),
                Span("  status ", Style(.dim)),
                Span("\(v.status.rawValue) \(v.status.word)", v.status.entitled ? Style(.good) : Style(.bad)),
            ],
            field(
                "merchant server", "grants " + v.accessWords,
                v.access == v.status.entitled ? Style(.good) : Style(.bad, bold: true)),
            // Apple's rule: the latest transaction of a subscription that is active or in grace;
            // a revoked, expired or retrying one does not appear.
            field(
                "Transaction.currentEntitlements",
                v.status.entitled
                    ? "\(s.latestTransactionId) (the latest transaction)"
                    : "none (\(v.status.word): only active or grace appear)"),
            [],
            heading("Renewal info (JWSRenewalInfoDecodedPayload), as signed now"),
            field("originalTransactionId", r.originalTransactionId),
            field("productId", r.productId),
            field("autoRenewProductId", r.autoRenewProductId),
            field("autoRenewStatus", "\(r.autoRenewStatus) (\(r.autoRenewStatus == 1 ? "on" : "off"))"),
            field("isInBillingRetryPeriod", r.isInBillingRetryPeriod ? "true" : "false"),
            field("gracePeriodExpiresDate", date(r.gracePeriodExpiresDate)),
            field(
                "expirationIntent",
                r.expirationIntent.map { "\($0) (\($0 == 1 ? "voluntary" : "billing error"))" } ?? "absent"),
            field("renewalDate", date(r.renewalDate)),
        ]
        // A price increase that applies to the next renewal: Apple's status and the new price.
        if let status = r.priceIncreaseStatus {
            out.append(
                field(
                    "priceIncreaseStatus",
                    "\(status) (\(status == 0 ? "the customer has not responded" : "consented or notified"))"))
            out.append(field("renewalPrice", formatMoney(r.renewalPrice / 10)))
        }
        out += [
            field("recentSubscriptionStartDate", date(r.recentSubscriptionStartDate)),
            field("signedDate", date(r.signedDate)),
            field("environment", r.environment),
            [],
            heading("Paid periods, oldest first"),
        ]
        for p in s.periods {
            out.append([
                Span(date(p.start) + " .. " + date(p.end) + "  ", Style(.dim)),
                Span(p.productId + " " + p.transactionId, p.refunded ? Style(.bad) : Style()),
                Span(p.refunded ? "  refunded \(date(p.refundedAt))" : "", Style(.bad)),
            ])
        }
        return out
    }
}
