import IAPSimCore

/// One anomaly's story for a class, as a Markdown page: what it is, what caused it, the
/// chain of facts (with the facts of its causes), the money, what would have prevented it,
/// what saved it, and the run's sequence diagram as a Mermaid block. Pure: the caller
/// writes the text where it wants.
package enum Handout {
    /// What a handout is written from: the run's world, its log, its records (for the
    /// diagram; empty leaves the diagram out) and the replays' answers.
    package struct Source {
        package var title: String
        package var file: String
        package var sim: Simulation
        package let log: [LogEntry]
        package var records: [RunRecord]
        package var whatIf: WhatIfReport?
        /// The words of each entry of `log` (`CausalChain.words`), split once for every page.
        var words: [Set<String>]

        package init(
            title: String, file: String, sim: Simulation, log: [LogEntry], records: [RunRecord],
            whatIf: WhatIfReport?
        ) {
            self.title = title
            self.file = file
            self.sim = sim
            self.log = log
            self.records = records
            self.whatIf = whatIf
            words = log.map { CausalChain.words($0.fact.text) }
        }
    }

    /// `A1-lost-order.md`
    package static func fileName(_ a: Anomaly) -> String { "A\(a.id)-\(a.type.rawValue).md" }

    package static func markdown(_ a: Anomaly, from source: Source) -> String {
        let world = source.sim.policy.storekit
        let x = source.whatIf?.explanation(of: a.id)
        var out = [
            "# A\(a.id) \(a.type.rawValue): \(a.status.rawValue)", "",
            "From \(markdownText(source.file)) (\(markdownText(source.title))), policy \(source.sim.policy.displayName), "
                + "seed \(source.sim.config.seed).",
            "", "**What it means.** \(a.type.meaning(in: world))", "",
            "**What happened.** \(AnomalyType.text(a.summary, in: world))", "",
        ]
        if let mechanism = a.mechanism { out += ["**How it ended.** \(AnomalyType.text(mechanism, in: world))", ""] }
        out += section("Caused by", x.map { causes($0) } ?? ["- not worked out"])
        let facts = chainEntries(a, source: source, causes: x?.causedBy ?? [])
        out += section("Chain of facts", chain(facts, in: world))
        out += section("Money", money(a, in: source.sim))
        if let x {
            out += section(x.account.fix == .resolved ? "Resolved by" : "Prevented by", account(x))
        } else {
            out += section(a.status.isUnresolved ? "Prevented by" : "Resolved by", ["- not worked out"])
        }
        if !source.records.isEmpty {
            out += section("Sequence diagram", diagram(steppedChain(facts, in: source.records), in: world))
        }
        return out.map(VisibleText.escaped).joined(separator: "\n") + "\n"
    }

    static func section(_ title: String, _ body: [String]) -> [String] { ["## \(title)", ""] + body + [""] }

    static func causes(_ x: AnomalyExplanation) -> [String] {
        x.causedBy.isEmpty
            ? ["No injected input: it happens without any fault, account switch, attack or refund."]
            : ["Without these inputs it does not happen:", ""] + x.causedBy.map { "- \($0.words)" }
    }

    /// The account's line (`AnomalyAccount`), then each alternative on its own line.
    static func account(_ x: AnomalyExplanation) -> [String] {
        let account = x.account
        let head = "`\(account.line)` (` | `: any one; ` + `: all together)"
        guard !account.keys.isEmpty else { return [head] }
        let meaning =
            account.fix == .resolved
            ? "Settings in effect that put it right: set to the other preset's value, it ends badly:"
            : "Hardening changes, set from the start, after which it does not happen or ends well "
                + "(and nothing new goes wrong):"
        return [head, "", meaning, ""] + account.keys.map { "- " + $0.map { "`\($0.words)`" }.joined(separator: " + ") }
    }

    static func chainEntries(_ a: Anomaly, source: Source, causes: [ReplayStep]) -> [LogEntry] {
        let ids = Set([a.txn, a.order].compactMap { $0 } + a.involved)
        return CausalChain.entries(source.log, anomaly: a.id, ids: ids, causes: causes, words: source.words)
    }

    /// The most facts a page's table and diagram show: a page is about one anomaly, and a run
    /// that repeats one input a thousand times must not make a thousand pages of the whole run.
    package static let maxFacts = 200

    /// The facts as a table, in the words of `world` (StoreKit 2's: `purchase() under way`,
    /// `jwsRepresentation`, as the screen says them).
    static func chain(_ entries: [LogEntry], in world: StoreKitWorld) -> [String] {
        guard !entries.isEmpty else { return ["(no fact of it is left in the log)"] }
        return ["| time | part | fact |", "|---|---|---|"]
            + entries.prefix(maxFacts).map {
                let text =
                    world == .two ? $0.fact.storeKit2Words ?? AnomalyType.text($0.fact.text, in: world) : $0.fact.text
                return "| \(DurationText.clock($0.time)) | \($0.part.rawValue) | " + markdownText(text) + " |"
            } + cut(entries.count)
    }

    /// The chain's facts in the run's records, each after the step (and its `say`) during
    /// which it happened: the diagram reads as the lesson does. A step with no fact of the
    /// chain is left out.
    static func steppedChain(_ chain: [LogEntry], in records: [RunRecord]) -> [RunRecord] {
        var out: [RunRecord] = []
        var next = 0
        var step: RunRecord?
        for record in records {
            switch record {
            case .stepStarted:
                step = record
            case .stepTimedOut:
                out.append(record)
            case .entry(let e) where next < chain.count && e == chain[next]:
                if let s = step { out.append(s) }
                step = nil
                out.append(record)
                next += 1
            case .entry, .story, .settled:
                continue
            }
        }
        // Records that do not hold the chain's facts (a world's log alone): the chain itself.
        return next == chain.count ? out : chain.map(RunRecord.entry)
    }

    /// The diagram of the anomaly's own chain of facts (not the whole run's: `run --diagram`
    /// draws that), at most `maxFacts` records of it.
    static func diagram(_ records: [RunRecord], in world: StoreKitWorld) -> [String] {
        ["```mermaid"]
            + MermaidExport.diagram(Array(records.prefix(maxFacts)), in: world).split(separator: "\n").map(String.init)
            + ["```"] + cut(records.count)
    }

    static func cut(_ count: Int) -> [String] {
        count > maxFacts ? ["", "(the first \(maxFacts) of \(count) facts; `iapsim run --log` has them all)"] : []
    }

    /// Text from a file (a title, a name, a fact's words) as Markdown that shows it as it is:
    /// HTML is escaped (`&lt;`), and every character Markdown reads as markup (links,
    /// emphasis, code, a table's `|`) is backslash-escaped, so that no link (`javascript:`
    /// included) or tag can come from a scenario.
    package static func markdownText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"", "\\", "`", "*", "_", "[", "]", "(", ")", "{", "}", "#", "+", "!", "|", "~", ":":
                out += "\\" + String(character)
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    static func money(_ a: Anomaly, in sim: Simulation) -> [String] {
        if let user = a.user, let subscription = sim.subscribers.first(where: { $0.user == user })?.subscription,
            a.type.family == .subscription
        {
            return subscriptionMoney(subscription, of: user, in: sim)
        }
        guard let txn = a.txn, let charge = sim.auditor.charges.first(where: { $0.txn == txn }) else {
            return ["- paid: no charge behind it"]
        }
        var out = [
            "- paid: \(formatMoney(charge.priceCents)) by \(charge.buyer) at \(DurationText.clock(charge.chargedAt))"
        ]
        if charge.credits.isEmpty { out.append("- credited: nothing") }
        for c in charge.credits {
            out.append(
                "- credited: to \(c.user) at \(DurationText.clock(c.at)) (\(c.via.words))"
                    + (c.sender == .attacker ? " [attacker]" : ""))
        }
        if let refunded = charge.refundedAt {
            out.append(
                "- refunded at \(DurationText.clock(refunded))"
                    + (charge.clawedBack ? ", clawed back" : ", not clawed back"))
        }
        return out
    }

    /// A subscriber's money as the verdict counts it: each paid period, what Apple refunded
    /// of it, and what the timeline cost either side (`money:` in the verdict).
    package static func subscriptionMoney(_ s: Subscription, of user: String, in sim: Simulation) -> [String] {
        var out = s.periods.map { p in
            "- paid: \(formatMoney(p.priceCents)) for \(p.productId) (\(p.transactionId)), "
                + "\(SubscriptionCalendar.iso(p.start)) to \(SubscriptionCalendar.iso(p.end))"
                + (p.refundCents > 0 ? "; refunded \(formatMoney(p.refundCents))" : "")
        }
        if out.isEmpty { out.append("- paid: nothing yet") }
        if let money = sim.auditor.timelineMoney(of: user) {
            out.append("- paid and not delivered: \(formatMoney(money.paidNotDelivered))")
            out.append("- granted without payment: \(formatMoney(money.grantedNotPaid))")
        }
        return out
    }
}
