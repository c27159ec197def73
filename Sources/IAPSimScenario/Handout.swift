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
        package var log: [LogEntry]
        package var records: [RunRecord]
        package var whatIf: WhatIfReport?

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
        }
    }

    /// `A1-lost-order.md`
    package static func fileName(_ a: Anomaly) -> String { "A\(a.id)-\(a.type.rawValue).md" }

    package static func markdown(_ a: Anomaly, from source: Source) -> String {
        let world = source.sim.policy.storekit
        let x = source.whatIf?.explanation(of: a.id)
        var out = [
            "# A\(a.id) \(a.type.rawValue): \(a.status.rawValue)", "",
            "From `\(source.file)` (\(source.title)), policy \(source.sim.policy.displayName), seed \(source.sim.config.seed).",
            "", "**What it means.** \(a.type.meaning(in: world))", "",
            "**What happened.** \(a.summary)", "",
        ]
        if let mechanism = a.mechanism { out += ["**How it ended.** \(mechanism)", ""] }
        out += section("Caused by", x.map { causes($0) } ?? ["- not worked out"])
        out += section("Chain of facts", chain(a, source: source, causes: x?.causedBy ?? []))
        out += section("Money", money(a, in: source.sim))
        if a.status.isUnresolved {
            out += section("Prevented by", x.map(prevented) ?? ["- not worked out"])
        } else {
            out += section("Saved by", x.map(saved) ?? ["- not worked out"])
        }
        if !source.records.isEmpty {
            out += section(
                "Sequence diagram",
                ["```mermaid"] + MermaidExport.diagram(source.records).split(separator: "\n").map(String.init) + ["```"]
            )
        }
        return out.map(VisibleText.escaped).joined(separator: "\n") + "\n"
    }

    static func section(_ title: String, _ body: [String]) -> [String] { ["## \(title)", ""] + body + [""] }

    static func causes(_ x: AnomalyExplanation) -> [String] {
        x.causedBy.isEmpty
            ? ["No injected input: it happens without any fault, account switch, attack or refund."]
            : ["Without these inputs it does not happen:", ""] + x.causedBy.map { "- \($0.words)" }
    }

    static func prevented(_ x: AnomalyExplanation) -> [String] {
        x.preventedBy.isEmpty
            ? ["Nothing within one or two policy changes prevents it."]
            : ["Any one of these, set from the start, prevents it (and nothing new goes wrong):", ""]
                + x.preventedBy.map { "- " + $0.map { "`\($0.words)`" }.joined(separator: " + ") }
    }

    static func saved(_ x: AnomalyExplanation) -> [String] {
        x.savedBy.isEmpty
            ? ["No single setting of this policy: it ends well with the other preset's value of each key too."]
            : ["Each of these settings, set to the other preset's value, makes it end badly:", ""]
                + x.savedBy.map { "- `\($0.words)`" }
    }

    static func chain(_ a: Anomaly, source: Source, causes: [ReplayStep]) -> [String] {
        let ids = Set([a.txn, a.order].compactMap { $0 } + a.involved)
        let entries = CausalChain.entries(source.log, anomaly: a.id, ids: ids, causes: causes)
        guard !entries.isEmpty else { return ["(no fact of it is left in the log)"] }
        return ["| time | part | fact |", "|---|---|---|"]
            + entries.map {
                "| \(DurationText.clock($0.time)) | \($0.part.rawValue) | "
                    + $0.fact.text.replacingPipes + " |"
            }
    }

    static func money(_ a: Anomaly, in sim: Simulation) -> [String] {
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
}

extension String {
    /// A table cell's text: a `|` would end the cell.
    fileprivate var replacingPipes: String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
