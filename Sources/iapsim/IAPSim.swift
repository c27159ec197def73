import ArgumentParser

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "A terminal simulator of in-app purchases and how they go wrong.",
        subcommands: [RunCommand.self, CheckCommand.self]
    )
    func run() throws { print("iapsim: work in progress") }
}
