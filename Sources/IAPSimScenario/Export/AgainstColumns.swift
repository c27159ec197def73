import IAPSimCore

/// `run --against`: two verdicts of the same inputs side by side, each with what it
/// avoided that the other did not ("prevented: lost-order o1, by observer launch").
package enum AgainstColumns {
    package typealias Side = (title: String, sim: Simulation, whatIf: WhatIfReport)

    package static func lines(left: Side, right: Side) -> [String] {
        let a = column(left), b = column(right)
        let width = min(60, max(a.map(\.count).max() ?? 0, 24)) + 2
        var out = ["", "== the same inputs under two policies"]
        for i in 0..<max(a.count, b.count) {
            let l = i < a.count ? a[i] : ""
            let r = i < b.count ? b[i] : ""
            let pad = l.count < width ? String(repeating: " ", count: width - l.count) : "  "
            out.append((l + pad + "| " + r).trimmingTrailingSpaces)
        }
        return out.map(VisibleText.escaped)
    }

    /// One side: its title, its anomalies, its money, what it avoided.
    static func column(_ side: Side) -> [String] {
        let auditor = side.sim.auditor
        var out = [side.title, String(repeating: "-", count: side.title.count)]
        if auditor.anomalies.isEmpty { out.append("anomalies: none") }
        for x in auditor.anomalies {
            // A replay is named by the attacker's fresh order: the one the auditor names, or for
            // a replay refused at the door, the attacker's newest order made before it (as the
            // other side, where it was credited, names it).
            let orders = side.sim.server.orders
            let fresh =
                x.involved.first { id in
                    id != x.order && orders.contains { $0.id == id && $0.createdBy == .attacker }
                }
                ?? (x.type == .replayFraud && x.status == .blocked
                    ? orders.last { $0.createdBy == .attacker && $0.createdAt <= x.openedAt }?.id : nil)
            out.append(
                "A\(x.id) \(x.type.rawValue) \(x.status.rawValue)"
                    + (fresh ?? x.order ?? x.txn).map { " \($0)" }.orEmpty)
        }
        out.append("paid, not delivered: \(formatMoney(auditor.paidNotDeliveredCents))")
        out.append("granted, not paid: \(formatMoney(auditor.grantedNotPaidCents))")
        out.append(
            "balances: " + side.sim.users.map { "\($0) \(side.sim.server.balance(of: $0))" }.joined(separator: ", "))
        let bad = auditor.anomalies.filter { $0.status.isUnresolved }.count
        out.append(bad == 0 ? "verdict: nothing ends badly" : "verdict: \(bad) anomaly(ies) end badly")
        out += side.whatIf.avoided.map { "avoided: " + $0.line }
        return out
    }
}

extension Optional where Wrapped == String {
    fileprivate var orEmpty: String { self ?? "" }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
