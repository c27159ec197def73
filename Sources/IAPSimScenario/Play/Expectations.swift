import IAPSimCore

/// What a scenario expects once its run has settled. A key the file leaves out is not
/// checked (nil, or an empty collection).
package struct Expectations: Sendable, Equatable {
    /// Payments the App Store charged.
    package var charged: Int?
    /// Final coin balance per merchant account; accounts not named are not checked.
    package var credited: [String: Int]
    /// Anomaly counts, in file order.
    package var anomalies: [AnomalyExpectation]
    /// Anomalies whose status is `open` or `permanent`.
    package var unresolved: Int?
    /// Unfinished transactions left in the App Store queue.
    package var queue: Int?
    /// The verdict's two money lines, in cents; either may be left out.
    package var money: MoneyExpectation?
    /// The entitlements each named account holds at the end (exactly these).
    package var entitlements: [String: [String]]
    /// Charges Apple refunded.
    package var refunded: Int?
    /// Coins each named account spent.
    package var spent: [String: Int] = [:]
    /// Each named subscriber's subscription at the end (`Expectations+Subscriptions.swift`).
    package var subscriptions: [String: SubscriptionExpectation] = [:]
    /// Subscription renewals charged.
    package var renewals: Int?
    /// Reports of genuine transactions the backend refused (`merchant: external` only).
    package var reportsRefused: Int?

    package init(
        charged: Int? = nil, credited: [String: Int] = [:],
        anomalies: [AnomalyExpectation] = [], unresolved: Int? = nil, queue: Int? = nil,
        money: MoneyExpectation? = nil, entitlements: [String: [String]] = [:]
    ) {
        self.charged = charged
        self.credited = credited
        self.anomalies = anomalies
        self.unresolved = unresolved
        self.queue = queue
        self.money = money
        self.entitlements = entitlements
    }

    /// True when the file expects nothing at all.
    package var isEmpty: Bool {
        charged == nil && credited.isEmpty && anomalies.isEmpty && unresolved == nil
            && queue == nil && money == nil && entitlements.isEmpty && refunded == nil && spent.isEmpty
            && subscriptions.isEmpty && renewals == nil && reportsRefused == nil
    }

    /// The keys of an `expect` map, in the order files write them: how each is written, and
    /// when it holds (Markdown, for the docs' table; never printed).
    package static let table: [(key: String, written: String, holds: String)] = [
        ("charged", "charged: N", "the App Store charged N payments"),
        (
            "credited", "credited: {USER: COINS}",
            "each named account's final coin balance is COINS (accounts not named are not checked; only `users` "
                + "may be named)"
        ),
        (
            "anomalies", "anomalies: [...]",
            "for each item `{type: T}`, with optional `status: S` and `count: N`: the anomalies of that type (and "
                + "status) number exactly N, or at least one when `count` is absent; `count: 0` asserts there are none"
        ),
        ("unresolved", "unresolved: N", "N anomalies are `open` or `permanent`"),
        ("queue", "queue: N", "N unfinished transactions are left in the App Store queue"),
        (
            "money", "money: {paid-not-delivered: A, granted-not-paid: B}",
            "the verdict's two money lines, in currency units with at most two decimals (`0.99`, `3`, `5.98`); "
                + "either key may be left out"
        ),
        ("entitlements", "entitlements: {USER: [PRODUCT, ...]}", "USER holds exactly these entitlements at the end"),
        (
            "refunded", "refunded: N",
            "Apple refunded N charges (in effect at the end; a subscription period an upgrade refunded in part counts)"
        ),
        ("spent", "spent: {USER: COINS}", "each named account spent COINS coins in all"),
        (
            "subscriptions", "subscriptions: {USER: {status: S, access: true|false, product: PRODUCT}}",
            "USER's auto-renewable subscription ends with Apple's status S ("
                + SubscriptionStatus.allCases.map { "`\($0.word)`" }.joined(separator: ", ")
                + "), the merchant server granting access (`true`) or not, on PRODUCT; any key may be left out"
        ),
        (
            "renewals", "renewals: N",
            "the App Store charged N subscription renewals (recoveries from billing retry included)"
        ),
        (
            "reports-refused", "reports-refused: N",
            "`merchant: external` only (docs/serve.md): your backend refused (4xx, or `result: refused`) N reports "
                + "of genuine transactions, charged and signed by the App Store, sent by the app and not refunded. "
                + "Left out, any such refusal fails the file"
        ),
    ]
    /// The keys of an `expect` map, in the order files write them.
    package static let keys = table.map(\.key)
}

/// `expect.money`: the verdict's money lines (docs/world.md, "The rules"), in cents.
package struct MoneyExpectation: Sendable, Hashable {
    package var paidNotDeliveredCents: Int?
    package var grantedNotPaidCents: Int?

    package init(paidNotDeliveredCents: Int? = nil, grantedNotPaidCents: Int? = nil) {
        self.paidNotDeliveredCents = paidNotDeliveredCents
        self.grantedNotPaidCents = grantedNotPaidCents
    }

    /// The keys of the `money` map, in the order files write them.
    package static let keys = ["paid-not-delivered", "granted-not-paid"]
}

/// One item of `expect.anomalies`: it holds when the anomalies of `type` (and `status`, if
/// given) number exactly `count`, or at least one when `count` is nil.
package struct AnomalyExpectation: Sendable, Hashable {
    package var type: AnomalyType
    package var status: AnomalyStatus?
    package var count: Int?

    package init(type: AnomalyType, status: AnomalyStatus? = nil, count: Int? = nil) {
        self.type = type
        self.status = status
        self.count = count
    }

    /// Whether `actual` anomalies of this type and status satisfy the expectation.
    package func holds(actual: Int) -> Bool {
        count.map { $0 == actual } ?? (actual >= 1)
    }

    /// The keys of an anomaly item, in the order files write them.
    package static let keys = ["type", "status", "count"]
}
