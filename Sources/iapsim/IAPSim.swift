import ArgumentParser
import Foundation

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "A terminal simulator of in-app purchases and how they go wrong.",
        discussion: "With no subcommand: the sandbox, a live world in the terminal UI (? lists the keys).",
        subcommands: [SandboxCommand.self, PlayCommand.self, RunCommand.self, CheckCommand.self,
                      ExploreCommand.self, MatrixCommand.self, CertsCommand.self],
        defaultSubcommand: SandboxCommand.self
    )

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
