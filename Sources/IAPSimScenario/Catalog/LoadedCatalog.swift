import IAPSimCore

/// A catalog as iapsim read it: the core's `Catalog`, where it came from, and what of the
/// StoreKit configuration file the world does not obey (docs/storekit.md).
package struct LoadedCatalog: Sendable, Hashable {
    package var catalog: Catalog
    /// The StoreKit configuration file's path as given, or nil for the built-in catalog.
    package var file: String?
    /// The file's `version.major`.
    package var version: Int
    /// What was read and is only listed: offers, settings the world has no use for, each
    /// one short phrase (`pro_yearly: introductory offer free for P1W`).
    package var listed: [String]
    /// What the simulator does not model yet, each one short phrase; the run's header names
    /// them in one line.
    package var notModelled: [String]
    /// Each subscription group's `name` by its `id` (the id is what the world and payloads use).
    package var groupNames: [String: String] = [:]
    /// The grants applied to it (`grants:`, `--grants`), in order; none for the built-in one,
    /// whose grants are its own.
    package var grants: [Grant] = []

    package init(
        catalog: Catalog, file: String? = nil, version: Int = 3, listed: [String] = [], notModelled: [String] = []
    ) {
        self.catalog = catalog
        self.file = file
        self.version = version
        self.listed = listed
        self.notModelled = notModelled
    }

    /// The built-in catalog: `scenarios/iapsim.storekit` (embedded as `BuiltInStoreKit.text`)
    /// with the grants of 100 and 550 coins.
    package static let builtIn = LoadedCatalog(catalog: .standard)

    /// The header's line about the catalog: nil for the built-in one (whose runs print what
    /// they always printed), else the file, its products and what is not modelled.
    package var headerLine: String? {
        guard let file else { return nil }
        let count = catalog.products.count + catalog.subscriptions.count
        var line = "catalog: \(file), \(count) product\(count == 1 ? "" : "s"), prices in \(catalog.settings.currency)"
        if !catalog.settings.timeRate.isRealTime { line += ", time rate \(catalog.settings.timeRate.name)" }
        if !notModelled.isEmpty { line += "; not modelled: " + notModelled.joined(separator: ", ") }
        return line
    }

    /// The consumables no grant names (`grants:`, `--grants`, a built-in product's own):
    /// each credits one unit of itself, which a team's code means as nothing.
    package var ungranted: [String] {
        catalog.products.filter { $0.kind == .consumable && catalog.units[$0.id] == $0.id && $0.coins == 1 }.map(\.id)
    }

    /// What the UI says of `ungranted`, or nil when every consumable has a grant.
    package var ungrantedLine: String? {
        let ids = ungranted
        guard !ids.isEmpty else { return nil }
        return "no grant named for " + ids.joined(separator: ", ")
            + ": each credits 1 of itself (--grants FILE or grants: names what it grants)"
    }

    /// One line a product, as `iapsim catalog` prints them: id, type, price, group and
    /// level, period, what it grants.
    package var productLines: [String] {
        let all = catalog.products + catalog.subscriptions
        let idWidth = min(40, all.map(\.id.count).max() ?? 0)
        return all.map { p in
            var cells = [pad(p.id, idWidth), pad(p.kind.rawValue, 14), pad(formatMoney(p.priceCents), 8)]
            if let s = p.subscription {
                let name = groupNames[s.group].map { " (\($0))" } ?? ""
                cells.append("group \(s.group)\(name) level \(s.level), every \(s.period.words) (\(s.period.iso))")
            }
            cells.append(grantText(p))
            return cells.joined(separator: "  ")
        }
    }

    /// What buying the product gives: `grants 100 coins`, `unlocks no_ads`, `access while it
    /// renews` (with its introductory offer: `, introductory offer: free trial for P3D`).
    package func grantText(_ p: Product) -> String {
        switch p.kind {
        case .consumable: return "grants \(p.coins) \(catalog.unit(of: p.id))"
        case .nonConsumable: return "unlocks \(p.id)"
        case .nonRenewing: return "unlocks \(p.id) (the app counts its time)"
        case .autoRenewable:
            // Its introductory offer, applied at an eligible customer's first purchase.
            let offer = p.subscription?.intro.map { ", introductory offer: \($0.summary)" }
            return "access while it renews" + (offer ?? "")
        }
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
