import IAPSimCore

extension StoreKitFile {
    /// The settings the world obeys (`_failTransactionsEnabled` and enabled `_storeKitErrors`
    /// among them), and the others listed (`_locale`) or named as not modelled (`_timeRate`
    /// and `_compatibilityTimeRate` other than real time).
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
        let honoured = [
            "_askToBuyEnabled", "_billingIssuesEnabled", "_billingGracePeriodEnabled", "_storefront",
            "_failTransactionsEnabled", "_storeKitErrors",
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
            // Only a purchase is failed in the world itself; your code under IAPSimStoreKit
            // gets the errors of every API it can call; the sheets have no call there.
            switch api {
            case .purchase: break
            case .manageSubscriptions, .refundRequest, .offerCodeRedeem: notModelled.append("\(api.rawValue) error")
            case .loadProducts, .verification, .appStoreSync, .subscriptionStatus, .appTransaction:
                notModelled.append("\(api.rawValue) error outside IAPSimStoreKit")
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
        case ("_timeRate", .number(let rate)), ("_compatibilityTimeRate", .number(let rate)):
            timeRate(key, [rate])
        case ("_compatibilityTimeRate", .object(let versions)) where !versions.isEmpty:
            // Xcode writes it as a number or as a map keyed by format version (`{"3": 6}`), and
            // moves it into `_timeRate` when it reads the file: either form is a time rate.
            var rates: [String] = []
            for v in versions {
                guard case .number(let rate) = v.value.value else {
                    throw fail(
                        v.value,
                        "\"_compatibilityTimeRate\" \"\(VisibleText.escaped(v.key))\" is \(v.value.kind); "
                            + "it must be a number (a time rate per format version)")
                }
                rates.append(rate)
            }
            timeRate(key, rates)
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

    /// A time rate (`_timeRate`, or the `_compatibilityTimeRate` Xcode moves into it): listed
    /// with its rate (the distinct rates of a map keyed by version), not modelled unless every
    /// rate is 0 (real time).
    private mutating func timeRate(_ key: String, _ rates: [String]) {
        var distinct: [String] = []
        for r in rates where !distinct.contains(r) { distinct.append(r) }
        listed.append("\(key) \(distinct.joined(separator: ", "))")
        if distinct.contains(where: { $0 != "0" }) { notModelled.append("\(key) (renewals follow virtual time)") }
    }
}
