/// The verdict and the money: what is still wrong, and what it cost either side.
extension Auditor {
    /// Anomalies whose status is `open` or `permanent`.
    public var unresolved: [Anomaly] { anomalies.filter { $0.status.isUnresolved } }

    /// What customers paid and did not get, in cents.
    public var paidNotDeliveredCents: Int {
        charges.filter { c in !c.credits.contains { $0.user == c.buyer } }.reduce(0) { $0 + $1.priceCents }
    }

    /// What the merchant granted without payment, in cents.
    public var grantedNotPaidCents: Int {
        charges.reduce(0) { sum, c in
            let due = c.credits.firstIndex { $0.user == c.buyer }
            let extra = c.credits.indices.filter { $0 != due }.count
            return sum + extra * c.priceCents
        } + forgedCredits.reduce(0) { $0 + (catalog.product($1)?.priceCents ?? 0) }
    }

    /// Anomalies counted by type and status.
    public func count(_ type: AnomalyType, _ status: AnomalyStatus? = nil) -> Int {
        anomalies.filter { $0.type == type && (status == nil || $0.status == status) }.count
    }
}
