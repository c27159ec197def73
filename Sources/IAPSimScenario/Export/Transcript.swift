import IAPSimCore

/// The human transcript of a run: a header, the narration inline with the event log, and
/// the verdict. Plain text lines without colour; the executable prints them. Texts from the
/// file (title, story, `say`, the file's name) have their control characters made visible.
package enum Transcript {
    /// `== TITLE` and one line of settings.
    package static func header(_ scenario: Scenario, file: String) -> [String] {
        let policy =
            scenario.policy == scenario.preset.policy
            ? scenario.preset.rawValue
            : "\(scenario.preset.rawValue) (changed: "
                + scenario.policy.differences(from: scenario.preset.policy)
                .map { "\($0.rawValue) \(scenario.policy.value(of: $0))" }
                .joined(separator: ", ") + ")"
        return
            ([
                "== \(scenario.title)",
                "   \(file): policy \(policy), seed \(scenario.seed), users "
                    + scenario.users.joined(separator: ", ")
                    + (scenario.app == .notRunning ? ", app not running" : ""),
            ] + (scenario.catalog.headerLine.map { ["   " + $0] } ?? [])).map(VisibleText.escaped)
    }

    /// The lines one record prints as.
    /// `world`: the auditor's lines speak its words (a StoreKit 2 run's anomalies name the
    /// JWS, not a receipt), as the UI's do.
    package static func lines(for record: RunRecord, in world: StoreKitWorld = .one) -> [String] {
        rawLines(for: record, in: world).map(VisibleText.escaped)
    }

    private static func rawLines(for record: RunRecord, in world: StoreKitWorld) -> [String] {
        switch record {
        case .story(let story):
            return [""] + narration(story) + [""]
        case .stepStarted(let number, let step, _):
            return ["-- step \(number) (line \(step.line)) \(step.trigger.prefix)\(step.command.scenarioText)"]
                + (step.say.map(narration) ?? [])
        case .entry(let entry):
            switch entry.fact {
            case .anomalyOpened, .anomalyStatusChanged: return [AnomalyType.text(entry.line, in: world)]
            default: return [entry.line]
            }
        case .stepTimedOut(let stop):
            return ["!! \(stop)"]
        case .settled(let time, let complete):
            return [
                complete
                    ? "-- settled at \(DurationText.clock(time))"
                    : "-- stopped settling at \(DurationText.clock(time)): work still scheduled "
                        + "after 24h of virtual time"
            ]
        }
    }

    /// Narration, indented and marked so it stands apart from the log.
    static func narration(_ text: String) -> [String] {
        var body = Substring(text)
        while body.hasSuffix("\n") { body = body.dropLast() }
        return body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "   |" : "   | \($0)" }
    }

    /// The auditor's verdict and each expectation, then one closing line.
    /// `whatIf`: the replays' answers, printed under each anomaly (caused by, prevented
    /// by, saved by), then what the policy avoided that the other one does not. `glossary`:
    /// the words' glossary under the anomalies (`run --glossary`; the TUI and `learn` have
    /// their own page for it), never at the end of every failing verdict.
    package static func verdict(
        _ result: ScenarioResult, scenario: Scenario, whatIf: WhatIfReport? = nil, glossary: Bool = false
    ) -> [String] {
        let sim = result.simulation
        let auditor = sim.auditor
        var lines = ["", "== verdict"]
        lines += anomalyLines(sim, whatIf: whatIf, otherName: otherName(scenario, whatIf), glossary: glossary)
        let balances = sim.users.map { user in
            let coins = sim.server.balance(of: user)
            return "\(user) \(coins)" + (coins < 0 ? " (debt)" : "")
        }
        lines.append("balances: " + balances.joined(separator: ", "))
        // A free trial's period is no payment.
        let periods = sim.store.subscriptions.flatMap(\.periods).filter { $0.priceCents > 0 }
        let paid = auditor.charges.reduce(0) { $0 + $1.priceCents } + periods.reduce(0) { $0 + $1.priceCents }
        lines.append("charged: \(auditor.charges.count + periods.count) payment(s), \(formatMoney(paid))")
        let refunds = auditor.charges.filter { $0.refundedAt != nil }
        // A subscription period counts what Apple gave back of it: a refund's share, or an
        // upgrade's prorated refund of the unused rest.
        let refundedPeriods = periods.filter { $0.refundCents > 0 }
        if !refunds.isEmpty || !refundedPeriods.isEmpty {
            let cents = refunds.reduce(0) { $0 + $1.refundCents } + refundedPeriods.reduce(0) { $0 + $1.refundCents }
            lines.append("refunded: \(refunds.count + refundedPeriods.count) payment(s), \(formatMoney(cents))")
        }
        lines.append(
            "money: paid and not delivered \(formatMoney(auditor.paidNotDeliveredCents)); "
                + "granted without payment \(formatMoney(auditor.grantedNotPaidCents))"
                + (auditor.wholeUnitCents > 0
                    ? " (\(formatMoney(auditor.wholeUnitCents)) of it the rest of a unit a prorated refund could not"
                        + " split: no anomaly)" : ""))
        lines.append("queue: \(sim.store.queue.count) unfinished transaction(s)")
        lines += subscriptionLines(sim)
        lines += expectationLines(result, scenario: scenario)
        return lines.map(VisibleText.escaped)
    }

    /// One line per subscription: Apple's status, renewals, what the server grants.
    static func subscriptionLines(_ sim: Simulation) -> [String] {
        sim.subscribers.map { v in
            let s = v.subscription
            let paid = s.periods.reduce(0) { $0 + $1.keptCents }
            let free = s.periods.filter { $0.priceCents == 0 }.count
            return "subscription: \(v.user) \(s.productId) \(s.status.word), \(s.periods.count - free) payment(s) "
                + (free > 0 ? "and \(free) free trial period(s) " : "")
                + "(\(s.renewals) renewal(s)), \(formatMoney(paid)) kept; server grants "
                + v.accessWords
        }
    }

    /// The anomalies, each with the replays' lines under it (and, with `glossary`, the glossary
    /// of their words), and what was avoided.
    package static func anomalyLines(
        _ sim: Simulation, whatIf: WhatIfReport?, otherName: String, glossary: Bool = false
    ) -> [String] {
        var lines: [String] = []
        if sim.auditor.anomalies.isEmpty {
            lines.append("anomalies: none")
            // Replays that stopped at their budget may have left the avoided ones unlisted.
            if let note = whatIf?.notWorkedOut, let whatIf, whatIf.replays > 0 { lines.append("  (\(note))") }
        } else {
            lines.append("anomalies:")
            for a in sim.auditor.anomalies {
                lines.append(
                    AnomalyType.text(
                        "  A\(a.id) \(a.type.rawValue) \(a.status.rawValue)"
                            + (a.mechanism.map { " (\($0))" } ?? "") + ": \(a.summary)", in: sim.policy.storekit))
                lines += (whatIf?.explanation(of: a.id)?.lines ?? []).map { "    " + $0 }
            }
            if let note = whatIf?.notWorkedOut { lines.append("  (\(note))") }
            let words = glossary ? AnomalyType.glossary(sim.auditor.anomalies.map { ($0.type, $0.status) }) : []
            if !words.isEmpty { lines += ["glossary:"] + words.map { "  " + $0 } }
        }
        if let avoided = whatIf?.avoided, !avoided.isEmpty {
            lines.append("avoided (happened under \(otherName), not here or put right here):")
            lines += avoided.map { "  avoided: " + $0.line }
        }
        return lines
    }

    /// The name of the policy the run was set beside: its preset's name when it is one.
    static func otherName(_ scenario: Scenario, _ whatIf: WhatIfReport?) -> String {
        guard let other = whatIf?.other else { return scenario.preset.other.rawValue }
        return PolicyPreset.allCases.first { $0.policy == other }?.rawValue ?? "the other policy"
    }

    static func expectationLines(_ result: ScenarioResult, scenario: Scenario) -> [String] {
        if let stop = result.timeout {
            return [
                "expectations: not checked, the run stopped",
                "FAIL: stopped at step \(stop.number) (line \(stop.step.line))",
            ]
        }
        var lines: [String] = []
        if result.expectations.isEmpty {
            lines.append("expectations: none")
        } else {
            lines.append("expectations:")
            for e in result.expectations {
                lines.append(
                    "  \(e.holds ? "holds" : "FAILS")  \(e.name): expected \(e.expected), "
                        + "actual \(e.actual)")
            }
        }
        let total = result.expectations.count
        let failing = result.expectations.filter { !$0.holds }.count
        lines.append(
            failing == 0
                ? "PASS: \(total) of \(total) expectations hold"
                : "FAIL: \(failing) of \(total) expectations fail")
        return lines
    }
}
