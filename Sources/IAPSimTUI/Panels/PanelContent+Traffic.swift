import IAPSimCore

extension PanelContent {
    static func bytes(_ n: Int) -> String {
        if n < 1_000 { return "\(n)B" }
        if n < 1_000_000 { return "\(n / 1_000).\((n % 1_000) / 100)K" }
        return "\(n / 1_000_000).\((n % 1_000_000) / 100_000)M"
    }

    // MARK: Network

    var network: [Line] {
        let n = sim.network
        let nameWidth = routeNameWidth + 1
        var out: [Line] = [[Span(TextWidth.pad("route", to: nameWidth) + "msgs   bytes lost t/o again", Style(.dim))]]
        for route in routes {
            let t = n.totals(for: route)
            let cells = [
                pad(t.messages, 4), pad(PanelContent.bytes(t.bytes), 8), pad(t.dropped, 5),
                pad(t.timedOut, 4), pad(t.retries, 6),
            ]
            var line: Line = [Span(TextWidth.pad(route.rawValue, to: nameWidth), Style(bold: true))]
            line.append(Span(cells[0] + cells[1]))
            line.append(Span(cells[2], t.dropped > 0 ? Style(.bad, bold: true) : .plain))
            line.append(Span(cells[3], t.timedOut > 0 ? Style(.warn, bold: true) : .plain))
            line.append(Span(cells[4], t.retries > 0 ? Style(.info) : .plain))
            out.append(line)
        }
        if n.recent.isEmpty { return out + [[Span("no messages yet", Style(.dim))]] }
        out.append([Span("last messages, newest first", Style(.dim))])
        for m in n.recent.reversed() where out.count < limit { out.append(message(m)) }
        return out
    }

    /// The route column: as wide as the longest shown route's name (at least 8), so that a
    /// route added to the core keeps the columns aligned.
    var routeNameWidth: Int { max(8, routes.map { TextWidth.of($0.rawValue) }.max() ?? 0) }

    /// The Network panel's rows: the routes of the run's world (the server side's once they
    /// carry traffic, so that a world without them is drawn as before), and any other route
    /// that carried traffic all the same (nothing sent is ever hidden).
    var routes: [Route] {
        Route.allCases.filter {
            $0.exists(in: sim.policy.storekit) && !$0.serverSide || sim.network.totals(for: $0).messages > 0
        }
    }

    func pad(_ v: Int, _ w: Int) -> String { pad(String(v), w) }
    func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }

    func message(_ m: TrafficRecord) -> Line {
        let arrow = m.direction == .request ? glyphs.right : glyphs.left
        let kind = m.direction == .request ? "req " : "resp"
        let fateStyle: Style
        switch m.fate {
        case .delivered: fateStyle = Style(.good)
        case .inFlight: fateStyle = Style(.info)
        case .dropped, .lost: fateStyle = Style(.bad, bold: true)
        case .timedOut, .offline, .unheard: fateStyle = Style(.warn, bold: true)
        }
        var line: Line = []
        if !narrow { line.append(Span(clock(m.sentAt) + " ", Style(.dim))) }
        line.append(
            Span(
                TextWidth.pad(m.route.rawValue, to: routeNameWidth) + " \(arrow) \(kind) ",
                Style(bold: true)))
        line.append(Span(pad(PanelContent.bytes(m.bytes), 6) + " "))
        line.append(Span(m.latencyMs.map { pad("\($0)ms", 6) + " " } ?? "     - "))
        line.append(Span(m.fate.rawValue, fateStyle))
        if m.sender == .attacker { line.append(Span(" attacker", Style(.bad, bold: true))) }
        return line
    }

    /// How many lines a panel has in all, counted without building them.
    func total(_ panel: Panel) -> Int {
        switch panel {
        case .app: return app.count
        case .queue:
            let all = sim.store.transactions.count, open = sim.store.queue.count
            if all == 0 { return 1 }
            let finished = min(all - open, PanelContent.historyLimit)
            return 1 + open + (finished > 0 ? 1 + finished : 0)
        case .server where sim.isExternal: return backend.count
        case .server: return sim.server.balances.count + 2 + min(sim.server.orders.count, PanelContent.historyLimit)
        case .network: return 1 + routes.count + (sim.network.recent.isEmpty ? 1 : 1 + sim.network.recent.count)
        case .auditor:
            return auditorHeaderCount + 2 * min(sim.auditor.anomalies.count, PanelContent.historyLimit)
        case .events: return sim.log.count
        }
    }

    // MARK: Auditor

    /// Charges the auditor is still waiting for: uncredited, no anomaly yet, inside the grace
    /// period (which starts only when the app can run: `Auditor.graceDeadline`). Each shows a
    /// countdown, so that an anomaly appearing later is no surprise.
    var chargesInGrace: [ChargeRecord] {
        sim.auditor.charges.filter {
            $0.priceCents > 0 && sim.auditor.graceDeadline($0.txn).map { sim.now < $0 } ?? false
        }
    }

    /// Lines before the first anomaly: money, counts, then the charges in grace.
    var auditorHeaderCount: Int { (narrow ? 3 : 2) + chargesInGrace.count }

    var auditor: [Line] {
        let a = sim.auditor
        let unpaid = a.paidNotDeliveredCents, free = a.grantedNotPaidCents
        var out: [Line] = [
            [
                Span("paid, not delivered ", Style(.dim)),
                Span(price(unpaid), unpaid > 0 ? Style(.bad, bold: true) : Style(.good)),
                Span(narrow ? "" : "  \(glyphs.sep)  granted, not paid ", Style(.dim)),
                Span(narrow ? "" : price(free), free > 0 ? Style(.bad, bold: true) : Style(.good)),
            ]
        ]
        if narrow {
            out.append([
                Span("granted, not paid ", Style(.dim)),
                Span(price(free), free > 0 ? Style(.bad, bold: true) : Style(.good)),
            ])
        }
        let unresolved = a.unresolved.count
        // Subscription payments count too: the verdict's `charged` counts them.
        let charges = a.charges.count + sim.subscriptionCharges
        out.append([
            Span(
                "\(charges) charge(s), \(a.anomalies.count) anomal\(a.anomalies.count == 1 ? "y" : "ies"), ",
                Style(.dim)),
            Span("\(unresolved) unresolved", unresolved > 0 ? Style(.bad, bold: true) : Style(.good)),
        ])
        for c in chargesInGrace {
            let left = DurationText.age(max(0, (a.graceDeadline(c.txn) ?? sim.now) - sim.now))
            out.append([
                Span("grace \(left) ", Style(.warn, bold: true)),
                Span("\(txn(c.txn)) \(c.productId) uncredited", Style(.dim)),
            ])
        }
        for anomaly in a.anomalies.suffix(PanelContent.historyLimit).reversed() where out.count < limit {
            out += lines(anomaly)
        }
        return out
    }

    /// Two lines an anomaly: what and where it stands; then how it ended or what happened.
    func lines(_ x: Anomaly) -> [Line] {
        var first: Line = [
            Span("A\(x.id) ", Style(bold: true)),
            Span(x.type.rawValue + " ", Style(.accent, bold: true)),
            Span(x.status.rawValue, UIStyle.status(x.status)),
        ]
        if let t = x.txn { first.append(Span(" " + txn(t))) }
        first.append(Span(" " + DurationText.age(max(0, sim.now - x.openedAt)) + " ago", Style(.dim)))
        let why = x.mechanism.map { x.status == .open ? $0 : "\(x.status.rawValue): \($0)" } ?? x.summary
        return [first, [Span("   " + words.anomaly(why), Style(.dim))]]
    }
}
