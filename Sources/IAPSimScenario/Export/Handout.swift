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
        /// What each message of `log` carries, read once for every page's diagram.
        var threads: MessageThreads

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
            threads = records.isEmpty ? MessageThreads() : MessageThreads(log)
        }
    }

    /// The `file` of a handout written from the sandbox, whose inputs are keys pressed, not
    /// steps of a file: each is named as the input it was, `your input 5 (refund …)`, as the
    /// inspector names it.
    package static let sandbox = "the sandbox"

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
        out += section("Caused by", x.map { causes($0, sandbox: source.file == sandbox) } ?? ["- not worked out"])
        let facts = chainEntries(a, source: source, causes: x?.causedBy ?? [])
        out += section("Chain of facts", chain(facts, in: world))
        out += section("Money", money(a, in: source.sim))
        if let x {
            out += section(x.account.fix == .resolved ? "Resolved by" : "Prevented by", account(x))
        } else {
            out += section(a.status.isUnresolved ? "Prevented by" : "Resolved by", ["- not worked out"])
        }
        if !source.records.isEmpty {
            let drawn = withMessages(facts, of: a, source: source)
            out += section(
                "Sequence diagram", diagram(steppedChain(drawn, in: source.records), in: world, threads: source.threads)
            )
        }
        return out.map(VisibleText.escaped).joined(separator: "\n") + "\n"
    }

    static func section(_ title: String, _ body: [String]) -> [String] { ["## \(title)", ""] + body + [""] }

    static func causes(_ x: AnomalyExplanation, sandbox: Bool = false) -> [String] {
        x.causedBy.isEmpty
            ? ["No injected input: it happens without any fault, account switch, attack or refund."]
            : ["Without these inputs it does not happen:", ""]
                + x.causedBy.map {
                    sandbox ? "- your input \($0.number) (\($0.command.scenarioText))" : "- \($0.words)"
                }
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
        let setBacks =
            x.setBacks.isEmpty
            ? []
            : ["", "Not a fix here: each kept it from ending badly, but another anomaly ends badly after it:", ""]
                + x.setBacks.map { "- `\($0.words)`" }
        return [head, "", meaning, ""] + account.keys.map { "- " + $0.map { "`\($0.words)`" }.joined(separator: " + ") }
            + setBacks
    }

    static func chainEntries(_ a: Anomaly, source: Source, causes: [ReplayStep]) -> [LogEntry] {
        CausalChain.openedOnce(
            CausalChain.entries(
                source.log, anomaly: a.id, ids: CausalChain.ids(ids(of: a), resolvedThrough: source.log, anomaly: a.id),
                causes: causes, words: source.words))
    }

    /// The transactions and orders an anomaly names.
    static func ids(of a: Anomaly) -> Set<String> { Set([a.txn, a.order].compactMap { $0 } + a.involved) }

    /// StoreKit 2's `purchase()` of one of `ids`: its words name no transaction (none exists
    /// before it returns), but the log knows which one it became.
    static func isPurchaseCall(_ fact: Fact, of ids: Set<String>) -> Bool {
        if case .purchaseStarted(let txn, _, _, _, _) = fact { ids.contains(txn) } else { false }
    }

    /// The chain with the messages that carried it (`MessageThreads`: a message whose thread
    /// names the anomaly, its transactions or its orders), each fact of them where the log
    /// has it: the requests and answers between app, server, attacker and App Store that
    /// the chain's facts (a credit, a refusal) were the ends of; and the app's `purchase()`.
    static func withMessages(_ chain: [LogEntry], of a: Anomaly, source: Source) -> [LogEntry] {
        let names = CausalChain.ids(ids(of: a), resolvedThrough: source.log, anomaly: a.id).union(["A\(a.id)"])
        var out: [LogEntry] = []
        var next = 0
        var sentLast = false
        for entry in source.log {
            if next < chain.count, entry == chain[next] {
                out.append(entry)
                next += 1
                sentLast = false
                continue
            }
            let carried = entry.fact.messageId.map { !source.threads.words(of: $0).isDisjoint(with: names) } ?? false
            // A request that never left the device ends with the fact after its send.
            let offline = sentLast && { if case .requestFailedOffline = entry.fact { true } else { false } }()
            if carried || offline || isPurchaseCall(entry.fact, of: names) { out.append(entry) }
            sentLast = carried && { if case .messageSent = entry.fact { true } else { false } }()
        }
        return next == chain.count ? out : chain
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
    /// which it happened: the diagram reads as the lesson does. Every step is drawn, in
    /// order, also one with no fact of the chain: a purchase is drawn under the step that
    /// made it, not under the next one that has a fact of it.
    static func steppedChain(_ chain: [LogEntry], in records: [RunRecord]) -> [RunRecord] {
        var out: [RunRecord] = []
        var next = 0
        for record in records {
            switch record {
            case .stepStarted, .stepTimedOut:
                out.append(record)
            case .entry(let e) where next < chain.count && e == chain[next]:
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
    static func diagram(_ records: [RunRecord], in world: StoreKitWorld, threads: MessageThreads) -> [String] {
        let lines = MermaidExport.diagram(Array(records.prefix(maxFacts)), in: world, threads: threads)
            .split(separator: "\n").map(String.init)
        return ["```mermaid"] + MermaidExport.declaringOnlyUsed(lines)
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
            "- paid: \(sim.config.catalog.settings.displayPrice(charge.priceCents)) by \(charge.buyer) at \(DurationText.clock(charge.chargedAt))"
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
        let price = sim.config.catalog.settings.displayPrice
        var out = s.periods.map { p in
            "- paid: \(price(p.priceCents)) for \(p.productId) (\(p.transactionId)), "
                + "\(SubscriptionCalendar.iso(p.start)) to \(SubscriptionCalendar.iso(p.end))"
                + (p.refundCents > 0 ? "; refunded \(price(p.refundCents))" : "")
        }
        if out.isEmpty { out.append("- paid: nothing yet") }
        if let money = sim.auditor.timelineMoney(of: user) {
            // The account's totals over the run, not this anomaly's share (walkthrough 5: an
            // access-after-revoke page showed the grace cut's 1.13 as if it were its own).
            out.append("- paid and not delivered (all of \(user)'s subscriptions): \(price(money.paidNotDelivered))")
            out.append("- granted without payment (all of \(user)'s subscriptions): \(price(money.grantedNotPaid))")
        }
        return out
    }
}
