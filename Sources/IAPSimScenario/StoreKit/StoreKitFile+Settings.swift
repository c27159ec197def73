import IAPSimCore

extension StoreKitFile {
    /// The settings the world obeys, and the others listed (`_locale`) or named as not
    /// modelled (`_timeRate`, `_failTransactionsEnabled`, enabled `_storeKitErrors`).
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
        case ("_timeRate", .number(let rate)):
            listed.append("\(key) \(rate)")
            if rate != "0" { notModelled.append("_timeRate (renewals follow virtual time)") }
        case ("_failTransactionsEnabled", .bool(true)), ("_disableDialogs", .bool(true)),
            ("_renewalBillingIssuesEnabled", .bool(true)), ("_compatibilityTimeRate", .object):
            listed.append("\(key) on")
            notModelled.append(key)
        case (_, .string(let s)): listed.append("\(key) \(VisibleText.escaped(String(s.prefix(60))))")
        case (_, .bool(let b)): listed.append("\(key) \(b ? "on" : "off")")
        case (_, .number(let n)): listed.append("\(key) \(n)")
        case (_, .null): listed.append("\(key) null")
        default: listed.append("\(key) (\(m.value.kind))")
        }
    }
}
