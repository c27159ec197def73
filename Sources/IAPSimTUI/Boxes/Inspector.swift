import IAPSimCore
import IAPSimScenario

/// The text of an inspector: one anomaly, or one transaction, explained from the world's
/// snapshot and its log (read only). Lines are wrapped to `width` by the renderer.
struct Inspector {
    let sim: Simulation
    let glyphs: Glyphs
    /// The replays' answers for the run so far, when worked out (`UIModel.whatIf`).
    var whatIf: WhatIfReport? = nil
    /// The sandbox: its inputs are keys pressed, not a file's steps.
    var sandbox = false
    /// The replays are under way (the frame before they run).
    var working = false

    func title(_ target: InspectTarget) -> String {
        switch target {
        case .anomaly(let id): return "Anomaly A\(id)"
        case .transaction(let id): return "Transaction \(id)"
        case .subscription(let id): return "Subscription \(id)"
        }
    }

    func lines(_ target: InspectTarget) -> [Line] {
        switch target {
        case .anomaly(let id):
            guard let x = sim.auditor.anomalies.first(where: { $0.id == id }) else {
                return [[Span("A\(id) is no longer in the auditor's list", Style(.dim))]]
            }
            return anomaly(x)
        case .transaction(let id):
            guard let t = sim.store.transaction(id) else {
                return [[Span("\(id) is no longer in the App Store's list", Style(.dim))]]
            }
            return worldWords.storeKit2 ? storeKit2Transaction(t) : transaction(t)
        case .subscription(let id):
            guard let v = sim.subscribers.first(where: { $0.subscription.originalTransactionId == id }) else {
                return [[Span("\(id) is no longer among the App Store's subscriptions", Style(.dim))]]
            }
            return subscription(v)
        }
    }

    func heading(_ text: String) -> Line { [Span(text, Style(.title, bold: true))] }

    func field(_ name: String, _ value: String, _ style: Style = .plain) -> Line {
        [Span(name + ": ", Style(.dim)), Span(value, style)]
    }

    // MARK: anomaly

    func anomaly(_ x: Anomaly) -> [Line] {
        let stale = staleTransaction(for: x)
        // The anomaly's order, the one the payment was made for, and every order the server
        // credited with this transaction (a replay or a double credit adds fresh ones).
        var orders: [String] = []
        let credited = sim.server.credits.filter { $0.transactionId == x.txn }.compactMap(\.orderId)
        for o in [x.order, x.txn.flatMap(orderOf)].compactMap({ $0 }) + credited + attackerOrders(x)
        where !orders.contains(o) {
            orders.append(o)
        }
        // What the auditor named (Anomaly.involved) first, then what the world adds.
        let ids = ([x.txn, stale].compactMap { $0 } + orders).reduce(into: x.involved) {
            if !$0.contains($1) { $0.append($1) }
        }
        var out: [Line] = [
            [
                Span("A\(x.id) ", Style(bold: true)), Span(x.type.rawValue, Style(.accent, bold: true)),
                Span("  status ", Style(.dim)), Span(x.status.rawValue, UIStyle.status(x.status)),
            ],
            field("what", Prevention.meaning(x.type, in: sim.policy.storekit).replacingOccurrences(of: "`", with: "")),
            field("when opened", worldWords.anomaly(openingSummary(x))),
            heading("status history"),
        ]
        out += statusHistory(x.id)
        out.append(heading("involved"))
        out.append(field("transaction", x.txn.map { txnWords($0) } ?? "(none)"))
        if let jws = jwsLine(x) { out.append(jws) }
        if let stale {
            out.append(
                field("sent instead", "\(txnWords(stale)) (the stale transaction paired with this order)", Style(.bad)))
        }
        out.append(
            field(
                orders.count > 1 ? "orders" : "order",
                orders.map(orderWords).joined(separator: "; ").nonEmpty ?? "(none)"))
        if let user = x.user { out.append(field("account", user)) }
        out.append(heading("money"))
        // A subscription's money is its paid periods, as the handout and the verdict count it.
        if x.type.family == .subscription, let user = x.user,
            let subscription = sim.subscribers.first(where: { $0.user == user })?.subscription
        {
            out += Handout.subscriptionMoney(subscription, of: user, in: sim).map { line in
                let text = line.hasPrefix("- ") ? String(line.dropFirst(2)) : line
                guard let colon = text.firstIndex(of: ":") else { return field("paid", text) }
                return field(String(text[..<colon]), String(text[text.index(after: colon)...].drop { $0 == " " }))
            }
        } else {
            out += money(x.txn)
        }
        out.append(field("mechanism", x.mechanism.map(worldWords.anomaly) ?? "(none yet: \(x.status.rawValue))"))
        for line in Prevention.lines(whatIf?.explanation(of: x.id), sandbox: sandbox, working: working) {
            out.append([Span(line, Style(.good, bold: true))])
        }
        out.append(heading("chain of facts (\(ids.joined(separator: ", ")))"))
        out += chain(ids: CausalChain.ids(Set(ids), resolvedThrough: sim.log, anomaly: x.id), anomalyId: x.id)
        return out
    }

