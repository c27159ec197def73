import ArgumentParser
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

    func validate() throws {
        var targets: [OutputCheck.Target] = []
        if let logFile { targets.append(.file(flag: "--log", path: logFile)) }
        if let diagramFile { targets.append(.file(flag: "--diagram", path: diagramFile)) }
        if let signedDirectory {
            targets.append(.directory(flag: "--signed", path: signedDirectory, files: RunExports.signedFiles))
        }
        do {
            try OutputCheck.check(targets, inputs: [file])
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Prints the transcript and writes the exports as the run goes; the verdict comes once
    /// the exports are written (to staged files), so that no PASS is printed for a run whose
    /// outputs failed, and the files are put in place after it.
    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(path: file)
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
        StagedFile.installCleanup()
        var files = OutputFiles()
        do {
            let result = try play(scenario, files: &files)
            if let stopped = result.stopped {
                files.discard()
                Output.error("Error: \(file): \(stopped)")
                throw ExitCode(2)
            }
            try files.finish()
            try Output.print(Transcript.verdict(result, scenario: scenario))
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

    /// Plays the scenario, printing and exporting in slices as it goes.
    private func play(_ scenario: Scenario, files: inout OutputFiles) throws -> ScenarioResult {
        var exports = try RunExports(log: logFile, diagram: diagramFile, signed: signedDirectory, files: &files)
        var player = ScenarioPlayer(scenario)
        player.collectsEntries = exports.any || !quiet
        func handle(_ records: [RunRecord]) throws {
            try show(records)
            try exports.add(records)
        }
        try Output.print(Transcript.header(scenario, file: file))
        try handle(player.openingRecords)
        while !player.stepsDone {
            // Handled as it comes: a long wait is never held whole.
            try player.playStep(slice: 10_000, flush: handle)
        }
        let (rest, result) = player.finish()
        try handle(rest)
        return result
    }

    private func show(_ records: [RunRecord]) throws {
        guard !quiet else { return }
        try Output.print(records.flatMap(Transcript.lines(for:)))
    }
}
