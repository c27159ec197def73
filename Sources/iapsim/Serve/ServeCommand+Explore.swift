import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimServe

/// `iapsim serve --explore --runs N`: explore's random StoreKit 2 schedules against the
/// backend, each run a world of its own (`r17-alice`), so the backend needs no reset.
/// Nothing is shrunk (a real backend cannot be copied); each failing type names the run and
/// the command that plays it again.
struct ServeExplore {
    let command: ServeCommand
    let options: ServeSession.Options
    let outputs: ServeOutputs
    static let defaultRuns = 100

    func run() throws {
        let preset = command.policy ?? .sk2Hardened
        let runs = try command.runsFlag?.whole("--runs", in: FlagRange.runs) ?? Self.defaultRuns
        let skip = try command.skipFlag.whole("--skip", in: FlagRange.skip)
        let stopAfter = try command.stopAfterFlag?.whole("--stop-after", in: FlagRange.runs)
        let loaded = try command.catalog.load()
        var explorer = Explorer(
            policy: preset.policy, seed: command.seed, catalog: loaded.catalog, swarm: command.swarm)
        if loaded.catalog.settings.billingGracePeriod {
            explorer.catalogGracePeriodMs = CatalogOptions.fileGracePeriodMs
        }
        var junit = try JUnitReport(
            suite: "iapsim serve --explore" + (command.race ? " --race" : "")
                + " --policy \(preset.rawValue) --seed \(command.seed)",
            path: command.junit, inputs: command.inputs,
            properties: JUnitReport.properties(
                seed: "\(command.seed)", idBlock: "not started", policy: preset.rawValue, catalog: command.catalog))
        let session = try ServeCommand.start(options, outputs: outputs)
        junit.properties = junit.properties.map { $0.name == "id-block" ? ($0.name, "\(session.block)") : $0 }
        defer { session.close() }
        let log = ServeLog(outputs: outputs)
        var firstFailure: [AnomalyType: Int] = [:]
        var counts: [AnomalyType: Int] = [:]
        var failedRuns = 0
        var exchanges = 0
        var backend = Duration.zero
        let clock = ContinuousClock()
        let start = clock.now
        let range = skip..<(skip + runs)
        let shard = command.sharding.shard
        let shardRuns = shard.runs(in: range)
        var played = 0
        for k in 0..<shardRuns {
            // `--stop-after N`: the N-th failing run was the last one played.
            if let stopAfter, failedRuns >= stopAfter { break }
            played += 1
            let index = shard.run(k, in: range)
            let name = "run \(index), seed \(command.seed)"
            // No verdict for this run (exit 3): it is named, the runs before it keep their
            // testcases, JUnit holds it as an error and `--log` what it did.
            func fail(_ failure: ServeFailure) throws -> ExitCode {
                let named = ServeFailure(exitCode: failure.exitCode, "explore run \(index): \(failure.description)")
                junit.add(name, .invalid(reason: named.description))
                let exit = ServeCommand.fail(named, session: session, outputs: outputs)
                try junit.write()
                return exit
            }
            let merchant: ServeMerchant
            let link: ExternalLink
            do {
                // Under --race each delivery with a twin races or not as the run's own draw says.
                (merchant, link) = try session.merchant(
                    users: explorer.servedSchedule(index).users, prefix: "r\(index)-",
                    raceSeed: explorer.runSeed(index) &+ 0x7261_6365)
            } catch {
                throw try fail(error)
            }
            let (world, outcome) = explorer.served(index, link: link)
            if let failure = session.failure(of: merchant) ?? outputs.recordProblem {
                if outputs.recordProblem == nil {
                    try log.add(
                        world.log.map(RunRecord.entry), world: session.worlds, prefix: "r\(index)-",
                        source: "explore run \(index)")
                }
                throw try fail(failure)
            }
            exchanges += merchant.exchanges.count
            backend += merchant.exchanges.reduce(.zero) { $0 + $1.backendWall }
            if command.verbose {
                try Output.print(
                    ["== explore run \(index) (r\(index)-)"]
                        + world.log.flatMap { Transcript.lines(for: RunRecord.entry($0), in: .two) })
            }
            try log.add(
                world.log.map(RunRecord.entry), world: session.worlds, prefix: "r\(index)-",
                source: "explore run \(index)")
            if outcome.failures.isEmpty {
                junit.add(name, ms: merchant.exchanges.reduce(0) { $0 + $1.wallMs }, .passed)
            } else {
                failedRuns += 1
                let unresolved = world.auditor.anomalies.filter(\.status.isUnresolved).map {
                    "\($0.type.rawValue) (\($0.status.rawValue)): \($0.summary)"
                }
                junit.add(
                    name, ms: merchant.exchanges.reduce(0) { $0 + $1.wallMs },
                    .failed(
                        lines: (unresolved.isEmpty
                            ? [outcome.failures.map(\.rawValue).joined(separator: ", ") + " unresolved"] : unresolved)
                            + [reproduce(index, preset: preset)]))
            }
            for type in outcome.failures {
                counts[type, default: 0] += 1
                if firstFailure[type] == nil { firstFailure[type] = index }
            }
        }
        let wall = clock.now - start
        let ms = HTTPExchange.milliseconds(wall)
        let backendMs = HTTPExchange.milliseconds(backend)
        let stopped = played < shardRuns ? " (stopped after \(failedRuns) failing; --stop-after)" : ""
        var lines = [
            (shard == .whole ? "\(played) runs" : "\(played) runs (shard \(shard) of \(runs))") + stopped
                + " of \(preset.rawValue) against \(session.backend) (seed \(command.seed)): "
                + "\(failedRuns) with unresolved anomalies; \(exchanges) exchanges, \(ms) ms (backend \(backendMs) ms)"
        ]
        for type in AnomalyType.allCases where counts[type] != nil {
            let run = firstFailure[type]!
            lines.append(
                "  \(type.rawValue): \(counts[type]!) runs; first run \(run): " + reproduce(run, preset: preset))
        }
        if options.config.ledger == nil {
            lines.append("blind: no ledger; only lost and missed orders (and acknowledgements) were judged")
        }
        lines.append(
            "under serve, causes and fixes are not replayed and nothing is shrunk: a real backend cannot be copied")
        try junit.write()
        try Output.print(lines)
        try outputs.commit()
        command.holdIfAsked(session)
        session.close()
        if failedRuns > 0 { throw ExitCode(1) }
    }

