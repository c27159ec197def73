import IAPSimCore

/// One line of the Events panel: a log entry or one of the UI's notes, by its index in
/// `Simulation.log` or in the notes (indices only: a long log is listed on every frame).
enum EventRow: Hashable {
    case entry(Int)
    case note(Int)
    /// Where a held-back part's first line would be (`Simulation.log` index): one line
    /// saying it is held back.
    case heldBack(Int)
}

extension PanelContent {
    // MARK: Events

    /// Whether Events shows `e`: the part filter, and no second line for a policy change
    /// (the command and the change it made say the same thing; the change is kept).
    static func shows(_ e: LogEntry, filter: Part?) -> Bool {
        if let filter, e.part != filter { return false }
        // Commands are the user's lines; looking at the part first spares copying each fact.
        guard e.part == .user else { return true }
        if case .commandIssued(.setPolicy) = e.fact { return false }
        if case .commandIssued(.setPreset) = e.fact { return false }
        return true
    }

    /// Every line Events has, oldest first: the log kept in memory with the UI's notes merged
    /// in where they were added (no notes under a part filter).
    /// `hiding`: a part left out (`N` hides Network); `search`: only lines containing it,
    /// ignoring case (notes included); `holding`: a part whose lines are held back (a
    /// lesson's question waits), one line saying so where its first would be.
    func eventRows(
        notes: [EventNote], filter: Part?, hiding: Part? = nil, search: String? = nil, holding: Part? = nil
    ) -> [EventRow] {
        let rows = eventRows(notes: notes, filter: filter, hiding: hiding, holding: holding)
        guard let search, !search.isEmpty else { return rows }
        let needle = search.lowercased()
        return rows.filter { row in
            switch row {
            case .entry(let i):
                return PanelContent.text(sim.log[i].fact, in: sim.policy.storekit, prices: sim.config.catalog.settings)
                    .lowercased().contains(needle)
                    || sim.log[i].part.rawValue.lowercased().contains(needle)
            case .note(let i): return notes[i].text.lowercased().contains(needle)
            case .heldBack: return false
            }
        }
    }

    func eventRows(notes: [EventNote], filter: Part?, hiding: Part?, holding: Part?) -> [EventRow] {
        let logStart = sim.logCount - sim.log.count
        var next = filter == nil ? (notes.firstIndex { $0.position >= logStart } ?? notes.count) : notes.count
        var rows: [EventRow] = []
        var held = false
        rows.reserveCapacity(sim.log.count + notes.count - next)
        for i in sim.log.indices {
            while next < notes.count, notes[next].position <= logStart + i {
                rows.append(.note(next))
                next += 1
            }
            let part = sim.log[i].part
            if let filter, part != filter { continue }
            if part == hiding { continue }
            if part == holding {
                if !held { rows.append(.heldBack(i)) }
                held = true
                continue
            }
            if part == .auditor, PanelContent.repeatsOpening(sim.log, i) { continue }
            if part == .user, !PanelContent.shows(sim.log[i], filter: filter) { continue }
            rows.append(.entry(i))
        }
        while next < notes.count {
            rows.append(.note(next))
            next += 1
        }
        return rows
    }

    /// An anomaly's status change that says again what its opening just said (opened as
    /// permanent, then "-> permanent" at the same moment): Events shows the opening only.
    static func repeatsOpening(_ log: [LogEntry], _ i: Int) -> Bool {
        guard case .anomalyStatusChanged(let id, _, let status, _) = log[i].fact else { return false }
        for j in max(0, i - 3)..<i where log[j].time == log[i].time {
            if case .anomalyOpened(id, _, _, status, _) = log[j].fact { return true }
        }
        return false
    }

    /// `count` lines of `rows` ending `offsetFromBottom` lines before the newest.
    func events(_ rows: [EventRow], notes: [EventNote], count: Int, offsetFromBottom: Int) -> [Line] {
        let end = max(0, rows.count - offsetFromBottom)
        return rows[max(0, end - count)..<end].map { row in
            switch row {
            case .entry(let i): return event(sim.log[i])
            case .note(let i): return note(notes[i])
            case .heldBack(let i): return heldBack(sim.log[i])
            }
        }
    }

    /// The line standing for a held-back part's lines: its first line's time and part.
    func heldBack(_ e: LogEntry) -> Line {
        [
            Span(clock(e.time) + " ", Style(.dim)),
            Span(TextWidth.pad(e.part.rawValue, to: narrow || width < 100 ? 9 : 16) + " ", UIStyle.part(e.part)),
            Span(heldBackWords, Style(.dim)),
        ]
    }

