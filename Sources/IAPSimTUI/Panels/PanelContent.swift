import IAPSimCore

/// The lines of each panel, from a read-only look at the world. Widths adapt: narrow panels
/// shorten transaction ids to their last digits and drop columns.
struct PanelContent {
    let sim: Simulation
    let glyphs: Glyphs
    let ascii: Bool
    /// Columns inside the panel.
    let width: Int
    /// Lines past this are not built: only what can show is (scroll offset + height).
    var limit = Int.max
    /// The line standing for the Auditor's lines in Events while a lesson holds them back.
    var heldBackWords = UIModel.heldBackWords(asked: false)

    var narrow: Bool { width < 40 }

    /// The run's StoreKit world's words.
    var words: WorldWords { WorldWords(sim.policy.storekit) }

    /// Money as the catalog's storefront writes it (`$0.99`, `£0.28`, `0,99 €`).
    func price(_ cents: Int) -> String { sim.config.catalog.settings.displayPrice(cents) }

    /// How many finished transactions, orders or anomalies a panel lists, newest first.
    static let historyLimit = 200

    func txn(_ id: String) -> String {
        // "(none)" is no id: a failed StoreKit 1 transaction has no transactionIdentifier.
        id.hasPrefix("(") ? id : narrow && id.count > 5 ? Self.short(id, ascii: ascii) : id
    }

    /// A long id by its last four digits; an id that does not start as the App Store's do
    /// (`1000…`: a forged `9000000000001`, an appTransactionId) keeps its first digit, so
    /// that it never reads the same as a real one: `…0001` and `9…0001`.
    static func short(_ id: String, ascii: Bool) -> String {
        let more = ascii ? "~" : "…"
        return (id.first == "1" ? "" : String(id.prefix(1))) + more + id.suffix(4)
    }

    func label(_ text: String, _ value: String, _ style: Style = .plain, labelWidth: Int = 9) -> Line {
        [Span(TextWidth.pad(text, to: labelWidth), Style(.dim)), Span(value, style)]
    }

    // MARK: App

    var app: [Line] {
        let a = sim.app
        let screen = a.inBackground ? "background" : a.storeOpen ? "store" : "home"
        let where_ = !a.isRunning ? "" : width < 28 ? glyphs.sep + screen : " \(glyphs.sep) \(screen)"
        var out: [Line] = [
            [
                Span(TextWidth.pad("process", to: 9), Style(.dim)),
                Span(a.process.rawValue, UIStyle.process(a.process)),
                Span(where_),
            ],
            label(
                "user", a.loggedIn ?? (a.isRunning ? "nobody logged in" : "-"),
                a.loggedIn == nil ? Style(.dim) : Style(bold: true)),
            sim.policy.storekit == .two
                ? (a.observerRegistered
                    ? label("updates", "listening \(glyphs.check)", Style(.good))
                    : label("updates", "no listener " + glyphs.cross, Style(.bad, bold: a.isRunning)))
                : a.observerRegistered
                    ? label("observer", "registered \(glyphs.check)", Style(.good))
                    : label(
                        "observer", (width < 26 ? "not added " : "not registered ") + glyphs.cross,
                        Style(.bad, bold: a.isRunning)),
            label(
                "network", sim.network.deviceOnline ? "online" : "OFFLINE",
                sim.network.deviceOnline ? Style(.good) : Style(.bad, bold: true)),
        ]
        let memory = a.isRunning ? a.memory : []
        if memory.isEmpty && a.files.isEmpty && a.keychain.isEmpty {
            out.append(label("pending", "none", Style(.dim)))
        }
        for (tier, records) in [("memory", memory), ("files", a.files), ("keychain", a.keychain)] {
            for r in records {
                // The auditor's verdict beside the record, so that the two never contradict
                // each other: a record no mechanism will ever send is not a hope.
                let stuck = sim.auditor.anomalies.contains { $0.txn == r.txn && $0.status == .permanent }
                let waiting = a.waitingForLogin.contains(r.txn) ? " waits for login" : ""
                let what =
                    stuck
                    ? "\(txn(r.txn)) STUCK \(r.productId) (nothing will send it)"
                    : "\(txn(r.txn)) \(r.productId)\(waiting)"
                out.append([
                    Span(TextWidth.pad(tier, to: 9), Style(.warn, bold: true)),
                    Span(what),
                ])
            }
        }
        let flying = a.rechargesInFlight
        if !flying.isEmpty {
            out.append(label("in flight", " recharge " + flying.map(txn).joined(separator: " "), Style(.info)))
        }
        return out
    }

    // MARK: Payment queue

    var queueBadge: String {
        words.queueBadge(unfinished: sim.store.queue.filter(words.listedAsUnfinished).count, narrow: narrow)
    }