    /// The anomaly's words when it opened (its summary changes with its status).
    func openingSummary(_ x: Anomaly) -> String {
        for e in sim.log {
            if case .anomalyOpened(x.id, _, _, _, let summary) = e.fact { return summary }
        }
        return x.summary
    }

    /// For a replay: the attacker's fresh order (a blocked one is never credited, so no
    /// credit names it): the attacker's order with this transaction, else the newest one
    /// created before the anomaly opened.
    func attackerOrders(_ x: Anomaly) -> [String] {
        guard x.type == .replayFraud else { return [] }
        let attacker = sim.server.orders.filter { $0.createdBy == .attacker }
        let bound = attacker.filter { $0.transactionId != nil && $0.transactionId == x.txn }
        if !bound.isEmpty { return bound.map(\.id) }
        return attacker.last { $0.transactionId == nil && $0.createdAt <= x.openedAt }.map { [$0.id] } ?? []
    }

    func statusHistory(_ id: Int) -> [Line] {
        var out: [Line] = []
        // A change to the status it already has only says why (opened permanent, then its
        // mechanism): the history does not repeat `missed-order permanent`.
        var last: (AnomalyType, AnomalyStatus)?
        for e in sim.log {
            switch e.fact {
            case .anomalyOpened(id, let type, _, let status, _):
                last = (type, status)
                out.append([
                    Span("  " + DurationText.clock(e.time) + " ", Style(.dim)),
                    Span("opened as \(type.rawValue) \(status.rawValue)"),
                ])
            case .anomalyStatusChanged(id, let type, let status, let mechanism):
                let same = last.map { $0 == (type, status) } ?? false
                last = (type, status)
                if same && mechanism == nil { continue }
                let words = mechanism.map { worldWords.anomaly($0) } ?? ""
                out.append([
                    Span("  " + DurationText.clock(e.time) + " ", Style(.dim)),
                    Span(
                        same
                            ? "still \(status.rawValue): \(words)"
                            : "\(glyphs.right) \(type.rawValue) \(status.rawValue)"
                                + (words.isEmpty ? "" : ": " + words)),
                ])
            default: break
            }
        }
        return out.isEmpty ? [[Span("  (older than the log kept in memory)", Style(.dim))]] : out
    }

    /// For a duplicate receipt: the transaction that was sent in this one's place.
    func staleTransaction(for x: Anomaly) -> String? {
        guard let real = x.txn else { return nil }
        for e in sim.log {
            if case .rechargeSent(let sent, _, _, _, let forDelivered) = e.fact, forDelivered == real, sent != real {
                return sent
            }
        }
        return nil
    }

    func orderOf(_ txn: String) -> String? {
        if let o = sim.server.orders.first(where: { $0.transactionId == txn }) { return o.id }
        for e in sim.log {
            if case .paymentAdded(txn, _, _, _, let order) = e.fact { return order }
            if case .purchaseStarted(txn, _, _, _, let order) = e.fact { return order }
        }
        return nil
    }

    func txnWords(_ id: String) -> String {
        guard let t = sim.store.transaction(id) else {
            return id == "(none)" ? "(none): a failed transaction, which has no transactionIdentifier" : id
        }
        // A purchase's price from its charge; a subscription period's from the period it
        // paid for (a trial's is 0.00).
        let cents =
            sim.auditor.charges.first { $0.txn == id }?.priceCents
            ?? sim.subscribers.lazy.flatMap(\.subscription.periods).first { $0.transactionId == id }?.priceCents
        let price = cents.map { " " + sim.config.catalog.settings.displayPrice($0) } ?? ""
        return
            "\(id) (\(t.productId)\(price), \(worldWords.state(t, returned: WorldWords.returnedSuccess(sim))), \(t.finished ? "finished" : "unfinished"))"
    }

