/// The auditor's history of money, built from facts alone: who added each payment and for
/// which order, every charge, and what became of it (handled, finished, paired, credited).
/// It never looks at the world.
struct ChargeLedger: Sendable, Hashable {
    private(set) var charges: [ChargeRecord] = []
    /// Indices of the charges whose verdict may still change, ascending: every uncredited
    /// charge, and a credited one until the look that settles it (its first credit never
    /// changes, so after that look nothing about it would).
    var active: [Int] = []
    /// Who added each payment, and for which order (a run adds few: a search from the
    /// newest costs less than hashing).
    private var origins: [Origin] = []

    private struct Origin: Sendable, Hashable {
        var txn: String
        var user: String
        var order: String?
    }

    init() {
        // Room for a typical run's few purchases: one allocation each, not a regrowth.
        charges.reserveCapacity(8)
        active.reserveCapacity(8)
        origins.reserveCapacity(8)
    }

    func index(of txn: String) -> Int? {
        charges.indices.first { charges[$0].txn == txn }
    }

    mutating func paymentAdded(txn: String, user: String, order: String?) {
        origins.append(Origin(txn: txn, user: user, order: order))
    }

    /// A new charge, due one credit to whoever added its payment.
    mutating func charged(txn: String, product: String, priceCents: Int, at time: VirtualTime) {
        let origin = origins.indices.last { origins[$0].txn == txn }.map { origins[$0] }
        active.append(charges.count)
        charges.append(ChargeRecord(txn: txn, productId: product, priceCents: priceCents,
                                    buyer: origin?.user ?? "?", order: origin?.order,
                                    chargedAt: time))
    }

    /// The app's observer received these transactions (only the first time counts).
    mutating func delivered(_ txns: [String], at time: VirtualTime) {
        for txn in txns {
            if let i = index(of: txn), charges[i].handledAt == nil { charges[i].handledAt = time }
        }
    }

    mutating func finished(_ txn: String, at time: VirtualTime) {
        if let i = index(of: txn) { charges[i].finishedAt = time }
    }

    /// A recharge of `txn` was sent for the delivered transaction `delivered`.
    mutating func rechargeSent(_ txn: String, forDelivered delivered: String?) {
        if let delivered, delivered != txn, let i = index(of: delivered) {
            charges[i].pairedWrongly = true
        }
    }

    /// Adds a credit to its charge; returns how many credits the charge had before (nil:
    /// no such charge).
    mutating func credited(_ txn: String, _ credit: ChargeRecord.Credit) -> Int? {
        guard let i = index(of: txn) else { return nil }
        let earlier = charges[i].credits.count
        charges[i].credits.append(credit)
        return earlier
    }

    mutating func setAnomaly(_ id: Int, of i: Int) { charges[i].anomalyId = id }
}
