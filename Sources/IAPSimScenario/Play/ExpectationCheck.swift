import IAPSimCore

/// One expectation of a scenario, checked: what the file said, what the run did.
package struct ExpectationResult: Sendable, Hashable {
    /// What is checked: `charged`, `credited alice`, `anomalies lost-order resolved`, …
    package var name: String
    package var expected: String
    package var actual: String
    package var holds: Bool

    package init(name: String, expected: String, actual: String, holds: Bool) {
        self.name = name
        self.expected = expected
        self.actual = actual
        self.holds = holds
    }
}

/// How a scenario run ended.
package struct ScenarioResult: Sendable {
    /// The world as the run left it.
    package var simulation: Simulation
    /// Set when a `when` step timed out; expectations are then not checked.
    package var timeout: StepTimeout?
    /// False when settling hit its 24h bound with work still scheduled.
    package var settledCompletely: Bool
    /// In the order the file writes them (balances in `users` order).
    package var expectations: [ExpectationResult]

    /// True when the run reached its end and every expectation holds.
    package var passed: Bool { timeout == nil && expectations.allSatisfy(\.holds) }

    /// Why the run stopped before its end because the world could not go on (too many
    /// transactions unfinished at once), or nil: such a run has no verdict.
    package var stopped: String? {
        guard simulation.store.overLimit else { return nil }
        let limit = AppStore.unfinishedLimit
        return "more than \(limit) transactions unfinished at once at \(DurationText.clock(simulation.now)); "
            + "the simulator stops there: every receipt lists every unfinished transaction, "
            + "so past \(limit) each purchase costs as much as all those before it"
    }
}

/// Checks a scenario's `expect` block against a settled simulation.
package enum ExpectationCheck {
    package static func check(_ scenario: Scenario, against sim: Simulation)
        -> [ExpectationResult]
    {
        let expect = scenario.expect
        var results: [ExpectationResult] = []
        if let charged = expect.charged {
            results.append(exact("charged", charged, sim.auditor.charges.count + sim.subscriptionCharges))
        }
        for user in scenario.users {
            guard let coins = expect.credited[user] else { continue }
            results.append(exact("credited \(user)", coins, sim.server.balance(of: user)))
        }
        for anomaly in expect.anomalies {
            let actual = sim.auditor.count(anomaly.type, anomaly.status)
            let name =
                "anomalies \(anomaly.type.rawValue)"
                + (anomaly.status.map { " \($0.rawValue)" } ?? "")
            results.append(
                ExpectationResult(
                    name: name, expected: anomaly.count.map(String.init) ?? "at least 1",
                    actual: String(actual), holds: anomaly.holds(actual: actual)))
        }
        if let unresolved = expect.unresolved {
            results.append(exact("unresolved", unresolved, sim.auditor.unresolved.count))
        }
        if let queue = expect.queue {
            results.append(exact("queue", queue, sim.store.queue.count))
        }
        if let money = expect.money {
            if let cents = money.paidNotDeliveredCents {
                results.append(amount("money paid-not-delivered", cents, sim.auditor.paidNotDeliveredCents))
            }
            if let cents = money.grantedNotPaidCents {
                results.append(amount("money granted-not-paid", cents, sim.auditor.grantedNotPaidCents))
            }
        }
        for user in scenario.users {
            guard let products = expect.entitlements[user] else { continue }
            let held = sim.server.entitlements.filter { $0.user == user }.map(\.product)
            results.append(
                ExpectationResult(
                    name: "entitlements \(user)", expected: listed(products), actual: listed(held),
                    holds: Set(products) == Set(held)))
        }
        if let refunded = expect.refunded {
            let coins = sim.auditor.charges.filter { $0.refundedAt != nil }.count
            results.append(exact("refunded", refunded, coins + sim.subscriptionRefunds))
        }
        for user in scenario.users {
            guard let coins = expect.spent[user] else { continue }
            results.append(exact("spent \(user)", coins, sim.server.spent(by: user)))
        }
        return results + checkSubscriptions(scenario, against: sim) + checkRefusedReports(scenario, against: sim)
    }

    /// Under serve a refused genuine report fails the file unless `reports-refused` expects
    /// it (SERVE-CI rule 4): the line is there when the key is written or a report was refused.
    static func checkRefusedReports(_ scenario: Scenario, against sim: Simulation) -> [ExpectationResult] {
        let refused = sim.external?.refusedReports.count ?? 0
        guard scenario.expect.reportsRefused != nil || refused > 0 else { return [] }
        return [exact("reports-refused", scenario.expect.reportsRefused ?? 0, refused)]
    }

    static func amount(_ name: String, _ expected: Int, _ actual: Int) -> ExpectationResult {
        ExpectationResult(
            name: name, expected: formatMoney(expected), actual: formatMoney(actual),
            holds: expected == actual)
    }

    static func listed(_ products: [String]) -> String { "[" + products.joined(separator: ", ") + "]" }

    static func exact(_ name: String, _ expected: Int, _ actual: Int) -> ExpectationResult {
        ExpectationResult(
            name: name, expected: String(expected), actual: String(actual),
            holds: expected == actual)
    }
}