    func orderWords(_ id: String) -> String {
        guard let o = sim.server.order(id) else { return id }
        return "\(o.id) by \(o.user) for \(o.productId), \(o.state.rawValue)"
            + (o.transactionId.map { " with \($0)" } ?? "") + (o.createdBy == .attacker ? " (attacker)" : "")
    }

    func money(_ txn: String?) -> [Line] {
        guard let txn, let charge = sim.auditor.charges.first(where: { $0.txn == txn }) else {
            // A subscription's period is paid for by its transaction (a trial's with 0.00).
            if let txn,
                let p = sim.subscribers.lazy.flatMap(\.subscription.periods).first(where: { $0.transactionId == txn })
            {
                return [
                    field(
                        "paid",
                        "\(sim.config.catalog.settings.displayPrice(p.priceCents)) for \(p.productId), "
                            + "\(SubscriptionCalendar.iso(p.start)) to \(SubscriptionCalendar.iso(p.end))")
                ] + refundLines(txn)
            }
            return [field("paid", "no charge behind it")]
        }
        var out = [
            field(
                "paid",
                "\(sim.config.catalog.settings.displayPrice(charge.priceCents)) by \(charge.buyer) at \(DurationText.clock(charge.chargedAt))"
            )
        ]
        if charge.credits.isEmpty {
            out.append(field("credited", "nothing", Style(.bad, bold: true)))
        }
        for c in charge.credits {
            out.append(
                field(
                    "credited",
                    "to \(c.user) at \(DurationText.clock(c.at)) (\(c.via.words))"
                        + (c.sender == .attacker ? " [attacker]" : ""),
                    c.user == charge.buyer ? Style(.good) : Style(.bad, bold: true)))
        }
        return out + refundLines(txn)
    }

    /// A refund and what the server took back for it, from the log (and the store's record).
    func refundLines(_ txn: String) -> [Line] {
        var out: [Line] = []
        let product = sim.store.transaction(txn)?.productId ?? ""
        if let at = sim.store.transaction(txn)?.refundedAt {
            out.append(
                field("refunded", "by Apple at \(DurationText.clock(at)) (revocationDate)", Style(.warn, bold: true)))
        }
        for e in sim.log {
            if case .coinsClawedBack(let user, let coins, txn, let balance) = e.fact {
                let unlock = coins == 0 && (sim.store.catalog.read(product) { $0.coins == 0 } ?? false)
                out.append(
                    field(
                        "clawed back",
                        unlock
                            ? "the unlock of \(product) from \(user) at \(DurationText.clock(e.time)) (locked again)"
                            : "\(coins) coins from \(user) at \(DurationText.clock(e.time)) (balance \(balance))",
                        Style(.good)))
            }
        }
        return out
    }

