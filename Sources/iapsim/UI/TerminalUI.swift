import ArgumentParser
import Foundation
import IAPSimCurses
import IAPSimScenario
import IAPSimTUI

/// Starting the terminal UI from a command: the terminal check, the options from flags and
/// the environment, and the exit status.
enum TerminalUI {
    static let notATerminal =
        "iapsim: the terminal UI needs a terminal; "
        + "for headless runs use `iapsim run FILE` or `iapsim check`"

    /// `path` from the working directory: what a saved session's `storekit:` names, so that
    /// the file reads back from wherever it is saved.
    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `--speed`'s help and check.
    static let speedHelp =
        "Virtual seconds per wall second: "
        + UIModel.speeds.map(speedText).joined(separator: ", ") + "."

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(speed)
    }

    /// The `--speed` given, as one of `UIModel.speeds`: matched by its words, so that no
    /// value (`inf`, `1e309`, `-1`, `nan`) is ever turned into a number to be refused.
    static func speed(_ text: String) throws -> Double {
        let offered = UIModel.speeds.map { (text: speedText($0), value: $0) }
        if let match = offered.first(where: { $0.text == text }) { return match.value }
        // Other spellings of the same values (`1.0`, `.5`, `0.50`), read only when short and plain.
        if text.count <= 8, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text), let match = offered.first(where: { $0.value == value })
        {
            return match.value
        }
        throw ValidationError(
            "--speed must be one of \(offered.map(\.text).joined(separator: ", ")), got \(text)")
    }

    /// Runs the UI; returns when it quits with status 0, exits with 128 + the signal when a
    /// signal stopped it, throws `ExitCode(2)` when there is no terminal to run on.
    static func launch(
        noColor: Bool, autopilot: Bool, speed: Double, record: String? = nil,
        makeModel: (UIOptions) -> UIModel
    ) throws {
        guard CursesApp.haveTerminal else {
            Output.error(notATerminal)
            throw ExitCode(2)
        }
        let env = CursesApp.environment(noColorFlag: noColor)
        let options = UIOptions(color: env.color, ascii: env.ascii, autopilot: autopilot, speed: speed)
        let exit: CursesExit
        do {
            exit = try CursesApp.run(options: options, record: record, open: PlaylistFiles.open, makeModel: makeModel)
        } catch {
            Output.error("iapsim: \(error)")
            throw ExitCode(2)
        }
        // The terminal is restored by now: say where the recording went.
        if let record {
            print(VisibleText.escaped("recorded \(record); ") + "`asciinema play \(ShellWord.quoted(record))` shows it")
        }
        // A signal's status does not fit ExitCode's 0/1/2.
        if exit.status != 0 { Foundation.exit(exit.status) }
    }
}