    var queue: [Line] {
        let all = sim.store.transactions
        if all.isEmpty { return [[Span(words.noTransactions, Style(.dim))]] }
        let idWidth = narrow ? 5 : 13
        let stateWidth = words.stateWidth(narrow: narrow)
        let showName = width >= idWidth + 1 + 9 + 1 + stateWidth + 2 + 6
        var header =
            TextWidth.pad("txn", to: idWidth) + " " + TextWidth.pad("product", to: 9) + " "
            + TextWidth.pad("state", to: stateWidth) + " "
        if showName {
            let room = width - TextWidth.of(header)
            header += room >= TextWidth.of(words.nameColumn.long) ? words.nameColumn.long : words.nameColumn.short
        }
        var out: [Line] = [[Span(header, Style(.dim))]]
        let unfinished = all.filter { !$0.finished }
        // Panels scroll through at most `historyLimit` old rows, so a long session renders fast.
        let finished = all.filter(\.finished).suffix(PanelContent.historyLimit).reversed()
        let returned = WorldWords.returnedSuccess(sim)
        for t in unfinished where out.count < limit {
            out.append(row(t, idWidth: idWidth, showName: showName, returned: returned))
        }
        if !finished.isEmpty {
            out.append([Span(words.finishedHeading, Style(.dim))])
            for t in finished where out.count < limit {
                out.append(row(t, idWidth: idWidth, showName: showName, returned: returned))
            }
        }
        return out
    }

    func row(_ t: StoreTransaction, idWidth: Int, showName: Bool, returned: Set<String>) -> Line {
        let dim = t.finished
        let base = dim ? Style(.dim) : Style.plain
        // A failed StoreKit 2 purchase leaves no transaction to finish: no mark, its state says it.
        let marker =
            !t.finished && !words.listedAsUnfinished(t) || words.storeKit2 && t.state == .failed
            ? Span("  ")
            : t.finished ? Span(glyphs.check + " ", Style(.dim)) : Span(glyphs.dot + " ", Style(.warn, bold: true))
        // StoreKit 1 gives a failed transaction no transactionIdentifier: the row says so,
        // as Events and the inspector do.
        let id = !words.storeKit2 && t.state == .failed ? (narrow ? "none" : "(none)") : txn(t.id)
        var line: Line = [
            Span(TextWidth.pad(id, to: idWidth) + " ", base),
            Span(TextWidth.pad(t.productId, to: 9) + " ", base),
            // A refunded transaction says so in its state column (Apple's revocationDate).
            t.refundedAt != nil
                ? Span(TextWidth.pad("REFUNDED", to: words.stateWidth(narrow: narrow)), Style(.bad, bold: true))
                : Span(
                    TextWidth.pad(
                        words.state(t, narrow: narrow, returned: returned), to: words.stateWidth(narrow: narrow)),
                    dim ? Style(.dim) : UIStyle.state(t.state)),
            marker,
        ]
        if showName {
            let name =
                t.applicationUsername.map { isUUID($0) ? String($0.prefix(8)) + (ascii ? "~" : "…") : $0 }
                ?? (words.storeKit2 ? "none" : "nil")
            line.append(Span(name, Style(.dim)))
        }
        return line
    }

    // MARK: Merchant server

