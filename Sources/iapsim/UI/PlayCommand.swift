import ArgumentParser
import Foundation
import IAPSimScenario
import IAPSimTUI

/// `iapsim play FILE`: a scenario in the terminal UI, one step at a time, with its story.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a scenario in the terminal UI: its story, one step per Enter, G to the end.",
        discussion:
            "Exit status: 0 on q, 2 when the file is invalid, there is no terminal, or the recording cannot be written."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Argument(help: "The scenario file (YAML, format 1).")
    var file: String

    @Argument(help: "More files: ] and [ move between them (default: every file of FILE's folder).")
    var more: [String] = []

    @Flag(name: .customLong("no-color"), help: "No colour (also when NO_COLOR is set).")
    var noColor = false

    @Option(parsing: .unconditional, help: ArgumentHelp(TerminalUI.speedHelp, valueName: "x"))
    var speed: String = "1"

    @Option(
        help: ArgumentHelp(
            "Record what the screen shows to FILE (asciicast v2, for asciinema).",
            valueName: "FILE"))
    var record: String?

    func validate() throws {
        _ = try TerminalUI.speed(speed)
        // Checked now, not when the recording is written at the end of the session.
        if let record {
            do {
                try OutputCheck.check(
                    [.file(flag: "--record", path: record)],
                    inputs: catalog.inputs(scenarios: ScenarioFiles.expand([file] + more)))
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    func run() throws {
        let scenario = try catalog.loadScenario(file)
        try ServeRefusal.refuse(scenario, file: file)
        let playlist = PlaylistFiles.playlist([file] + more)
        try TerminalUI.launch(
            noColor: noColor, autopilot: false, speed: try TerminalUI.speed(speed), record: record
        ) { options in
            var model = UIModel(play: scenario, file: file, options: options)
            model.playlist = playlist
            (model.playlistGroups, model.playlistTitles) = PlaylistFiles.describe(playlist)
            return model
        }
    }
}
