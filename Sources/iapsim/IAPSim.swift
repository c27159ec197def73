import ArgumentParser
import Foundation
import IAPSimScenario

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "A terminal simulator of in-app purchases and how they go wrong.",
        discussion: "With no subcommand: the sandbox, a live world in the terminal UI (? lists the keys).",
        version: IAPSimVersion.line,
        subcommands: [
            SandboxCommand.self, PlayCommand.self, RunCommand.self, CheckCommand.self,
            ExploreCommand.self, MatrixCommand.self, MergeCommand.self, CertsCommand.self, LearnCommand.self,
            ServeCommand.self,
            CatalogCommand.self,
        ],
        defaultSubcommand: SandboxCommand.self
    )

    /// Like ArgumentParser's `main()`, but a bad flag or argument exits 2 (the scenario
    /// format's "invalid input") instead of 64, with the one message ArgumentParser prints.
    ///
    /// A write to standard output that fails ends the command with one line and status 2.
    /// SIGPIPE is ignored so that a closed pipe is such a failure, not a silent death; a
    /// closed standard stream is held by a read-only /dev/null, so that writes to it fail
    /// and no file the command opens can take its place.
    /// The command line's arguments with their bytes kept (`FileName`): Swift's own
    /// `CommandLine.arguments` turns bytes that are not UTF-8 into U+FFFD, which would make a
    /// file name another name.
    static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in CommandLine.unsafeArgv[i].map { FileName.fromArgument($0) } }
    }

    /// A first word that is neither a flag nor a command (`iapsim frobnicate`) is named as an
    /// unknown command with the commands there are, not refused as an argument of the sandbox
    /// (the default command, which takes none) with the sandbox's usage.
    static func unknownCommand(_ args: [String]) -> String? {
        guard let first = args.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(first), first != "help" else { return nil }
        return "unknown command '\(first)'; the commands are "
            + names.joined(separator: ", ") + " (with none: the sandbox; `iapsim --help` tells more)"
    }

    /// Flags people reach for that are named otherwise here (walkthrough 6: `--catalog` got no
    /// hint, where a misspelt `--polcy` gets ArgumentParser's "Did you mean").
    static let synonyms = [
        "--catalog": "--storekit", "--products": "--storekit", "--grace": "--grace-period", "--preset": "--policy",
        "--against": "--policy",
    ]

    /// A "Did you mean" for an unknown flag that is a synonym of one of ours, in
    /// ArgumentParser's message (at the end of the line that names it, instead of its guess).
    static func synonymHint(_ message: String) -> ((String) -> String)? {
        guard
            let (word, flag) = synonyms.sorted(by: { $0.key < $1.key }).first(where: {
                // Only a flag this command has (its usage line names it).
                message.contains("Unknown option '\($0.key)'") && message.contains("[\($0.value) ")
            })
        else { return nil }
        return { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let i = lines.firstIndex(where: { $0.contains("Unknown option '\(word)'") }) {
                // Ours over ArgumentParser's nearest spelling (`--grace`: `--grace-period`, not `--grants`).
                if let guess = lines[i].range(of: " Did you mean") { lines[i] = String(lines[i][..<guess.lowerBound]) }
                lines[i] += (lines[i].hasSuffix(".") ? "" : ".") + " Did you mean '\(flag)'?"
            }
            return lines.joined(separator: "\n")
        }
    }

    static func main() {
        signal(SIGPIPE, SIG_IGN)
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) < 0 {
            let held = open("/dev/null", O_RDONLY)
            if held >= 0 && held != fd { dup2(held, fd); close(held) }
        }
        let args = arguments()
        if let refusal = unknownCommand(args) {
            Output.error(refusal)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(args)
            try command.run()
        } catch let failure as Output.StandardOutputFailed {
            Output.error(failure.message)
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            // ArgumentParser's message quotes the flags' values as given: made visible too.
            var message = fullMessage(for: error)
            if let hint = synonymHint(message) { message = hint(message) }
            if !message.isEmpty {
                Output.raw(
                    message.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { VisibleText.escaped(String($0)) }.joined(separator: "\n") + "\n")
            }
            Foundation.exit(code.rawValue == 1 || code.rawValue == 3 ? code.rawValue : 2)
        }
    }
}
