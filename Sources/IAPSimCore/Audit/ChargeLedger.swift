/// The auditor's history of money, built from facts alone: who added each payment and for
/// which order, every charge, and what became of it (handled, finished, paired, credited).
/// It never looks at the world.
struct ChargeLedger: Sendable, Hashable {
    private(set) var charges: [ChargeRecord] = [] {
        didSet { looks.ledgerRevision &+= 1 }
    }
    /// Indices of the charges whose verdict may still change, ascending: every uncredited
    /// charge, and a credited one until the look that settles it (its first credit never
    /// changes, so after that look nothing about it would).
    var active: [Int] = []
    /// Indices of refunded charges with credits not taken back, ascending: the charges whose
    /// `refund-unclawed` verdict may still change.
    var unclawed: [Int] = []
    /// Indices of charges whose `refund-overclawed` verdict may still change, ascending.
    var overclaws: [Int] = []
    /// Who added each payment, and for which order (a run adds few: a search from the
    /// newest costs less than hashing).
    private var origins: [Origin] = []
    /// Where each transaction's first charge is in `charges` (derived: no part of equality).
    private var positions = KeyPositions<String>()
    /// Where each charge's transaction sits in the App Store's list, once a look found it
    /// there (`RecoveryView.canStillCredit`, every event while the charge waits).
    var storePositions = StorePositions()
    /// What the auditor's last look at each waiting charge saw (`Auditor.evaluate`).
    var looks = Looks()

    /// Where each charge's transaction sits in the App Store's list: derived data (no part of
    /// equality or hashing). The store's list only grows and a position is checked before it
    /// is used, so a stale one costs a lookup, never a wrong answer.
    typealias StorePositions = PerCharge<Int>

    /// What the auditor's last look at each charge saw: derived data (no part of equality or
    /// hashing). For a charge, the state in which the last look changed nothing and found it
    /// alive through the App Store's own list: while the store, the ledger and the anomalies
    /// are as they were and no grace period of the charge has ended, another look would find
    /// the same (its verdict reads only those, the clock through the grace periods, and the
    /// rest of the world only when the store's list does not already keep the charge alive).
    struct Looks: Sendable, Hashable {
        var ledgerRevision = 0
        var stamps = PerCharge<Stamp>()

        struct Stamp: Equatable, Sendable {
            var store: Int, ledger: Int, anomalies: Int
            /// The first time at which the look's answer may change by time alone.
            var until: VirtualTime
        }

        subscript(charge: Int) -> Stamp? {
            get { stamps[charge] }
            set { stamps[charge] = newValue }
        }
    }

    /// A value per charge index, nil until set: derived data that takes no part in equality
    /// or hashing. Empty until something is learned: most runs never allocate it.
    struct PerCharge<Value: Sendable>: Sendable, Hashable {
        private var list: [Value?] = []

        subscript(charge: Int) -> Value? {
            get { list.indices.contains(charge) ? list[charge] : nil }
            set {
                if !list.indices.contains(charge) { list += Array(repeating: nil, count: charge + 1 - list.count) }
                list[charge] = newValue
            }
        }

        static func == (a: Self, b: Self) -> Bool { true }
        func hash(into h: inout Hasher) {}

        mutating func takeRoom(from old: inout Self) { Room.move(&old.list, into: &list) }
    }

    private struct Origin: Sendable, Hashable {
        var txn: String
        var user: String
        var order: String?
    }

    init() {}

    /// Room for a typical run (ARCHITECTURE.md, "The hot path").
    mutating func reserveTypicalRoom() {
        charges.reserveCapacity(8)
        active.reserveCapacity(8)
        origins.reserveCapacity(8)
    }

    /// Takes the room of a ledger nobody needs any more (`Room`); `self` is fresh.
    mutating func takeRoom(from old: inout ChargeLedger) {
        Room.move(&old.charges, into: &charges)
        Room.move(&old.active, into: &active)
        Room.move(&old.unclawed, into: &unclawed)
        Room.move(&old.overclaws, into: &overclaws)
        Room.move(&old.origins, into: &origins)
        storePositions.takeRoom(from: &old.storePositions)
        looks.stamps.takeRoom(from: &old.looks.stamps)
        // Handing over the list counted as a change; a fresh ledger has seen none.
        looks.ledgerRevision = 0
    }

    /// The first charge of `txn` (indexed once the list is long: every fact about a
    /// transaction asks).
    func index(of txn: String) -> Int? {
        positions.firstIndex(of: txn, count: charges.count) { charges.indices.first { charges[$0].txn == txn } }
    }

    mutating func paymentAdded(txn: String, user: String, order: String?) {
        origins.append(Origin(txn: txn, user: user, order: order))
    }

    /// A new charge, due one credit to whoever added its payment. `appAwake`: the app was
    /// running in the foreground, so its grace period starts now (else at the next launch
    /// or foreground).
    mutating func charged(
        txn: String, product: String, priceCents: Int, units: Int = 1, at time: VirtualTime,
        appAwake: Bool
    ) {
        let origin = origins.indices.last { origins[$0].txn == txn }.map { origins[$0] }
        active.append(charges.count)
        var record = ChargeRecord(
            txn: txn, productId: product, priceCents: priceCents,
            buyer: origin?.user ?? "?", order: origin?.order, chargedAt: time)
        record.graceFrom = appAwake ? time : nil
        record.units = max(1, units)
        charges.append(record)
        positions.appended(to: charges, \.txn)
    }

