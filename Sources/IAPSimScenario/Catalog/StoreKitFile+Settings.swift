import IAPSimCore

extension StoreKitFile {
    /// The settings the world obeys, and the others listed (`_locale`) or named as not
    /// modelled (`_timeRate` and `_compatibilityTimeRate` other than real time,
    /// `_failTransactionsEnabled`, enabled `_storeKitErrors`).
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
        let honoured = ["_askToBuyEnabled", "_billingIssuesEnabled", "_billingGracePeriodEnabled", "_storefront"]
        for m in members where !honoured.contains(m.key) { try other(m) }
        return settings
    }

    private mutating func other(_ m: JSONNode.Member) throws(ScenarioError) {
        let key = VisibleText.escaped(m.key)
        switch (m.key, m.value.value) {
        case ("_storeKitErrors", .array(let errors)):
            let on = errors.filter { (try? bool($0, "enabled")) == true }
            listed.append("\(key): \(on.count) of \(errors.count) enabled")
            if !on.isEmpty { notModelled.append("StoreKit errors (_storeKitErrors)") }
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
        case ("_failTransactionsEnabled", .bool(true)), ("_disableDialogs", .bool(true)),
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
