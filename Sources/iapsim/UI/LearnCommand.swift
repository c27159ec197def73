import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimTUI

/// `iapsim learn`: a guided tour through the anomaly types in the terminal UI. Each lesson
/// plays the naive scenario, stops with a question before the step that decides it, opens
/// the auditor's inspector on the anomaly, then runs the same steps under the hardened
/// file's policy beside it (the split screen).
struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract:
            "A guided tour of the anomaly types: each naive scenario, a question, the inspector, the fix beside it.",
        discussion:
            "] and [ move between lessons; every key of play works. Exit status: 0 on q, 2 when a file is missing or invalid."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Option(help: ArgumentHelp("The folder of the shipped scenarios.", valueName: "DIR"))
    var scenarios = "scenarios"

    @Option(help: "Start at this anomaly type's lesson: \(Lesson.plan.map(\.type.rawValue).joined(separator: ", ")).")
    var from: String?

    @Flag(name: .customLong("no-color"), help: "No colour (also when NO_COLOR is set).")
    var noColor = false

    @Option(parsing: .unconditional, help: ArgumentHelp(TerminalUI.speedHelp, valueName: "x"))
    var speed: String = "1"

    func validate() throws {
        _ = try TerminalUI.speed(speed)
        if let from, !Lesson.plan.contains(where: { $0.type.rawValue == from }) {
            throw ValidationError(
                "--from: \(from) is not a lesson; one of \(Lesson.plan.map(\.type.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        var tour = Tour(lessons: try lessons())
        if let from, let index = tour.lessons.firstIndex(where: { $0.type.rawValue == from }) { tour.index = index }
        try TerminalUI.launch(noColor: noColor, autopilot: false, speed: try TerminalUI.speed(speed)) { options in
            UIModel(tour: tour, options: options)
        }
    }

    /// Every lesson's two files, read and checked before the UI starts.
    func lessons() throws -> [Lesson] {
        try Lesson.plan.map { row in
            Lesson(
                type: row.type, naive: try load(row.naive), hardened: try load(row.hardened),
                askBefore: row.askBefore, question: row.question)
        }
    }

    func load(_ name: String) throws -> ScenarioFile {
        let path = (scenarios as NSString).appendingPathComponent(name)
        // The lessons are the shipped scenarios: outside the checkout, say where to find them.
        guard FileManager.default.fileExists(atPath: path) else {
            Output.error(
                "\(path): no such file; the lessons are the shipped scenarios: run `iapsim learn` from the "
                    + "checkout, or give their folder with --scenarios DIR")
            throw ExitCode(2)
        }
        do {
            return ScenarioFile(path: path, scenario: try ScenarioParser.load(path: path, options: catalog.options))
        } catch {
            Output.error(error.description)
            throw ExitCode(2)
        }
    }
}
