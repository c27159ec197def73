import ArgumentParser
import IAPSimCore
import IAPSimScenario

/// `iapsim catalog [PATH]`: the catalog as iapsim reads it, one line a product (id, type,
/// price, group and level, period, what it grants), then the settings it obeys, what it only
/// lists and what it does not model. Exit 2 when the file is refused.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Print a StoreKit configuration file's catalog as iapsim reads it (default: the built-in one).",
        discussion: "Exit status: 0 read, 2 refused (one line: FILE:LINE:COLUMN: what, and what is accepted)."
    )

    @Argument(help: "An Xcode StoreKit configuration file (Products.storekit); none: the built-in catalog.")
    var path: String?

    @OptionGroup var grantsFlag: GrantsFlag
    var grants: String? { grantsFlag.grants }

    func run() throws {
        let loaded: LoadedCatalog
        do {
            var base = try path.map { p throws(ScenarioError) in try StoreKitFile.load(path: p) } ?? .builtInFile()
            if let grants { base = base.granting(try Grant.load(path: grants, catalog: base.catalog)) }
            loaded = base
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
        try Output.print(Self.lines(loaded))
    }

    static func lines(_ loaded: LoadedCatalog) -> [String] {
        let c = loaded.catalog
        let count = c.products.count + c.subscriptions.count
        let source = loaded.file ?? "the built-in catalog (scenarios/iapsim.storekit)"
        var lines = [
            "\(source): format version \(loaded.version), \(count) product\(count == 1 ? "" : "s"), "
                + "storefront \(c.settings.storefront), prices in \(c.settings.currency)"
        ]
        lines += loaded.productLines.map { "  " + $0 }
        lines.append("honoured: " + honoured(c.settings))
        if !loaded.listed.isEmpty { lines.append("listed: " + loaded.listed.joined(separator: "; ")) }
        lines.append(
            "not modelled: " + (loaded.notModelled.isEmpty ? "nothing" : loaded.notModelled.joined(separator: ", ")))
        return lines
    }

    /// The settings the world obeys, with their values.
    static func honoured(_ s: CatalogSettings) -> String {
        [
            "Ask to Buy \(s.askToBuy ? "on" : "off")", "billing issues \(s.billingIssues ? "on" : "off")",
            "billing grace period "
                + (s.billingGracePeriod
                    ? "16 days (6 days for weekly subscriptions) unless a scenario's grace-period says" : "off"),
            "storefront \(s.storefront) (\(s.currency))",
            "fail transactions \(s.failTransactions ? "on" : "off")",
            "StoreKit errors "
                + (s.storeKitErrors.isEmpty
                    ? "none"
                    : s.storeKitErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                        "\($0.key.rawValue) \($0.value.name)"
                    }
                    .joined(separator: "; ")),
            "time rate \(s.timeRate.summary)",
        ].joined(separator: ", ")
    }
}
