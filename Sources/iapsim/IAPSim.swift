import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimTUI

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "A terminal simulator of in-app purchases and how they go wrong.",
        discussion: "With no subcommand: the sandbox, a live world in the terminal UI (? lists the keys).",
        subcommands: [PlayCommand.self, RunCommand.self, CheckCommand.self, ExploreCommand.self,
                      MatrixCommand.self]
    )

    @Option(help: "The policy preset: \(PolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
    var policy: PolicyPreset = .hardened

    @Option(help: "The world's seed.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The users, comma-separated.", valueName: "a,b"))
    var users: String = "alice,bob"

    @Option(help: ArgumentHelp(TerminalUI.speedHelp, valueName: "x"))
    var speed: Double = 1

    @Flag(name: .customLong("no-color"), help: "No colour (also when NO_COLOR is set).")
    var noColor = false

    @Flag(help: "Random purchases and faults, seeded (demos, soak runs).")
    var autopilot = false

    var userList: [String] {
        users.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func validate() throws {
        try TerminalUI.validate(speed: speed)
        let names = userList
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw ValidationError("--users: name \(empty + 1) is empty in \"\(users)\"")
        }
        // The scenario format's rule for user names (so that `s` saves a file that reads back).
        if let bad = names.first(where: { name in
            !name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0)
                || $0 == "_" || $0 == "-" || $0 == "." }
        }) {
            throw ValidationError("--users: \"\(bad)\" is not a user name (letters, digits, _ - . only)")
        }
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ValidationError("--users: \"\(twice)\" appears twice")
        }
    }

    /// The sandbox UI.
    func run() throws {
        let names = userList
        try TerminalUI.launch(noColor: noColor, autopilot: autopilot, speed: speed) { options in
            UIModel(seed: seed, users: names, preset: policy, options: options)
        }
    }

    /// Like ArgumentParser's `main()`, but a bad flag or argument exits 2 (the scenario
    /// format's "invalid input") instead of 64, with the one message ArgumentParser prints.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success || code.rawValue == 1 || code.rawValue == 2 { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(2)
        }
    }
}
