import IAPSimCore

extension StoreKitFile {
    /// The settings the world obeys (`_failTransactionsEnabled`, enabled `_storeKitErrors`
    /// and the time rate among them), and the others listed (`_locale`) or named as not
    /// modelled.
    mutating func settings(_ node: JSONNode?) throws(ScenarioError) -> CatalogSettings {
        var settings = CatalogSettings()
        guard let node else { return settings }
        guard case .object(let members) = node.value else {
            if case .null = node.value { return settings }
            throw fail(node, "\"settings\" is \(node.kind); it must be an object")
        }
        settings.askToBuy = try bool(node, "_askToBuyEnabled")
        settings.billingIssues = try bool(node, "_billingIssuesEnabled")
        settings.billingGracePeriod = try bool(node, "_billingGracePeriodEnabled")
        if let code = try string(node, "_storefront") {
            if let found = Storefronts.find(code) {
                (settings.storefront, settings.storefrontId, settings.currency) = found
            } else {
                notModelled.append("storefront \(VisibleText.escaped(code)) (prices in USD)")
            }
        }
        settings.failTransactions = try bool(node, "_failTransactionsEnabled")
        if settings.failTransactions { listed.append("_failTransactionsEnabled on (purchases fail: SKError.unknown)") }
        if let errors = node["_storeKitErrors"] { settings.storeKitErrors = try storeKitErrors(errors) }
        settings.timeRate = try timeRate(node)
        let honoured = [
            "_askToBuyEnabled", "_billingIssuesEnabled", "_billingGracePeriodEnabled", "_storefront",
            "_failTransactionsEnabled", "_storeKitErrors", "_timeRate", "_compatibilityTimeRate",
        ]
        for m in members where !honoured.contains(m.key) { try other(m) }
        return settings
    }

