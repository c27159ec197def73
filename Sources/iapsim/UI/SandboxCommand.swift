import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimTUI

/// `iapsim` (the default) or `iapsim sandbox`: the built-in world, live in the terminal UI.
/// Its options live here, not on the root command, so that `explore --policy` and
/// `explore --seed` stay the subcommand's own.
struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The built-in world, live in the terminal UI (the default; ? lists the keys)."
    )

    @OptionGroup(title: "Catalog") var catalog: CatalogFlags

    @Option(help: "The policy preset: \(PolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
    var policy: PolicyPreset = .hardened

    @Option(name: .customLong("seed"), parsing: .unconditional, help: "The world's seed.")
    var seedFlag = NumberFlag("1")

    // Read after `validate()` has checked it.
    var seed: UInt64 { (try? seedFlag.unsigned("--seed")) ?? 1 }

    @Option(help: ArgumentHelp("The users, comma-separated.", valueName: "a,b"))
    var users: String = "alice,bob"

    @Option(parsing: .unconditional, help: ArgumentHelp(TerminalUI.speedHelp, valueName: "x"))
    var speed: String = "1"

    @Option(
        name: .customLong("grace-period"),
        help: ArgumentHelp(
            "The app's billing grace period (App Store Connect): \(Self.graceWords); default: the catalog's "
                + "_billingGracePeriodEnabled (16d), else off. C changes it live.",
            valueName: "period"))
    var gracePeriod: String?

    static let graceWords = ScenarioVocabulary.gracePeriods.map(\.word).joined(separator: ", ")

    /// `--grace-period` read (`validate()` has checked it); nil when not given.
    var graceMs: VirtualTime?? {
        gracePeriod.map { word in ScenarioVocabulary.gracePeriods.first { $0.word == word }?.ms ?? nil }
    }

    @Flag(name: .customLong("no-color"), help: "No colour (also when NO_COLOR is set).")
    var noColor = false

    @Flag(help: "Random purchases and faults, seeded (demos, soak runs).")
    var autopilot = false

    var userList: [String] {
        users.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func validate() throws {
        _ = try TerminalUI.speed(speed)
        _ = try seedFlag.unsigned("--seed")
        if let gracePeriod, !ScenarioVocabulary.gracePeriods.contains(where: { $0.word == gracePeriod }) {
            throw ValidationError(
                "--grace-period: \"\(gracePeriod)\" is not a billing grace period; accepted: \(Self.graceWords) "
                    + "(App Store Connect's 3, 16 or 28 days, or none)")
        }
        let names = userList
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw ValidationError("--users: name \(empty + 1) is empty in \"\(users)\"")
        }
        // The scenario format's rule for user names (so that `s` saves a file that reads back).
        if let bad = names.first(where: { !ScenarioVocabulary.isUserName($0) }) {
            throw ValidationError("--users: \"\(bad)\" is not a user name (letters, digits, _ - . only)")
        }
        if names.count > ScenarioVocabulary.maxUsers {
            throw ValidationError("--users: \(names.count) names; the limit is \(ScenarioVocabulary.maxUsers)")
        }
        if let long = names.first(where: { $0.count > ScenarioVocabulary.maxUserNameLength }) {
            throw ValidationError(
                "--users: a name is too long (\(long.count) characters); "
                    + "the limit is \(ScenarioVocabulary.maxUserNameLength)")
        }
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ValidationError("--users: \"\(twice)\" appears twice")
        }
    }

    /// The sandbox UI.
    func run() throws {
        let names = userList
        let loaded = try catalog.load()
        // A scenarios/ folder where the sandbox starts: `O`, `]` and `[` open its files.
        let playlist = PlaylistFiles.list("scenarios")
        try TerminalUI.launch(noColor: noColor, autopilot: autopilot, speed: try TerminalUI.speed(speed)) { options in
            var model = UIModel(
                seed: seed, users: names, preset: policy, options: options, catalog: loaded,
                storekitPath: catalog.storekit.map(TerminalUI.absolutePath), gracePeriodMs: graceMs)
            model.playlist = playlist
            (model.playlistGroups, model.playlistTitles) = PlaylistFiles.describe(playlist)
            return model
        }
    }

}
