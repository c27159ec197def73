import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario

/// `iapsim matrix`: which fix prevents which failure.
struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Explore every preset with the same seed and print which fix prevents which failure.",
        discussion:
            "Each cell is the share of runs that ended with that anomaly unresolved (open or permanent, or a replay that succeeded)."
    )

    @Option(name: .customLong("runs"), parsing: .unconditional, help: "Runs per preset.")
    var runsFlag = NumberFlag("2000")

    @OptionGroup(title: "Schedules") var schedule: ScheduleFlags

    @OptionGroup(title: "Sharding (over machines)") var sharding: ShardFlags

    // Read after `validate()` has checked them.
    var runs: Int { (try? runsFlag.whole("--runs", in: FlagRange.runs)) ?? 1 }
    var seed: UInt64 { schedule.seed }
    var jobs: Int { schedule.jobs }
    var steps: Int { schedule.steps }

    @Option(help: "The StoreKit world's rows: 1 (the five StoreKit 1 presets), 2 (sk2-naive, sk2-hardened) or all.")
    var world: MatrixWorld?

    /// `--storekit` was the rows' flag before it named a StoreKit file: `1`, `2` and `all`
    /// still choose the rows (a file with such a name is `./2`).
    @Option(
        name: .customLong("storekit"),
        help: ArgumentHelp(
            "An Xcode StoreKit configuration file (Products.storekit) as the catalog; 1, 2 or all: as --world.",
            valueName: "path"))
    var storekitValue: String?

    @OptionGroup var grantsFlag: GrantsFlag
    var grants: String? { grantsFlag.grants }

    /// The rows: `--world`, else `--storekit 1|2|all`, else the StoreKit 1 presets.
    var storekit: MatrixWorld { world ?? storekitValue.flatMap(MatrixWorld.init(rawValue:)) ?? .one }

    /// The catalog's flags: `--storekit` when it names a file.
    var catalog: CatalogOptions {
        CatalogOptions(
            storekit: storekitValue.flatMap { MatrixWorld(rawValue: $0) == nil ? $0 : nil }, grants: grants)
    }

    func validate() throws {
        _ = try runsFlag.whole("--runs", in: FlagRange.runs)
        try schedule.check()
        try sharding.check()
    }

    static let order: [PolicyPreset] = [.naive, .localTable, .retransmit, .retryFile, .hardened]
    static let storeKit2Order: [PolicyPreset] = [.sk2Naive, .sk2Hardened]

    enum MatrixWorld: String, ExpressibleByArgument, CaseIterable {
        case one = "1", two = "2", all

        var presets: [PolicyPreset] {
            switch self {
            case .one: return MatrixCommand.order
            case .two: return MatrixCommand.storeKit2Order
            case .all: return MatrixCommand.order + MatrixCommand.storeKit2Order
            }
        }
    }

    func run() throws {
        let loaded: LoadedCatalog
        do {
            loaded = try catalog.resolve()
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
        let shard = sharding.shard
        let share =
            shard == .whole
            ? "\(runs) runs" : "the \(shard.runs(in: 0..<runs)) runs of shard \(shard) (of \(runs) runs)"
        try Output.print([
            "Share of \(share) (seed \(seed), \(steps) steps each) that ended with the anomaly unresolved:"
        ])
        if let line = loaded.headerLine { try Output.print([line]) }
        try Output.print([
            "",
            "| preset | " + AnomalyType.simulatedWorld.map(\.rawValue).joined(separator: " | ") + " |",
            "|---|" + AnomalyType.simulatedWorld.map { _ in "---:" }.joined(separator: "|") + "|",
        ])
        for preset in storekit.presets {
            var explorer = Explorer(
                policy: preset.policy, seed: seed, steps: steps, catalog: loaded.catalog, swarm: schedule.swarm)
            if loaded.catalog.settings.billingGracePeriod {
                explorer.catalogGracePeriodMs = CatalogOptions.fileGracePeriodMs
            }
            let report = ParallelRuns.run(explorer, range: 0..<runs, shard: shard, jobs: jobs)
            let cells = AnomalyType.simulatedWorld.map { MatrixCommand.percent(report.share($0)) }
            try Output.print(["| \(preset.rawValue) | " + cells.joined(separator: " | ") + " |"])
        }
    }

    static func percent(_ share: Double) -> String {
        if share == 0 { return "0%" }
        let p = share * 100
        return p < 0.1 ? "<0.1%" : String(format: "%.1f%%", p)
    }
}
