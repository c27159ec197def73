/// The verdict and the money: what is still wrong, and what it cost either side.
extension Auditor {
    /// Anomalies whose status is `open` or `permanent`.
    package var unresolved: [Anomaly] { anomalies.filter { $0.status.isUnresolved } }

    /// What customers paid and did not get, in cents: over merchant accounts, what each
    /// paid beyond the value delivered to it (docs/world.md, "The rules": money nets per account).
    package var paidNotDeliveredCents: Int {
        netPerAccount.reduce(0) { $0 + max(0, $1.paid - $1.delivered) } + timelineMoney.paidNotDelivered
    }

    /// What the merchant granted without payment, in cents: over merchant accounts, the
    /// value delivered to each beyond what it paid.
    package var grantedNotPaidCents: Int {
        netPerAccount.reduce(0) { $0 + max(0, $1.delivered - $1.paid) } + timelineMoney.grantedNotPaid
    }

    /// Of what was granted without payment, the value whole units force (docs/world.md, rule
    /// 8): a prorated refund of a charge credited once whose take-back is within one unit of
    /// the exact share (no anomaly) leaves the rest of a unit that no server could split.
    package var wholeUnitCents: Int {
        var total = 0
        for c in ledger.charges where c.refundedAt != nil && c.credits.count == 1 && !c.overclawed {
            guard c.refundAnomalyId == nil else { continue }
            total += max(0, c.creditCents - c.takenCents - c.paidCents)
        }
        return min(total, grantedNotPaidCents)
    }

    /// Per account (in the order first seen): what it paid, and the value of the credits it
    /// got (a credit is worth its charge's price; a forged one, its product's).
    var netPerAccount: [(account: String, paid: Int, delivered: Int)] {
        var rows: [(account: String, paid: Int, delivered: Int)] = []
        func add(_ account: String, paid: Int, delivered: Int) {
            if let k = rows.firstIndex(where: { $0.account == account }) {
                rows[k].paid += paid
                rows[k].delivered += delivered
            } else {
                rows.append((account, paid, delivered))
            }
        }
        for c in ledger.charges {
            add(c.buyer, paid: c.paidCents, delivered: 0)
            for credit in c.credits { add(credit.user, paid: 0, delivered: c.creditCents) }
            for t in c.taken { add(t.user, paid: 0, delivered: -t.cents) }
        }
        for forged in forgedCredits {
            add(forged.user, paid: 0, delivered: catalog.product(forged.product)?.priceCents ?? 0)
        }
        return rows
    }

    /// Anomalies counted by type and status.
    package func count(_ type: AnomalyType, _ status: AnomalyStatus? = nil) -> Int {
        anomalies.filter { $0.type == type && (status == nil || $0.status == status) }.count
    }
}
