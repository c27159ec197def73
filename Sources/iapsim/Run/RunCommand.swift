import ArgumentParser
import IAPSimCore
import IAPSimCurses
import IAPSimScenario
import IAPSimSigned

/// `iapsim run FILE`: plays a scenario headless and prints the event log, the narration and
/// the verdict. Exit 0 when every expectation holds, 1 when one does not (or a `when` never
/// came), 2 when the file is invalid.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario headless: event log, narration, verdict.",
        discussion: "Exit status: 0 every expectation holds, 1 one does not, 2 invalid file."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Argument(help: "The scenario file (YAML, format 1).")
    var file: String

    @Option(
        name: .customLong("log"),
        help: ArgumentHelp(
            "Also write the run as JSON Lines to this file.",
            valueName: "file.jsonl"))
    var logFile: String?

    @Option(
        name: .customLong("diagram"),
        help: ArgumentHelp(
            "Also write a Mermaid sequence diagram of the run to this file.",
            valueName: "file.md"))
    var diagramFile: String?

    @Option(
        name: .customLong("signed"),
        help: ArgumentHelp(
            "Also write the run's signed transactions as real JWS: DIR/root.cer (the trust anchor) and DIR/signed.jsonl.",
            valueName: "dir"))
    var signedDirectory: String?

    @Flag(help: "Print only the title and the verdict, not the event log and narration.")
    var quiet = false

    @Flag(help: "Print the glossary of the anomalies' words (lost vs missed, 掉单, ...) under the verdict.")
    var glossary = false

    @Option(
        help: ArgumentHelp(
            "Also run the same inputs under this preset of the file's StoreKit world and print both verdicts side by side.",
            valueName: "preset"))
    var against: PolicyPreset?

    @Option(
        name: .customLong("handout"),
        help: ArgumentHelp(
            "Also write each anomaly's story (cause, chain of facts, money, prevented by, saved by, diagram) as DIR/A1-TYPE.md.",
            valueName: "dir"))
    var handoutDirectory: String?

    func validate() throws {
        var targets: [OutputCheck.Target] = []
        if let logFile { targets.append(.file(flag: "--log", path: logFile)) }
        if let diagramFile { targets.append(.file(flag: "--diagram", path: diagramFile)) }
        if let signedDirectory {
            targets.append(.directory(flag: "--signed", path: signedDirectory, files: RunExports.signedFiles))
        }
        if let handoutDirectory { targets.append(.directory(flag: "--handout", path: handoutDirectory, files: [])) }
        do {
            try OutputCheck.check(targets, inputs: catalog.inputs(scenarios: [file]))
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Prints the transcript and writes the exports as the run goes; the verdict comes once
    /// the exports are written (to staged files), so that no PASS is printed for a run whose
    /// outputs failed, and the files are put in place after it.
    func run() throws {
        let scenario = try catalog.loadScenario(file)
        try refuseOtherWorld(scenario)
        try ServeRefusal.refuse(scenario, file: file)
        StagedFile.installCleanup()
        // `--log` writes the replays' answers on each anomaly's line as it streams: they need
        // the verdict, so a first, silent pass finds it (the run is deterministic: the second
        // pass is the same run, and neither holds the run in memory).
        let knownWhatIf =
            logFile == nil || scenario.steps.count > Scenario.whatIfStepLimit ? nil : silentWhatIf(scenario)
        var files = OutputFiles()
        do {
            let (result, records) = try play(scenario, whatIf: knownWhatIf, files: &files)
            if let stopped = result.stopped {
                files.discard()
                Output.error("Error: \(file): \(stopped)")
                throw ExitCode(2)
            }
            // The replays (caused by, prevented by, saved by) need a verdict: none when a step timed out.
            let whatIf =
                result.timeout == nil
                ? knownWhatIf ?? scenario.whatIf(result.simulation, against: against?.policy) : nil
            try stageHandouts(records, scenario: scenario, result: result, whatIf: whatIf, in: &files)
            try files.finish()
            try Output.print(Transcript.verdict(result, scenario: scenario, whatIf: whatIf, glossary: glossary))
            if let against, let whatIf { try Output.print(againstLines(scenario, result, whatIf, against)) }
            try files.commit()
            if !result.passed { throw ExitCode(1) }
        } catch let failure as OutputFiles.Failure {
            files.discard()
            Output.error("Error: \(failure.message)")
            throw ExitCode(2)
        } catch {
            files.discard()
            throw error
        }
    }

    /// The replays' answers for the run, from a pass that keeps and prints nothing.
    private func silentWhatIf(_ scenario: Scenario) -> WhatIfReport? {
        var player = ScenarioPlayer(scenario)
        player.collectsEntries = false
        while !player.stepsDone { player.playStep(slice: 10_000) { _ in } }
        let result = player.finish().result
        guard result.timeout == nil, result.stopped == nil else { return nil }
        return scenario.whatIf(result.simulation, against: against?.policy)
    }

    /// Plays the scenario, printing and exporting in slices as it goes; keeps the records
    /// only for `--handout` (a handout draws the run's diagram).
    private func play(_ scenario: Scenario, whatIf: WhatIfReport?, files: inout OutputFiles) throws
        -> (ScenarioResult, [RunRecord])
    {
        var exports = try RunExports(
            log: logFile, diagram: diagramFile, signed: signedDirectory, environment: scenario.environment.payloadName,
            whatIf: whatIf, files: &files)
        var player = ScenarioPlayer(scenario)
        let keepsRecords = handoutDirectory != nil
        player.collectsEntries = exports.any || keepsRecords || !quiet
        var records: [RunRecord] = []
        func handle(_ more: [RunRecord]) throws {
            try show(more, in: scenario.policy.storekit)
            try exports.add(more)
            if keepsRecords { records += more }
        }
        try Output.print(Transcript.header(scenario, file: file))
        try handle(player.openingRecords)
        while !player.stepsDone {
            // Handled as it comes: a long wait is never held whole.
            try player.playStep(slice: 10_000, flush: handle)
        }
        let (rest, result) = player.finish()
        try handle(rest)
        try exports.finish()
        return (result, records)
    }

    private func show(_ records: [RunRecord], in world: StoreKitWorld) throws {
        guard !quiet else { return }
        try Output.print(records.flatMap { Transcript.lines(for: $0, in: world) })
    }
}