    /// The app launched or came to the foreground: the grace period of every charge made
    /// while it could not run starts now. Returns whether any did.
    mutating func appWoke(at time: VirtualTime) -> Bool {
        var any = false
        for i in active where charges[i].graceFrom == nil {
            charges[i].graceFrom = time
            any = true
        }
        return any
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

    /// A recharge of `txn` was sent (or, `txn` being in flight already, meant) for the
    /// delivered transaction `delivered`.
    mutating func rechargeSent(_ txn: String, forDelivered delivered: String?) {
        if let delivered, delivered != txn, let i = index(of: delivered) {
            charges[i].pairedWith = txn
        }
    }

    /// Adds a credit to its charge; returns how many credits the charge had before (nil:
    /// no such charge).
    mutating func credited(_ txn: String, _ credit: ChargeRecord.Credit) -> Int? {
        guard let i = index(of: txn) else { return nil }
        let earlier = charges[i].credits.count
        charges[i].credits.append(credit)
        if charges[i].refundedAt != nil, charges[i].refundOwesClawback { watchRefund(i) }
        // A settled charge is looked at again: a later credit to its buyer resolves a wrong
        // account (docs/world.md, "The rules").
        if !active.contains(i) {
            active.insert(i, at: active.firstIndex { $0 > i } ?? active.count)
        }
        return earlier
    }

    /// The charge whose order the app paired with `txn` instead of its own transaction.
    func charge(pairedWith txn: String) -> Int? {
        charges.indices.first { charges[$0].pairedWith == txn }
    }

    /// Whether `user` already holds the entitlement `product` grants, from an earlier credit.
    func holdsEntitlement(_ user: String, _ product: String) -> Bool {
        charges.contains { c in c.productId == product && c.credits.contains { $0.user == user } }
    }

    mutating func setAnomaly(_ id: Int, of i: Int) { charges[i].anomalyId = id }

    /// Apple refunded `txn`: its credits, if any, are now coins nobody paid for.
    /// `owesClawback`: the refund asks for coins back (a prorated refund of an entitlement
    /// takes nothing back: a share of one entitlement rounds down to none).
    mutating func refunded(
        _ txn: String, at time: VirtualTime, cents: Int, percent: Int = 100, owesClawback: Bool = true
    ) {
        guard let i = index(of: txn), charges[i].refundedAt == nil else { return }
        charges[i].refundedAt = time
        charges[i].refundCents = cents
        charges[i].refundPercent = percent
        // A share below one whole unit rounds down to nothing without blame.
        let owesClawback = owesClawback && charges[i].refundOwesAUnit
        charges[i].refundOwesClawback = owesClawback
        // What the server took back before (a refund whose reversal it never heard) counts.
        let taken = charges[i].takenCents
        charges[i].clawedBack = taken > 0 && taken >= cents
        if !charges[i].credits.isEmpty && owesClawback && !charges[i].clawedBack { watchRefund(i) }
        if charges[i].credits.isEmpty, !active.contains(i) {
            active.insert(i, at: active.firstIndex { $0 > i } ?? active.count)
        }
    }

    mutating func watchRefund(_ i: Int) {
        guard !charges[i].clawedBack, !unclawed.contains(i) else { return }
        unclawed.insert(i, at: unclawed.firstIndex { $0 > i } ?? unclawed.count)
    }

    /// The server took `coins`, `cents` worth, back from `user` (negative: gave it back).
    mutating func taken(_ txn: String, from user: String, coins: Int, cents: Int) {
        guard let i = index(of: txn) else { return }
        if cents > 0 { charges[i].clawedBack = true }
        charges[i].taken.append(ChargeRecord.Taken(user: user, coins: coins, cents: cents))
        watchOverclaw(i)
    }

    /// Apple reversed the refund of `txn`: the customer has paid again.
    mutating func reversed(_ txn: String) {
        guard let i = index(of: txn) else { return }
        charges[i].refundedAt = nil
        charges[i].refundCents = 0
        charges[i].refundPercent = 0
        if !charges[i].taken.isEmpty { watchOverclaw(i) }
    }

    mutating func reversalHeard(_ txn: String, at time: VirtualTime) {
        guard let i = index(of: txn) else { return }
        charges[i].reversalHeardAt = time
        if !charges[i].taken.isEmpty { watchOverclaw(i) }
    }

    mutating func watchOverclaw(_ i: Int) {
        guard !overclaws.contains(i) else { return }
        overclaws.insert(i, at: overclaws.firstIndex { $0 > i } ?? overclaws.count)
    }

    mutating func setOverclawAnomaly(_ id: Int, of i: Int) { charges[i].overclawAnomalyId = id }

    mutating func setRefundAnomaly(_ id: Int, of i: Int) { charges[i].refundAnomalyId = id }

    mutating func markStuck(_ i: Int) { charges[i].stuck = true }
}
