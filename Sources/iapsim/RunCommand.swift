import ArgumentParser
import Foundation
import IAPSimScenario

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

    @Option(name: .customLong("log"),
            help: ArgumentHelp("Also write the run as JSON Lines to this file.",
                               valueName: "file.jsonl"))
    var logFile: String?

    @Option(name: .customLong("diagram"),
            help: ArgumentHelp("Also write a Mermaid sequence diagram of the run to this file.",
                               valueName: "file.md"))
    var diagramFile: String?

    @Flag(help: "Print only the title and the verdict, not the event log and narration.")
    var quiet = false

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(path: file)
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
        var player = ScenarioPlayer(scenario)
        var records = player.openingRecords
        Output.print(Transcript.header(scenario, file: file))
        show(records)
        while !player.stepsDone {
            let more = player.playStep()
            show(more)
            records += more
        }
        let (rest, result) = player.finish()
        show(rest)
        records += rest
        Output.print(Transcript.verdict(result, scenario: scenario))
        try export(records)
        if !result.passed { throw ExitCode(1) }
    }

    private func show(_ records: [RunRecord]) {
        guard !quiet else { return }
        Output.print(records.flatMap(Transcript.lines(for:)))
    }

    private func export(_ records: [RunRecord]) throws {
        if let logFile { try Output.write(JSONLinesExport.text(records), to: logFile) }
        if let diagramFile { try Output.write(MermaidExport.diagram(records), to: diagramFile) }
    }
}

/// The executable's only ways out: standard output, standard error, and files it was asked
/// to write.
enum Output {
    static func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes `text` to `path`; a failure is bad input (exit 2).
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            Self.error("\(path): cannot write: \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