    /// The command that plays run `index` again, alone: the backend as given and every flag
    /// that shapes the world (the catalog's files, the calls' flags, the time, the race), each
    /// word quoted for `sh` (`ShellWord`).
    func reproduce(_ index: Int, preset: PolicyPreset) -> String {
        var words = ["iapsim", "serve"] + backendFlags
        words += [
            "--explore", "--policy", preset.rawValue, "--seed", "\(command.seed)", "--runs", "1", "--skip", "\(index)",
        ]
        if let storekit = command.catalog.storekit { words += ["--storekit", storekit] }
        if let grants = command.catalog.grants { words += ["--grants", grants] }
        let calls = [
            ("--order", command.order), ("--report", command.report), ("--notify", command.notify),
            ("--ledger", command.ledger), ("--spend", command.spend), ("--users", command.users),
            ("--ticks", command.ticks),
        ]
        for case (let flag, let value?) in calls { words += [flag, value] }
        if command.time != .warp { words += ["--time", command.time.rawValue] }
        if command.race { words.append("--race") }
        return ShellWord.command(words + ["--verbose"])
    }

    /// The flags that name the backend, as given (for the command that plays a run again).
    var backendFlags: [String] {
        var flags: [String] = []
        if let config = command.config { flags += ["--config", config] }
        if let backend = command.backend { flags += ["--backend", backend] }
        if let spawn = command.spawn { flags += ["--spawn", spawn] }
        return flags
    }
}
