import ArgumentParser
import IAPSimScenario

/// `--storekit PATH` and `--grants FILE`: the catalog of every command that runs a world.
/// They win over a scenario's `storekit:` and `grants:` (docs/storekit.md).
struct CatalogFlags: ParsableArguments {
    @Option(
        name: .customLong("storekit"),
        help: ArgumentHelp(
            "An Xcode StoreKit configuration file (Products.storekit): its products are the catalog.",
            valueName: "path"))
    var storekit: String?

    @OptionGroup var grantsFlag: GrantsFlag
    var grants: String? { grantsFlag.grants }

    var options: CatalogOptions { CatalogOptions(storekit: storekit, grants: grants) }

    /// The scenario at `path`, read against the catalog the flags name, or exit 2 with the
    /// one line (file:line:column) that says what is wrong: the one loader of `run` and `play`.
    func loadScenario(_ path: String) throws -> Scenario {
        do {
            return try ScenarioParser.load(path: path, options: options)
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
    }

    /// Every input of a command that reads `scenarios`: the scenarios, the flags' files and
    /// each scenario's `storekit:` (for `OutputCheck`: no output may be one of them).
    func inputs(scenarios: [String]) -> [OutputCheck.Input] {
        scenarios.map(OutputCheck.Input.scenario)
            + options.inputFiles(scenarios: scenarios).map { OutputCheck.Input(what: $0.what, path: $0.path) }
    }

    /// The catalog the flags name (the built-in one when they name none), or exit 2 with
    /// the one line that says what is wrong.
    func load() throws -> LoadedCatalog {
        do {
            return try options.resolve()
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
    }
}

/// `--grants FILE`: what each consumable grants, for every command that reads a catalog.
struct GrantsFlag: ParsableArguments {
    @Option(
        name: .customLong("grants"),
        help: ArgumentHelp(
            "A YAML map of what each consumable grants (PRODUCT: N UNIT, e.g. gems_small: 80 gems).",
            valueName: "file"))
    var grants: String?
}
