import IAPSimCore
import Yams

extension ScenarioBuilder {
    /// The `expect` map. Balances may name only the scenario's users.
    func expectations(_ node: Node, users: [String]) throws(ScenarioError) -> Expectations {
        var expect = Expectations()
        for entry in try reader.entries(node, what: "'expect'") {
            let what = "'\(entry.key)'"
            switch entry.key {
            case "charged": expect.charged = try reader.wholeNumber(entry.value, what: what)
            case "unresolved": expect.unresolved = try reader.wholeNumber(entry.value, what: what)
            case "queue": expect.queue = try reader.wholeNumber(entry.value, what: what)
            case "credited": expect.credited = try credited(entry.value, users: users)
            case "money": expect.money = try money(entry.value)
            case "entitlements": expect.entitlements = try entitlements(entry.value, users: users)
            case "refunded": expect.refunded = try reader.wholeNumber(entry.value, what: what)
            case "spent": expect.spent = try coins(entry.value, users: users, what: "spent", negative: false)
            case "subscriptions": expect.subscriptions = try subscriptions(entry.value, users: users)
            case "renewals": expect.renewals = try reader.wholeNumber(entry.value, what: what)
            case "reports-refused": expect.reportsRefused = try reader.wholeNumber(entry.value, what: what)
            case "anomalies":
                for item in try reader.items(entry.value, what: what) {
                    expect.anomalies.append(try anomaly(item))
                }
            default:
                throw .unknownExpectKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        return expect
    }

    private func credited(_ node: Node, users: [String]) throws(ScenarioError) -> [String: Int] {
        try coins(node, users: users, what: "credited", negative: true)
    }

    /// A map of users to coins: balances (`credited`, which may be negative: debt) or coins
    /// spent.
    private func coins(_ node: Node, users: [String], what: String, negative: Bool) throws(ScenarioError)
        -> [String: Int]
    {
        var coins: [String: Int] = [:]
        for entry in try reader.entries(node, what: "'\(what)'") {
            guard users.contains(entry.key) else {
                throw .unknownUser(
                    at: reader.location(entry.keyNode), name: entry.key,
                    users: users)
            }
            let label = what == "spent" ? "the coins '\(entry.key)' spent" : "the balance of '\(entry.key)'"
            coins[entry.key] =
                negative
                ? try reader.balance(entry.value, what: label)
                : try reader.wholeNumber(entry.value, what: label)
        }
        return coins
    }

    private func money(_ node: Node) throws(ScenarioError) -> MoneyExpectation {
        var money = MoneyExpectation()
        for entry in try reader.entries(node, what: "'money'") {
            let cents = try amount(entry.value, what: "'\(entry.key)'")
            switch entry.key {
            case "paid-not-delivered": money.paidNotDeliveredCents = cents
            case "granted-not-paid": money.grantedNotPaidCents = cents
            default: throw .unknownMoneyKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        return money
    }

    /// The largest amount of money an expectation may name, in currency units: far above
    /// what any run can charge, and small enough that its cents fit every sum.
    static let maxMoneyUnits = 1_000_000_000

    /// An amount in currency units (`0.99`, `3`, `5.98`), as cents.
    private func amount(_ node: Node, what: String) throws(ScenarioError) -> Int {
        let bad = ScenarioError.wrongType(
            at: reader.location(node), what: what, expected: .money,
            found: reader.found(node))
        guard case .scalar(let s) = node else { throw bad }
        let parts = s.string.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { throw bad }
        let units: Int
        switch NumberCheck.integer(String(parts[0]), in: 0...Self.maxMoneyUnits) {
        case .success(let value): units = value
        case .failure(.outOfRange) where !parts[0].hasPrefix("-"):
            throw .outOfRange(
                at: reader.location(node), what: what, text: s.string,
                range: "from 0 to \(Self.maxMoneyUnits).00")
        case .failure: throw bad
        }
        guard !parts[0].hasPrefix("-") else { throw bad }
        guard parts.count == 2 else { return units * 100 }
        let fraction = parts[1]
        guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            let digits = Int(fraction)
        else { throw bad }
        return units * 100 + (fraction.count == 1 ? digits * 10 : digits)
    }

    private func entitlements(_ node: Node, users: [String]) throws(ScenarioError) -> [String: [String]] {
        var held: [String: [String]] = [:]
        for entry in try reader.entries(node, what: "'entitlements'") {
            guard users.contains(entry.key) else {
                throw .unknownUser(at: reader.location(entry.keyNode), name: entry.key, users: users)
            }
            var products: [String] = []
            for item in try reader.items(entry.value, what: "the entitlements of '\(entry.key)'") {
                let name = try reader.string(item, what: "a product")
                guard let product = catalog.product(name) else {
                    throw .unknownProduct(at: reader.location(item), name: name, products: catalog.ids)
                }
                let heldable = catalog.products.filter { $0.kind == .nonConsumable }.map(\.id)
                let held = heldable.isEmpty ? "none; its products: " + ScenarioVocabulary.list(catalog.allIds) : nil
                switch product.kind {
                case .nonConsumable: break
                case .autoRenewable:
                    throw .catalog(
                        at: reader.location(item),
                        problem: "'\(name)' is a subscription: use `subscriptions:` "
                            + "(`subscriptions: {\(entry.key): {status: active, access: true}}`); the products "
                            + "`entitlements:` can hold: " + (held ?? ScenarioVocabulary.list(heldable)))
                case .consumable where held == nil:
                    throw .consumableEntitlement(at: reader.location(item), name: name, heldable: heldable)
                case .consumable, .nonRenewing:
                    let what = product.kind == .consumable ? "a consumable" : "a non-renewing subscription"
                    throw .catalog(
                        at: reader.location(item),
                        problem: "'\(name)' is \(what): it is not held as an entitlement; the products that can "
                            + "be held: " + (held ?? ScenarioVocabulary.list(heldable)))
                }
                products.append(name)
            }
            held[entry.key] = products
        }
        return held
    }

    private func anomaly(_ node: Node) throws(ScenarioError) -> AnomalyExpectation {
        var type: AnomalyType?
        var status: AnomalyStatus?
        var count: Int?
        for entry in try reader.entries(node, what: "each anomaly") {
            switch entry.key {
            case "type":
                let name = try reader.string(entry.value, what: "'type'")
                type = AnomalyType(rawValue: name)
                if type == nil {
                    throw .unknownAnomalyType(at: reader.location(entry.value), name: name)
                }
            case "status":
                let name = try reader.string(entry.value, what: "'status'")
                status = AnomalyStatus(rawValue: name)
                if status == nil {
                    throw .unknownAnomalyStatus(at: reader.location(entry.value), name: name)
                }
            case "count":
                count = try reader.wholeNumber(entry.value, what: "'count'")
            default:
                throw .unknownAnomalyKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        guard let type else {
            throw .missingKey(
                at: reader.location(node), key: "type", owner: "an anomaly",
                required: ["type"])
        }
        return AnomalyExpectation(type: type, status: status, count: count)
    }
}
