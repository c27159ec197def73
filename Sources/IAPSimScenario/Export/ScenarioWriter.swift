import IAPSimCore

/// Writes a `Scenario` as a format-1 YAML file that `ScenarioParser` reads back to an equal
/// `Scenario` (step positions aside). Used for round trips and by the terminal UI's "save
/// session as scenario".
///
/// The layout is fixed: keys in the order of docs/scenario-format.md, two-space indentation,
/// defaults left out where the format has them (a step's `after: 0s`, `within: 10m`,
/// `app: running`). Comments of an original file are not kept.
package enum ScenarioWriter {
    package static func yaml(_ scenario: Scenario) -> String {
        var lines = ["format: \(Scenario.supportedFormat)"]
        lines.append("title:" + YAMLScalar.blockValue(scenario.title, indent: 2))
        if let story = scenario.story {
            lines.append("story:" + YAMLScalar.blockValue(story, indent: 2))
        }
        lines += policy(scenario.policy, preset: scenario.preset)
        lines.append("seed: \(scenario.seed)")
        let users = scenario.users.map { YAMLScalar.inline($0, flow: true) }
        lines.append("users: [\(users.joined(separator: ", "))]")
        if scenario.app != .running { lines.append("app: \(scenario.app.rawValue)") }
        if scenario.environment != .production { lines.append("environment: \(scenario.environment.rawValue)") }
        if scenario.merchant != .simulated { lines.append("merchant: \(scenario.merchant.rawValue)") }
        if let grace = scenario.gracePeriodMs { lines.append("grace-period: \(ScenarioVocabulary.graceWord(grace))") }
        let renewals = scenario.catalog.catalog.settings.graceRenewals
        if renewals != .all { lines.append("grace-renewals: \(renewals.rawValue)") }
        if let storekit = scenario.storekitPath {
            lines.append("storekit: " + YAMLScalar.inline(storekit, flow: false))
        }
        if !scenario.catalog.grants.isEmpty {
            lines.append("grants:")
            for g in scenario.catalog.grants { lines.append("  \(g.product): \(g.amount) \(g.unit)") }
        }
        if scenario.steps.isEmpty {
            lines.append("steps: []")
        } else {
            lines.append("steps:")
            for step in scenario.steps { lines += self.step(step) }
        }
        if !scenario.expect.isEmpty {
            lines.append("expect:")
            lines += expect(scenario.expect, users: scenario.users)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `policy: NAME` when the policy is its preset; else a map of the preset and the keys
    /// that differ from it.
    static func policy(_ policy: Policy, preset: PolicyPreset) -> [String] {
        let changed = policy.differences(from: preset.policy)
        if changed.isEmpty { return ["policy: \(preset.rawValue)"] }
        return ["policy:", "  preset: \(preset.rawValue)"]
            + changed.map { "  \($0.rawValue): " + YAMLScalar.inline(policy.value(of: $0)) }
    }

    static func step(_ step: Step) -> [String] {
        var fields: [String] = []
        switch step.trigger {
        case .after(0): break
        case .after(let ms): fields.append("after: \(DurationText.format(ms))")
        case .at(let ms): fields.append("at: \(DurationText.format(ms))")
        case .when(let event, let within):
            fields.append("when: \(event.rawValue)")
            if within != Trigger.defaultWithin {
                fields.append("within: \(DurationText.format(within))")
            }
        }
        fields.append("do: " + YAMLScalar.inline(step.command.scenarioText))
        if let say = step.say { fields.append("say:" + YAMLScalar.blockValue(say, indent: 6)) }
        return fields.enumerated().map { index, field in (index == 0 ? "  - " : "    ") + field }
    }

    static func expect(_ expect: Expectations, users: [String]) -> [String] {
        var lines: [String] = []
        if let charged = expect.charged { lines.append("  charged: \(charged)") }
        if !expect.credited.isEmpty {
            let order =
                users.filter { expect.credited[$0] != nil }
                + expect.credited.keys.filter { !users.contains($0) }.sorted()
            let pairs = order.map { "\(YAMLScalar.inline($0, flow: true)): \(expect.credited[$0]!)" }
            lines.append("  credited: {\(pairs.joined(separator: ", "))}")
        }
        if !expect.anomalies.isEmpty {
            lines.append("  anomalies:")
            for anomaly in expect.anomalies {
                var parts = ["type: \(anomaly.type.rawValue)"]
                if let status = anomaly.status { parts.append("status: \(status.rawValue)") }
                if let count = anomaly.count { parts.append("count: \(count)") }
                lines.append("    - {\(parts.joined(separator: ", "))}")
            }
        }
        if let unresolved = expect.unresolved { lines.append("  unresolved: \(unresolved)") }
        if let queue = expect.queue { lines.append("  queue: \(queue)") }
        if let money = expect.money {
            var parts: [String] = []
            if let c = money.paidNotDeliveredCents { parts.append("paid-not-delivered: \(formatMoney(c))") }
            if let c = money.grantedNotPaidCents { parts.append("granted-not-paid: \(formatMoney(c))") }
            lines.append("  money: {\(parts.joined(separator: ", "))}")
        }
        let holders = users.filter { expect.entitlements[$0] != nil }
        if !holders.isEmpty {
            let pairs = holders.map { user in
                "\(YAMLScalar.inline(user, flow: true)): [\(expect.entitlements[user]!.joined(separator: ", "))]"
            }
            lines.append("  entitlements: {\(pairs.joined(separator: ", "))}")
        }
        if let refunded = expect.refunded { lines.append("  refunded: \(refunded)") }
        if let refused = expect.reportsRefused { lines.append("  reports-refused: \(refused)") }
        let spenders = users.filter { expect.spent[$0] != nil }
        if !spenders.isEmpty {
            let pairs = spenders.map { "\(YAMLScalar.inline($0, flow: true)): \(expect.spent[$0]!)" }
            lines.append("  spent: {\(pairs.joined(separator: ", "))}")
        }
        return lines + subscriptionLines(expect, users: users)
    }
}
