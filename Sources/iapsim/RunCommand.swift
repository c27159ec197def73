import ArgumentParser
import Foundation
import IAPSimCore
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
        var outputs = [("--log", logFile), ("--diagram", diagramFile)]
            .compactMap { flag, path in path.map { (flag: flag, path: $0) } }
        if let signedDirectory {
            var info = stat()
            if stat(signedDirectory, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw ValidationError("--signed \(signedDirectory): not a directory")
                }
                outputs += Self.signedFiles.map { (flag: "--signed", path: signedDirectory + "/" + $0) }
            }
        }
        do {
            try OutputFiles.check(outputs: outputs, inputs: [file])
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Prints the transcript as the run goes; the verdict comes once the exports are written
    /// (to temporary files), so that no PASS is printed for a run whose outputs failed.
    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(path: file)
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
        var player = ScenarioPlayer(scenario)
        // The records are kept only for the exports: a long run prints as it goes.
        let keepsRecords = logFile != nil || diagramFile != nil || signedDirectory != nil
        player.collectsEntries = keepsRecords || !quiet
        var records: [RunRecord] = []
        let opening = player.openingRecords
        try Output.print(Transcript.header(scenario, file: file))
        try show(opening)
        if keepsRecords { records += opening }
        while !player.stepsDone {
            if keepsRecords {
                let more = player.playStep()
                try show(more)
                records += more
            } else {
                // Printed as it comes: a long wait is never held whole.
                try player.playStep(slice: 10_000) { try show($0) }
            }
        }
        let (rest, result) = player.finish()
        try show(rest)
        if keepsRecords { records += rest }
        var files = OutputFiles()
        do {
            try stageExports(records, environment: scenario.environment, in: &files)
            try Output.print(Transcript.verdict(result, scenario: scenario))
            try files.commit()
        } catch let failure as OutputFiles.Failure {
            Output.error(failure.message)
            throw ExitCode(2)
        } catch {
            files.discard()
            throw error
        }
        if !result.passed { throw ExitCode(1) }
    }

    private func show(_ records: [RunRecord]) throws {
        guard !quiet else { return }
        try Output.print(records.flatMap(Transcript.lines(for:)))
    }

    private func stageExports(
        _ records: [RunRecord], environment: IAPSimCore.StoreEnvironment, in files: inout OutputFiles
    ) throws {
        if let logFile { try files.stage(JSONLinesExport.text(records), to: logFile) }
        if let diagramFile { try files.stage(MermaidExport.diagram(records), to: diagramFile) }
        if let signedDirectory {
            do {
                try SignedDataFiles.makeDirectory(signedDirectory)
            } catch {
                throw OutputFiles.Failure(message: "--signed \(signedDirectory): \(error)")
            }
            let writer = try SignedDataWriter(environment: environment.payloadName)
            try SignedExport.sign(records, with: writer)
            try files.stage(bytes: writer.rootCertificate, to: signedDirectory + "/root.cer")
            try files.stage(writer.jsonLines, to: signedDirectory + "/signed.jsonl")
        }
    }

    /// What `--signed DIR` writes in DIR.
    static let signedFiles = ["root.cer", "signed.jsonl"]
}
