import IAPSimCore
import Yams

/// The command line's choice of catalog (`--storekit PATH`, `--grants FILE`): it wins over a
/// scenario's `storekit:` and `grants:`. Empty: the scenario's, else the built-in one.
package struct CatalogOptions: Sendable, Hashable {
    package var storekit: String?
    package var grants: String?

    package init(storekit: String? = nil, grants: String? = nil) {
        self.storekit = storekit
        self.grants = grants
    }

    /// The catalog the options name, for a command without a scenario (sandbox, explore,
    /// matrix, serve): the built-in one when they name none.
    package func resolve() throws(ScenarioError) -> LoadedCatalog {
        let base = try storekit.map { path throws(ScenarioError) in try StoreKitFile.load(path: path) } ?? .builtIn
        guard let grants else { return base }
        return base.granting(try Grant.load(path: grants, catalog: base.catalog))
    }

    /// Every file the catalog of a command reads besides its scenarios: `--storekit`,
    /// `--grants`, and the `storekit:` of each scenario the flags do not override, found as
    /// loading finds it: what each is (`--storekit FILE`, `FILE (the storekit: of s.yaml)`)
    /// and its path. A scenario that cannot be read names nothing here: loading it says why.
    package func inputFiles(scenarios: [String]) -> [(what: String, path: String)] {
        var files: [(what: String, path: String)] = []
        if let storekit { files.append(("--storekit \(storekit)", storekit)) }
        if let grants { files.append(("--grants \(grants)", grants)) }
        guard storekit == nil else { return files }
        for scenario in scenarios {
            if let written = Self.writtenStoreKit(scenario) {
                let path = Self.storekitPath(written, of: scenario)
                files.append(("\(path) (the storekit: of \(scenario))", path))
            }
        }
        return files
    }

    /// The `storekit:` a scenario file names (as written), or nil; read with the scenario's
    /// own bounds, without building the scenario.
    static func writtenStoreKit(_ scenario: String) -> String? {
        guard let bytes = try? ScenarioParser.readRegularFile(scenario) else { return nil }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = try? InputCheck.text(from: body, file: scenario),
            YAMLPreScan.problem(in: text, kind: "a scenario") == nil,
            let root = try? Yams.compose(yaml: text, .basic, .default, .utf8),
            case .scalar(let written)? = root["storekit"], !written.string.isEmpty
        else { return nil }
        return written.string
    }

    /// Where a scenario's `storekit:` points: relative to the scenario file's folder.
    package static func storekitPath(_ written: String, of scenario: String) -> String {
        let dir = scenario.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return written.hasPrefix("/") || dir.isEmpty ? written : dir + "/" + written
    }

    /// The grace period a catalog's `_billingGracePeriodEnabled` gives when nothing else
    /// names one: 16 days, App Store Connect's middle choice.
    package static let fileGracePeriodMs: VirtualTime = 16 * 86_400_000
}

extension ScenarioBuilder {
    /// `storekit:` and `grants:`, or the command line's choice: the catalog the steps and
    /// expectations are read against.
    mutating func readCatalog(_ keys: [String: Entry], into scenario: inout Scenario) throws(ScenarioError) {
        var base = LoadedCatalog.builtIn
        if let path = options.storekit {
            base = try StoreKitFile.load(path: path)
        } else if let entry = keys["storekit"] {
            let written = try reader.string(entry.value, what: "'storekit'")
            scenario.storekitPath = written
            base = try loadRelative(written, at: entry.value)
        }
        if let path = options.grants {
            base = base.granting(try Grant.load(path: path, catalog: base.catalog))
        } else if let entry = keys["grants"] {
            base = base.granting(try Grant.read(entry.value, reader: reader, catalog: base.catalog))
        }
        scenario.catalog = base
        catalog = base.catalog
        if keys["grace-period"] == nil, base.catalog.settings.billingGracePeriod {
            scenario.gracePeriodMs = CatalogOptions.fileGracePeriodMs
        }
    }

    /// A StoreKit file named relative to the scenario file; a file that cannot be read is
    /// an error at the key.
    private func loadRelative(_ written: String, at node: Node) throws(ScenarioError) -> LoadedCatalog {
        guard !written.isEmpty else {
            throw .catalog(at: reader.location(node), problem: "'storekit' is empty; it names a .storekit file")
        }
        let path = CatalogOptions.storekitPath(written, of: reader.file)
        do {
            return try StoreKitFile.load(path: path)
        } catch {
            if case .unreadableFile(_, let reason) = error {
                throw .catalog(
                    at: reader.location(node), problem: "cannot read the StoreKit file \(path): \(reason)")
            }
            throw error
        }
    }
}