    /// `_storeKitErrors`: each enabled API with its chosen error (`current`: `type` and the
    /// case's `index`; none chosen is `StoreKitError.unknown`), listed; a name, type or index
    /// StoreKit does not have is refused where it is written.
    private mutating func storeKitErrors(_ node: JSONNode) throws(ScenarioError) -> [StoreKitAPI:
        ConfiguredStoreKitError]
    {
        var found: [StoreKitAPI: ConfiguredStoreKitError] = [:]
        let entries = try items(node, key: "_storeKitErrors", limit: 64)
        for entry in entries {
            guard case .object = entry.value else {
                throw fail(entry, "a \"_storeKitErrors\" entry is \(entry.kind); it must be an object")
            }
            guard try bool(entry, "enabled") else { continue }
            guard let name = try string(entry, "name") else {
                throw fail(entry, "an enabled \"_storeKitErrors\" entry has no \"name\"")
            }
            guard let api = StoreKitAPI.named(name) else {
                throw fail(
                    entry["name"] ?? entry,
                    "\"_storeKitErrors\" names \"\(VisibleText.escaped(name))\"; the APIs are "
                        + StoreKitAPI.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            found[api] = try chosenError(entry["current"], for: api)
            // A purchase fails in the world itself; the other APIs fail where they are called,
            // in your code under IAPSimStoreKit (the simulated app of `run` calls none of
            // them, so nothing of them is lost there); the sheets have no call anywhere.
            switch api {
            case .manageSubscriptions, .refundRequest, .offerCodeRedeem: notModelled.append("\(api.rawValue) error")
            case .purchase, .loadProducts, .verification, .appStoreSync, .subscriptionStatus, .appTransaction: break
            }
        }
        let on = found.keys.sorted { $0.rawValue < $1.rawValue }
        listed.append(
            "_storeKitErrors: \(on.count) of \(entries.count) enabled"
                + (on.isEmpty
                    ? ""
                    : " ("
                        + on.compactMap { api in found[api].map { "\(api.rawValue) \($0.name)" } }.joined(
                            separator: ", ") + ")"))
        return found
    }

    /// An entry's `current` error: null is `StoreKitError.unknown`.
    private func chosenError(_ node: JSONNode?, for api: StoreKitAPI) throws(ScenarioError) -> ConfiguredStoreKitError {
        guard let node, node.value != .null else {
            return ConfiguredStoreKitError(kind: api.kinds[0], index: 0)
        }
        guard case .object = node.value else {
            throw fail(node, "\"current\" is \(node.kind); it must be an object or null")
        }
        let typeName = try string(node, "type") ?? ""
        guard let kind = StoreKitErrorKind(rawValue: typeName), api.kinds.contains(kind) else {
            throw fail(
                node["type"] ?? node,
                "\"\(api.rawValue)\" fails with \(api.kinds.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) errors, "
                    + "not \"\(VisibleText.escaped(typeName))\"")
        }
        guard let indexNode = node["index"], case .number(let text) = indexNode.value, let index = Int(text),
            kind.cases.indices.contains(index)
        else {
            throw fail(
                node["index"] ?? node,
                "\"index\" of a \"\(kind.rawValue)\" error must be 0 to \(kind.cases.count - 1) (\(kind.typeName): "
                    + kind.cases.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ") + ")")
        }
        return ConfiguredStoreKitError(kind: kind, index: index)
    }

    private mutating func other(_ m: JSONNode.Member) throws(ScenarioError) {
        let key = VisibleText.escaped(m.key)
        switch (m.key, m.value.value) {
        case ("_disableDialogs", .bool(true)),
            ("_renewalBillingIssuesEnabled", .bool(true)):
            listed.append("\(key) on")
            notModelled.append(key)
        case (_, .string(let s)): listed.append("\(key) \(VisibleText.escaped(String(s.prefix(60))))")
        case (_, .bool(let b)): listed.append("\(key) \(b ? "on" : "off")")
        case (_, .number(let n)): listed.append("\(key) \(n)")
        case (_, .null): listed.append("\(key) null")
        default: listed.append("\(key) (\(m.value.kind))")
        }
    }

    /// The time rate: `_timeRate`, else `_compatibilityTimeRate` (Xcode writes it as a number
    /// or as a map keyed by format version, `{"3": 6}`, and moves it into `_timeRate` when it
    /// reads the file; the highest version's rate is taken). Each is listed with its rate
    /// and StoreKit Test's name; a value `SKTestSession.TimeRate` has not is refused where
    /// it is written, with the accepted ones.
    private mutating func timeRate(_ node: JSONNode) throws(ScenarioError) -> TimeRate {
        var chosen: TimeRate?
        if let rate = node["_timeRate"], rate.value != .null {
            chosen = try timeRate(rate, key: "_timeRate")
            listed.append("_timeRate \(chosen!.rawValue) (\(chosen!.name))")
        }
        guard let compatibility = node["_compatibilityTimeRate"], compatibility.value != .null else {
            return chosen ?? .realTime
        }
        var rates: [(version: Int, rate: TimeRate)] = []
        switch compatibility.value {
        case .number: rates = [(0, try timeRate(compatibility, key: "_compatibilityTimeRate"))]
        case .object(let versions):
            for v in versions {
                guard case .number = v.value.value else {
                    throw fail(
                        v.value,
                        "\"_compatibilityTimeRate\" \"\(VisibleText.escaped(v.key))\" is \(v.value.kind); "
                            + "it must be a number (a time rate per format version)")
                }
                rates.append((Int(v.key) ?? 0, try timeRate(v.value, key: "_compatibilityTimeRate")))
            }
        default:
            throw fail(
                compatibility,
                "\"_compatibilityTimeRate\" is \(compatibility.kind); it must be a number or an object of numbers "
                    + "keyed by format version")
        }
        var distinct: [TimeRate] = []
        for r in rates where !distinct.contains(r.rate) { distinct.append(r.rate) }
        listed.append(
            "_compatibilityTimeRate " + distinct.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", "))
        return chosen ?? rates.max { $0.version < $1.version }?.rate ?? .realTime
    }

    /// One time rate's raw value, refused at its line and column when StoreKit Test has none.
    private func timeRate(_ node: JSONNode, key: String) throws(ScenarioError) -> TimeRate {
        let text: String
        if case .number(let n) = node.value { text = n } else { text = node.kind }
        guard case .number = node.value, let raw = Int(text), let rate = TimeRate(rawValue: raw) else {
            throw fail(
                node,
                "\"\(key)\" is \(VisibleText.escaped(text)); the time rates (SKTestSession.TimeRate) are "
                    + TimeRate.acceptedWords)
        }
        return rate
    }
}
