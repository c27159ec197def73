import IAPSimCore
import Yams

/// `expect.subscriptions.USER`: the subscription's status at the end, whether the merchant
/// server grants access, and its product; a key left out is not checked.
package struct SubscriptionExpectation: Sendable, Hashable {
    package var status: SubscriptionStatus?
    package var access: Bool?
    package var product: String?

    package init(status: SubscriptionStatus? = nil, access: Bool? = nil, product: String? = nil) {
        self.status = status
        self.access = access
        self.product = product
    }

    /// The keys of one subscriber's map, in the order files write them.
    package static let keys = ["status", "access", "product"]
}

extension ScenarioBuilder {
    /// `subscriptions: {USER: {status: S, access: B, product: P}}`.
    func subscriptions(_ node: Node, users: [String]) throws(ScenarioError) -> [String: SubscriptionExpectation] {
        var out: [String: SubscriptionExpectation] = [:]
        for entry in try reader.entries(node, what: "'subscriptions'") {
            guard users.contains(entry.key) else {
                throw .unknownUser(at: reader.location(entry.keyNode), name: entry.key, users: users)
            }
            var e = SubscriptionExpectation()
            for field in try reader.entries(entry.value, what: "the subscription of '\(entry.key)'") {
                let text = try reader.string(field.value, what: "'\(field.key)'")
                let at = reader.location(field.value)
                switch field.key {
                case "status":
                    let statuses = SubscriptionStatus.allCases
                    guard let s = statuses.first(where: { $0.word == text }) else {
                        throw .badArgument(
                            at: at, command: "status", word: text,
                            expected: ScenarioVocabulary.list(statuses.map(\.word)))
                    }
                    e.status = s
                case "access":
                    guard text == "true" || text == "false" else {
                        throw .badArgument(at: at, command: "access", word: text, expected: "true, false")
                    }
                    e.access = text == "true"
                case "product":
                    let products = catalog.subscriptions.map(\.id)
                    guard products.contains(text) else {
                        throw .unknownProduct(at: at, name: text, products: products)
                    }
                    e.product = text
                default:
                    throw .badArgument(
                        at: reader.location(field.keyNode), command: "subscriptions", word: field.key,
                        expected: ScenarioVocabulary.list(SubscriptionExpectation.keys))
                }
            }
            out[entry.key] = e
        }
        return out
    }
}

extension ExpectationCheck {
    /// `subscriptions` and `renewals`.
    static func checkSubscriptions(_ scenario: Scenario, against sim: Simulation) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        let subscribers = sim.subscribers
        for user in scenario.users {
            guard let e = scenario.expect.subscriptions[user] else { continue }
            let view = subscribers.last { $0.user == user }
            if let status = e.status {
                let actual = view?.status.word ?? "none"
                results.append(
                    ExpectationResult(
                        name: "subscriptions \(user) status", expected: status.word, actual: actual,
                        holds: actual == status.word))
            }
            if let access = e.access {
                let actual = sim.world.grantsSubscriptionAccess(user)
                results.append(
                    ExpectationResult(
                        name: "subscriptions \(user) access", expected: String(access), actual: String(actual),
                        holds: actual == access))
            }
            if let product = e.product {
                let actual = view?.subscription.productId ?? "none"
                results.append(
                    ExpectationResult(
                        name: "subscriptions \(user) product", expected: product, actual: actual,
                        holds: actual == product))
            }
        }
        if let renewals = scenario.expect.renewals {
            results.append(exact("renewals", renewals, sim.store.subscriptions.reduce(0) { $0 + $1.renewals }))
        }
        return results
    }
}

extension ScenarioWriter {
    /// The `subscriptions` and `renewals` lines of an `expect` block.
    static func subscriptionLines(_ expect: Expectations, users: [String]) -> [String] {
        var lines: [String] = []
        let named = users.filter { expect.subscriptions[$0] != nil }
        if !named.isEmpty {
            let pairs = named.map { user in
                let e = expect.subscriptions[user]!
                var parts: [String] = []
                if let s = e.status { parts.append("status: \(s.word)") }
                if let a = e.access { parts.append("access: \(a)") }
                if let p = e.product { parts.append("product: \(p)") }
                return "\(YAMLScalar.inline(user, flow: true)): {\(parts.joined(separator: ", "))}"
            }
            lines.append("  subscriptions: {\(pairs.joined(separator: ", "))}")
        }
        if let renewals = expect.renewals { lines.append("  renewals: \(renewals)") }
        return lines
    }
}