    /// Every log entry that names one of `ids` or the anomaly itself, with its time; the facts
    /// of the inputs that caused it (`CausalChain`, from the replays); and, between the first
    /// named fact and the last, what explains them without naming them: a fault, a crash, a
    /// launch, a login or logout, the network going off, and the fate of the messages that
    /// carried these transactions (a request lost or timed out). Facts that do not name the
    /// anomaly are shown in the warning colour.
    func chain(ids: Set<String>, anomalyId: Int) -> [Line] {
        let own = "A\(anomalyId)"
        let log = sim.log
        let causes = whatIf?.explanation(of: anomalyId)?.causedBy ?? []
        let causal = Set(CausalChain.entries(log, anomaly: anomalyId, ids: ids, causes: causes))
        var named = Set<Int>()
        for (i, e) in log.enumerated() {
            let words = CausalChain.words(
                PanelContent.text(e.fact, in: sim.policy.storekit, prices: sim.config.catalog.settings))
            if !words.isDisjoint(with: ids) || words.contains(own) { named.insert(i) }
        }
        guard let firstNamed = named.min(), let last = named.max() else {
            return [[Span("  (older than the log kept in memory)", Style(.dim))]]
        }
        let first = log.firstIndex(where: causal.contains).map { min($0, firstNamed) } ?? firstNamed
        var out: [Line] = []
        var carried = Set<Int>()
        var sending = false
        var openings: [Int: LogEntry] = [:]
        for i in first...last {
            let e = log[i]
            if CausalChain.repeatsOpening(e, openings: &openings) { continue }
            let include: Bool
            switch e.fact {
            case .messageSent(let id, _, .request, _, _) where sending:
                carried.insert(id)
                sending = false
                include = true
            case .messageDropped(let id, _, _), .requestTimedOut(let id, _):
                include = carried.contains(id) || causal.contains(e)
            default:
                include = named.contains(i) || causal.contains(e) || (i >= firstNamed && Inspector.explains(e.fact))
            }
            if named.contains(i), case .rechargeSent = e.fact { sending = true }
            guard include else { continue }
            out.append([
                Span("  " + DurationText.clock(e.time) + " ", Style(.dim)),
                Span(TextWidth.pad(e.part.rawValue, to: 16) + " ", UIStyle.part(e.part)),
                Span(
                    PanelContent.text(e.fact, in: sim.policy.storekit, prices: sim.config.catalog.settings),
                    named.contains(i) ? .plain : Style(.warn)),
            ])
        }
        return out
    }

    /// Facts that explain what happens to a purchase without naming it.
    static func explains(_ fact: Fact) -> Bool {
        switch fact {
        case .faultFired, .appCrashed, .appLaunched, .appUninstalled, .userLoggedIn, .userLoggedOut,
            .networkWentOff, .networkCameBack:
            return true
        case .commandIssued(let c): return c.isFault
        default: return false
        }
    }

    // MARK: transaction

    func transaction(_ t: StoreTransaction) -> [Line] {
        var out: [Line] = [
            [
                Span(t.id + " ", Style(bold: true)), Span(t.productId + " "),
                Span(t.state.rawValue, UIStyle.state(t.state)),
                Span(t.finished ? "  finished" : "  unfinished (still in the payment queue)", Style(.dim)),
            ],
            field("applicationUsername", t.applicationUsername ?? "nil"),
            field(
                "app_account_token",
                t.appAccountToken
                    ?? "none (only a UUID applicationUsername comes back in the receipt)"),
            field("order", orderOf(t.id).map(orderWords) ?? "(none)"),
            heading("state history"),
        ]
        for e in sim.log {
            switch e.fact {
            case .transactionUpdated(t.id, _, _), .paymentCharged(t.id, _, _), .transactionFinished(t.id),
                .finishSkipped(t.id, _), .finishFailedError(t.id, _), .deferredExpired(t.id):
                out.append([
                    Span("  " + DurationText.clock(e.time) + " ", Style(.dim)),
                    Span(PanelContent.priced(PanelContent.text(e.fact), e.fact, sim.config.catalog.settings)),
                ])
            default: break
            }
        }
        out.append(heading("money"))
        out += money(t.id)
        out += receipt(highlighting: t.id)
        return out
    }

    /// The receipt's `in_app` list as the server would see it if the app read it now.
    func receipt(highlighting id: String) -> [Line] {
        let entries = sim.store.receiptNow
        var out: [Line] = [
            heading(
                "the receipt the server would see now: \(entries.count) in_app entr\(entries.count == 1 ? "y" : "ies")")
        ]
        for r in entries {
            let mine = r.transactionId == id
            out.append([
                Span("  " + r.transactionId + " ", Style(bold: mine)),
                Span(TextWidth.pad(r.productId, to: 10)),
                Span("purchased " + DurationText.clock(r.purchaseDateMs), Style(.dim)),
                Span(
                    r.appAccountToken.map { "  token " + String($0.prefix(8)) + String(glyphs.more) } ?? "  no token",
                    Style(.dim)),
                Span(mine ? "  \(glyphs.left) this one" : "", Style(.accent, bold: true)),
            ])
        }
        if !entries.contains(where: { $0.transactionId == id }) {
            out.append([
                Span(
                    "  \(id) is not in it: a finished consumable leaves the receipt, a failed or pending one never enters it",
                    Style(.warn))
            ])
        }
        return out
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