    /// A time of Events, right-aligned to the width of now's: the column stays straight when
    /// the clock passes 99 hours (`  0:01:00.000` above `744:00:02.160`).
    func clock(_ t: VirtualTime) -> String {
        let text = DurationText.clock(t)
        let width = DurationText.clock(max(t, sim.now)).count
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    func note(_ n: EventNote) -> Line {
        let partWidth = narrow || width < 100 ? 9 : 16
        switch n.kind {
        case .armed:
            return [
                Span(clock(n.time) + " ", Style(.dim)),
                Span(TextWidth.pad("Fault", to: partWidth) + " ", UIStyle.part(.fault)),
                Span(n.text, Style(.warn)),
            ]
        case .step:
            return [
                Span(clock(n.time) + " ", Style(.dim)),
                Span("-- " + n.text, Style(.title, bold: true)),
            ]
        }
    }

    func event(_ e: LogEntry) -> Line {
        let partWidth = narrow || width < 100 ? 9 : 16
        var part = e.part.rawValue
        if partWidth == 9 {
            part = e.part == .server ? "Server" : e.part == .appStore ? "AppStore" : part
        }
        let textStyle: Style
        switch e.fact {
        case .commandIssued, .commandIgnored: textStyle = Style(bold: true)
        case .faultArmed, .faultFired: textStyle = Style(.warn)
        case .anomalyOpened, .anomalyStatusChanged: textStyle = Style(.accent, bold: true)
        case .paymentCharged, .coinsCredited: textStyle = Style(.good)
        default: textStyle = .plain
        }
        return [
            Span(clock(e.time) + " ", Style(.dim)),
            Span(TextWidth.pad(part, to: partWidth) + " ", UIStyle.part(e.part)),
            Span(PanelContent.text(e.fact, in: sim.policy.storekit, prices: sim.config.catalog.settings), textStyle),
        ]
    }

    /// `text(_:)` in the words of `world`: the auditor's lines about a StoreKit 2 run name
    /// its signed transactions, not a receipt.
    /// With `prices`, the catalog's settings: a price as its storefront writes it (`£0.99`).
    static func text(_ fact: Fact, in world: StoreKitWorld, prices: CatalogSettings? = nil) -> String {
        switch fact {
        case .anomalyOpened, .anomalyStatusChanged: return AnomalyType.text(text(fact), in: world)
        // StoreKit 2 has no SKPaymentTransactionState: its own words for the same moments.
        case .transactionUpdated where world == .two: return fact.storeKit2Words ?? text(fact)
        default: return prices.map { priced(text(fact), fact, $0) } ?? text(fact)
        }
    }

    /// The core's words of a fact that names an amount (a charge, a refund, a subscription's
    /// charge or renewal), the amount in the currency of the catalog (`settings`).
    static func priced(_ text: String, _ fact: Fact, _ settings: CatalogSettings) -> String {
        let cents: Int
        let before: String
        switch fact {
        case .paymentCharged(_, _, let c): (cents, before) = (c, "charged ")
        case .refundIssued(_, _, let c, _): (cents, before) = (c, "refunded ")
        case .subscriptionChanged(let n): (cents, before) = (n.priceCents, "), ")
        default: return text
        }
        guard let range = text.range(of: before + formatMoney(cents)) else { return text }
        return text.replacingCharacters(in: range, with: before + settings.displayPrice(cents))
    }

    /// A fact in the UI's words: the core's text, except where that text misleads on a
    /// screen that cuts lines (key data first) or reads wrongly out of context.
    static func text(_ fact: Fact) -> String {
        switch fact {
        case .paymentAdded(let txn, let p, let name, let user, let order):
            // The transaction id first: the end of a long line is what a narrow panel cuts.
            let who = order.map { "\(user), order \($0)" } ?? user
            let shortName = name.map { $0.count > 8 ? String($0.prefix(8)) + "…" : $0 } ?? "nil"
            return "\(txn) added [\(who)]: SKPaymentQueue.add(SKPayment(\(p), applicationUsername: \(shortName)))"
        case .faultArmed(let what) where !what.hasPrefix("the next"):
            // A setting turned on or off ("Ask to Buy is off") is not a fault being armed.
            return what
        case .receiptVerified(let status, let n):
            return
                "verifyReceipt answered status \(status) (\(VerifyStatus.words(status))), \(n) in_app entr\(n == 1 ? "y" : "ies")"
        default:
            return fact.text
        }
    }
}
