/// A credit of a forged transaction: who got which product, though nobody paid.
package struct ForgedCredit: Sendable, Hashable {
    package let user: String
    package let product: String
}

/// The omniscient auditor. It sits beside the world and is fed the history (every charge,
/// every credit, every request) plus, after each event, a read-only view of what can still
/// act; it never changes the world, and the world never asks it anything. It owns the
/// verdict, and it keeps its own clock: the ends of grace periods it must look at are its
/// own list (`graceEnds`), never events of the world's queue, so the world's run ends at
/// its last world event whatever the grace period.
///
/// By concern: the facts it reads are declared in `Auditor+Facts.swift`, the history it
/// keeps is the `ChargeLedger`, the classification of anomalies is in
/// `Auditor+Classification.swift`, the verdict and money in `Auditor+Verdict.swift`, the
/// words in `AnomalyWording`.
package struct Auditor: Sendable, Hashable {
    package internal(set) var anomalies: [Anomaly] = [] {
        didSet { anomaliesRevision &+= 1 }
    }
    /// Counts the changes to `anomalies` (no part of equality or hashing).
    var anomaliesRevision = 0
    var ledger = ChargeLedger()
    /// Credits of forged transactions that were never charged (StoreKit 2): who got which
    /// product.
    var forgedCredits: [ForgedCredit] = []
    /// `iapsim serve`: the backend's acknowledgements waiting for their credit rows.
    var acks: [Acknowledgement] = []
    /// `iapsim serve`: the refunds and reversals the backend acknowledged.
    var ackedNews: [AcknowledgedNews] = []
    /// False under serve: a backend's ledger says nothing of a subscription's expiry, so the
    /// entitlement timeline (E against G) is not judged there.
    var judgesSubscriptions = true
    /// Each subscriber's entitlement timeline (`Auditor+Subscriptions.swift`), in the order
    /// first seen.
    package internal(set) var subscriberTimelines: [SubscriberTimeline] = []
    /// The prices of what was credited without any charge.
    package var catalog: Catalog

    /// Every charge, oldest first, with what became of it.
    package var charges: [ChargeRecord] { ledger.charges }

    /// How long an uncredited charge may wait before it is an anomaly (docs/world.md, "The
    /// auditor").
    var graceMs: VirtualTime = 30_000
    /// The auditor's own clock: the times, ascending, at which a grace period it watches
    /// ends and it must look again even if the world does nothing then. The runner lets the
    /// world's time pass to them (`Simulation.passTime`); the world never schedules them.
    var graceEnds: [VirtualTime] = []
    /// The auditor's clock for the entitlement timelines: where access the server granted
    /// ends on its own (`Auditor+Subscriptions.swift`). Not waited for by the verdict.
    var timelineWakes: [VirtualTime] = []
    /// The app is running in the foreground: a charge now starts its grace period now
    /// (docs/world.md: a charge waits for the app to run before its grace period starts). The app starts not running; its launch is a fact like any other.
    var appAwake = false

    package init(catalog: Catalog = .standard) { self.catalog = catalog }

    package static func == (a: Auditor, b: Auditor) -> Bool {
        a.anomalies == b.anomalies && a.ledger.charges == b.ledger.charges && a.forgedCredits == b.forgedCredits
            && a.subscriberTimelines == b.subscriberTimelines
    }

    package func hash(into h: inout Hasher) {
        h.combine(anomalies)
        h.combine(ledger.charges)
        h.combine(forgedCredits)
        h.combine(subscriberTimelines)
    }

    /// The next time the auditor must look again by its own clock, if any.
    package var nextGraceEnd: VirtualTime? {
        guard let wake = timelineWakes.first else { return graceEnds.first }
        return min(wake, graceEnds.first ?? wake)
    }

    /// Notes that a grace period starting at `time` ends: the auditor looks again just past it.
    mutating func watchGrace(from time: VirtualTime) {
        let end = time + graceMs + 1
        var i = graceEnds.count
        while i > 0, graceEnds[i - 1] > end { i -= 1 }
        if i > 0, graceEnds[i - 1] == end { return }
        graceEnds.insert(end, at: i)
    }

    /// Takes the first grace end off the auditor's clock.
    mutating func takeGraceEnd() {
        if let wake = timelineWakes.first, wake <= (graceEnds.first ?? wake) {
            timelineWakes.removeFirst()
        } else {
            graceEnds.removeFirst()
        }
    }

    /// Reads one fact of the history (one of the kinds `use(of:)` declares read); starts the
    /// grace period it opens (a new charge's, say) on the auditor's own clock.
    mutating func observe(_ e: LogEntry, _ out: inout [LogEntry]) {
        switch e.fact {
        case .paymentAdded(let txn, _, _, let user, let order):
            ledger.paymentAdded(txn: txn, user: user, order: order)
        case .paymentCharged(let txn, let product, let price):
            ledger.charged(
                txn: txn, product: product, priceCents: price, units: catalog.product(product)?.coins ?? 1,
                at: e.time, appAwake: appAwake)
            if appAwake { watchGrace(from: e.time) }
        case .appLaunched, .appForegrounded:
            appAwake = true
            if ledger.appWoke(at: e.time) { watchGrace(from: e.time) }
        case .appCrashed, .appUninstalled, .appBackgrounded:
            appAwake = false
        case .transactionsDelivered(let txns, _):
            ledger.delivered(txns, at: e.time)
            watchGrace(from: e.time)
        case .transactionFinished(let txn), .finishCalled(let txn):
            ledger.finished(txn, at: e.time)
        case .purchaseStarted(let txn, _, _, let user, let order),
            .purchaseCompletedOutsideApp(let txn, _, let user, let order):
            ledger.paymentAdded(txn: txn, user: user, order: order)
        case .purchaseReturned(let txn, _, .success):
            ledger.delivered([txn], at: e.time)
            watchGrace(from: e.time)
        case .updatesEmitted(let txns, _), .unfinishedSwept(let txns):
            ledger.delivered(txns, at: e.time)
            watchGrace(from: e.time)
        case .rechargeSent(let txn, _, _, _, let delivered):
            ledger.rechargeSent(txn, forDelivered: delivered)
        case .rechargeAlreadyInFlight(let txn, let delivered):
            ledger.rechargeSent(txn, forDelivered: delivered)
        case .coinsCredited(let user, let coins, let product, let txn, let order, let sender, let via):
            let credit = ChargeRecord.Credit(user: user, sender: sender, at: e.time, via: via, order: order)
            observeCredit(credit, txn: txn, product: product, entitlement: coins == 0, &out)
        case .refundIssued(let txn, let product, let cents, let percent):
            let owes = percent == 100 || catalog.kind(of: product) == .consumable
            ledger.refunded(txn, at: e.time, cents: cents, percent: percent, owesClawback: owes)
        case .coinsClawedBack(let user, let coins, let txn, _):
            ledger.taken(txn, from: user, coins: coins, cents: takenValue(coins, txn, user))
        case .coinsRestored(let user, let coins, let txn, _):
            ledger.taken(txn, from: user, coins: -coins, cents: takenValue(-coins, txn, user, restored: true))
        case .refundReversed(let txn):
            ledger.reversed(txn)
        case .reversalHeard(let txn, _):
            ledger.reversalHeard(txn, at: e.time)
            watchGrace(from: e.time)
        case .rechargeRefused(let txn, let reason, .attacker):
            // A transaction the App Store never charged was forged, not replayed.
            let summary = ledger.index(of: txn) == nil ? AnomalyWording.forged(txn) : AnomalyWording.replayed(txn)
            open(
                .replayFraud, .blocked, txn: txn, at: e.time, summary: summary,
                mechanism: AnomalyWording.refused(reason), involved: [txn], &out)
        case .alreadyCredited(let txn, .attacker):
            open(
                .replayFraud, .blocked, txn: txn, at: e.time, summary: AnomalyWording.replayed(txn),
                mechanism: AnomalyWording.refusedAsAlreadyCredited, involved: [txn], &out)
        case .subscriptionChanged(let note) where judgesSubscriptions:
            observeSubscription(note, at: e.time, &out)
        case .accessChanged(let user, let productId, let until, let why) where judgesSubscriptions:
            observeAccess(user: user, productId: productId, until: until, why: why, at: e.time, &out)
        default:
            break
        }
    }

    /// A credit of `txn`. Granting an entitlement its account already holds is no credit
    /// (docs/world.md: an entitlement granted twice is one credit), unless it is the charge's first. A second credit is one anomaly: a
    /// replay, or a double credit (naming the account that got it without payment, and the
    /// order of another charge it was credited on). A credit of a transaction the App Store
    /// never charged is a forgery (StoreKit 2's `forge`).
    mutating func observeCredit(
        _ credit: ChargeRecord.Credit, txn: String, product: String, entitlement: Bool,
        _ out: inout [LogEntry]
    ) {
        guard let i = ledger.index(of: txn) else {
            if credit.sender == .attacker {
                forgedCredits.append(ForgedCredit(user: credit.user, product: product))
                open(
                    .replayFraud, .permanent, txn: txn, at: credit.at,
                    summary: AnomalyWording.forgedCredited(txn, to: credit.user, order: credit.order),
                    mechanism: AnomalyWording.grantedToForgery, involved: [txn] + [credit.order].compactMap { $0 },
                    &out)
            }
            return
        }
        let c = ledger.charges[i]
        if entitlement, !c.credits.isEmpty, ledger.holdsEntitlement(credit.user, c.productId) { return }
        guard let earlier = ledger.credited(txn, credit), earlier > 0 else { return }
        let now = ledger.charges[i]
        var involved = [txn] + [c.order, credit.order].compactMap { $0 }
        if credit.sender == .attacker {
            open(
                .replayFraud, .permanent, txn: txn, at: credit.at,
                summary: AnomalyWording.replayCredited(txn, to: credit.user, order: credit.order),
                mechanism: AnomalyWording.grantedToReplay, involved: involved, &out)
            return
        }
        let first = now.credits[0]
        if credit.user == now.buyer, first.user != now.buyer {
            open(
                .doubleCredit, .permanent, txn: txn, at: credit.at,
                summary: AnomalyWording.creditedToOtherFirst(now, other: first.user),
                mechanism: AnomalyWording.grantedWithoutPayment(to: first.user), involved: involved, &out)
            return
        }
        let other = ledger.charge(pairedWith: txn).map { ledger.charges[$0] }
        if let other { involved += [other.txn] }
        open(
            .doubleCredit, .permanent, txn: txn, at: credit.at,
            summary: AnomalyWording.creditedAgain(now, times: earlier + 1, via: credit.via, staleFor: other),
            mechanism: credit.user == now.buyer
                ? AnomalyWording.grantedTwice
                : AnomalyWording.grantedWithoutPayment(to: credit.user), involved: involved, &out)
    }

    /// Opens an anomaly and writes it to `out`; returns its id.
    @discardableResult
    mutating func open(
        _ type: AnomalyType, _ status: AnomalyStatus, txn: String?, at time: VirtualTime,
        summary: String, mechanism: String?, involved: [String], _ out: inout [LogEntry]
    ) -> Int {
        let id = anomalies.count + 1
        // The charge's order and buyer, read in place (`txn.flatMap(ledger.index)` captured a
        // copy of the whole ledger, and the charge was copied whole).
        var order: String?
        var user: String?
        if let txn, let k = ledger.index(of: txn) {
            order = ledger.charges[k].order
            user = ledger.charges[k].buyer
        }
        let unique = involved.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        anomalies.append(
            Anomaly(
                id: id, type: type, status: status, txn: txn, order: order,
                user: user, openedAt: time, changedAt: time,
                mechanism: mechanism, summary: summary, involved: unique))
        out.append(
            LogEntry(
                time: time, part: .auditor,
                fact: .anomalyOpened(id: id, type: type, txn: txn, status: status, summary: summary)))
        if mechanism != nil, status != .open {
            out.append(
                LogEntry(
                    time: time, part: .auditor,
                    fact: .anomalyStatusChanged(
                        id: id, type: type, status: status, mechanism: mechanism)))
        }
        return id
    }

    /// Changes an anomaly and writes the change to `out`, unless nothing changes.
    mutating func change(
        _ id: Int, type: AnomalyType, status: AnomalyStatus, mechanism: String?,
        summary: String? = nil, at time: VirtualTime, _ out: inout [LogEntry]
    ) {
        let i = id - 1
        guard
            anomalies[i].type != type || anomalies[i].status != status
                || anomalies[i].mechanism != mechanism
        else { return }
        anomalies[i].type = type
        anomalies[i].status = status
        anomalies[i].mechanism = mechanism
        anomalies[i].changedAt = time
        if let summary { anomalies[i].summary = summary }
        out.append(
            LogEntry(
                time: time, part: .auditor,
                fact: .anomalyStatusChanged(
                    id: id, type: type, status: status, mechanism: mechanism)))
    }
}