    var server: [Line] {
        let s = sim.server
        let catalog = sim.config.catalog
        var out: [Line] = []
        for b in s.balances {
            var line: Line = [
                Span(TextWidth.pad(b.user, to: 9), Style(bold: true)),
                b.coins < 0
                    ? Span("\(catalog.balance(b.coins)) (debt)", Style(.bad, bold: true))
                    : Span(catalog.balance(b.coins), b.coins > 0 ? Style(.good, bold: true) : Style(.dim)),
            ]
            let owned = s.entitlements.filter { $0.user == b.user }.map { $0.product }
            if !owned.isEmpty { line.append(Span(" +" + owned.joined(separator: ","), Style(.info))) }
            out.append(line)
            out += accessLines(of: b.user)
        }
        // The newest few, from the tail of the ledger (the full list grows with the session),
        // and the orders credited with something else than coins (a subscription's access).
        var credited: [String] = []
        for c in s.credits.suffix(48).reversed() where !credited.contains(c.transactionId) {
            credited.append(c.transactionId)
        }
        for o in s.orders.suffix(48).reversed() where o.state == .credited {
            if let t = o.transactionId, !credited.contains(t) { credited.append(t) }
        }
        // Each subscription period the server granted access through (a renewal too), and
        // everything newest first: transaction ids grow with time.
        credited += s.subscriptionCredits.suffix(48).filter { !credited.contains($0) }
        credited.sort { ($0.count, $0) > ($1.count, $1) }
        // Apple refunded some of them that no order row names (a subscription's renewal; an
        // order's row says `refunded` itself): which, whatever the server did about it;
        // above the credited line, so that a short panel keeps it.
        let ordered = Set(s.orders.compactMap(\.transactionId))
        let refunded = credited.filter { t in
            guard !ordered.contains(t) else { return false }
            return sim.store.transaction(t)?.refundedAt != nil
                || sim.subscribers.contains { view in
                    view.subscription.periods.contains { $0.transactionId == t && $0.refunded }
                }
        }
        if !refunded.isEmpty {
            out.append(label("refunded", refunded.prefix(12).map(txn).joined(separator: " "), Style(.bad, bold: true)))
        }
        out.append(
            label(
                "credited", credited.isEmpty ? "none yet" : credited.prefix(12).map(txn).joined(separator: " "),
                credited.isEmpty ? Style(.dim) : Style(.good)))
        out.append(
            label(
                "orders",
                s.orders.isEmpty ? "none yet" : width < 30 ? "\(s.orders.count)" : "\(s.orders.count), newest first",
                Style(.dim)))
        let userWidth = min(8, s.orders.map { TextWidth.of($0.user) }.max() ?? 0)
        let shortIds = width < 4 + userWidth + 9 + 8 + 13 + 5
        let tiny = width < 4 + userWidth + 10 + 9 + 5
        for o in s.orders.suffix(PanelContent.historyLimit).reversed() where out.count < limit {
            var line: Line = [
                Span(TextWidth.pad(o.id, to: tiny ? 3 : 4) + " ", Style(bold: true)),
                Span(TextWidth.pad(o.user, to: userWidth) + " "),
            ]
            // A tiny panel keeps the owner and the state, and drops the product.
            if !tiny { line.append(Span(TextWidth.pad(o.productId, to: 9) + " ")) }
            // Apple refunded the credited transaction behind it (the queue says REFUNDED),
            // whether or not the server took anything back (the balance and the Auditor say):
            // the state column says so (the end of a narrow row is what gets cut).
            let refunded = o.transactionId.flatMap { sim.store.transaction($0)?.refundedAt } != nil
            line.append(
                refunded && o.state == .credited
                    ? Span(TextWidth.pad("refunded", to: 8), Style(.bad, bold: true))
                    : Span(TextWidth.pad(o.state.rawValue, to: 8), o.state == .credited ? Style(.good) : Style(.warn)))
            // Credited to someone else than the order's owner: who got the coins, before the
            // transaction id (the end of a narrow row is what gets cut).
            if let t = o.transactionId,
                let to = s.credits.last(where: { $0.transactionId == t && $0.orderId == o.id })?.user, to != o.user
            {
                line.append(Span(" \(glyphs.right)\(to)", Style(.bad, bold: true)))
            }
            if let t = o.transactionId, !tiny {
                line.append(Span(" " + (shortIds ? Self.short(t, ascii: ascii) : t), Style(.dim)))
            }
            if o.createdBy == .attacker { line.append(Span(" (attacker)", Style(.accent, bold: true))) }
            out.append(line)
        }
        return out
    }
}

extension PanelContent {
    /// The access the merchant server grants each subscription of `user` (as `T` shows it):
    /// `  pro_monthly access to Mar 5`, or `  pro_monthly no access since Feb 1`.
    func accessLines(of user: String) -> [Line] {
        sim.subscribers.filter { $0.user == user }.map { view in
            let date = view.accessUntil.map { " " + SubscriptionCalendar.short($0) } ?? ""
            let words = view.access ? "access to" + date : "no access" + (date.isEmpty ? "" : " since" + date)
            // The product goes first where it fits; a narrow panel keeps the access.
            let product = view.subscription.productId
            let head = TextWidth.of(product) + TextWidth.of(words) + 3 <= width ? "  \(product) " : "  "
            return [Span(head, Style(.dim)), Span(words, view.access ? Style(.good) : Style(.warn))]
        }
    }
}

/// The styles that carry meaning: each also has a word on screen, so nothing rests on colour.
enum UIStyle {
    static func process(_ p: ProcessState) -> Style {
        switch p {
        case .running: return Style(.good, bold: true)
        case .crashed: return Style(.bad, bold: true, reverse: true)
        case .notRunning: return Style(.warn, bold: true)
        case .uninstalled: return Style(.bad, bold: true)
        }
    }

    static func state(_ s: TransactionState) -> Style {
        switch s {
        case .purchasing: return Style(.info)
        case .purchased: return Style(.good, bold: true)
        case .failed: return Style(.bad, bold: true)
        case .deferred: return Style(.warn)
        case .restored: return Style(.info)
        }
    }

    static func status(_ s: AnomalyStatus) -> Style {
        switch s {
        case .open: return Style(.warn, bold: true)
        case .resolved: return Style(.good)
        case .blocked: return Style(.info)
        case .permanent: return Style(.bad, bold: true, reverse: true)
        }
    }

    static func part(_ p: Part) -> Style {
        switch p {
        case .user: return Style(bold: true)
        case .app: return Style(.info)
        case .storeKit: return Style(.accent)
        case .network: return Style(.dim)
        case .server: return Style(.key)
        case .appStore: return Style(.good)
        case .attacker: return Style(.bad, bold: true)
        case .fault: return Style(.warn, bold: true)
        case .auditor: return Style(.accent, bold: true)
        }
    }
}
