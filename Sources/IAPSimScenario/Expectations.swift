import IAPSimCore

/// What a scenario expects once its run has settled. A key the file leaves out is not
/// checked (nil, or an empty collection).
public struct Expectations: Sendable, Equatable {
    /// Payments the App Store charged.
    public var charged: Int?
    /// Final coin balance per merchant account; accounts not named are not checked.
    public var credited: [String: Int]
    /// Anomaly counts, in file order.
    public var anomalies: [AnomalyExpectation]
    /// Anomalies whose status is `open` or `permanent`.
    public var unresolved: Int?
    /// Unfinished transactions left in the App Store queue.
    public var queue: Int?
    /// The verdict's two money lines, in cents; either may be left out.
    public var money: MoneyExpectation?
    /// The entitlements each named account holds at the end (exactly these).
    public var entitlements: [String: [String]]
    /// Charges Apple refunded.
    public var refunded: Int?
    /// Coins each named account spent.
    public var spent: [String: Int] = [:]

    public init(
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
    public var isEmpty: Bool {
        charged == nil && credited.isEmpty && anomalies.isEmpty && unresolved == nil
            && queue == nil && money == nil && entitlements.isEmpty && refunded == nil && spent.isEmpty
    }

    /// The keys of an `expect` map, in the order files write them.
    public static let keys = ["charged", "credited", "anomalies", "unresolved", "queue",
                              "money", "entitlements", "refunded", "spent"]
}

/// `expect.money`: the verdict's money lines (TRUTH.md C.3), in cents.
public struct MoneyExpectation: Sendable, Hashable {
    public var paidNotDeliveredCents: Int?
    public var grantedNotPaidCents: Int?

    public init(paidNotDeliveredCents: Int? = nil, grantedNotPaidCents: Int? = nil) {
        self.paidNotDeliveredCents = paidNotDeliveredCents
        self.grantedNotPaidCents = grantedNotPaidCents
    }

    /// The keys of the `money` map, in the order files write them.
    public static let keys = ["paid-not-delivered", "granted-not-paid"]
}

/// One item of `expect.anomalies`: it holds when the anomalies of `type` (and `status`, if
/// given) number exactly `count`, or at least one when `count` is nil.
public struct AnomalyExpectation: Sendable, Hashable {
    public var type: AnomalyType
    public var status: AnomalyStatus?
    public var count: Int?

    public init(type: AnomalyType, status: AnomalyStatus? = nil, count: Int? = nil) {
        self.type = type
        self.status = status
        self.count = count
    }

    /// Whether `actual` anomalies of this type and status satisfy the expectation.
    public func holds(actual: Int) -> Bool {
        count.map { $0 == actual } ?? (actual >= 1)
    }

    /// The keys of an anomaly item, in the order files write them.
    public static let keys = ["type", "status", "count"]
}
