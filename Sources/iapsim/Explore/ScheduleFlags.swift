import ArgumentParser

/// `--seed`, `--jobs` and `--steps`: how explore's random schedules are drawn and run, the
/// same flags for `explore` and `matrix` (one declaration, one check).
struct ScheduleFlags: ParsableArguments {
    @Option(
        name: .customLong("seed"), parsing: .unconditional,
        help: "The explore seed; each run's seed derives from it and the run's index.")
    var seedFlag = NumberFlag("1")

    @Option(
        name: .customLong("jobs"), parsing: .unconditional,
        help: "Threads to run on; the results do not depend on it.")
    var jobsFlag = NumberFlag("1")

    @Option(name: .customLong("steps"), parsing: .unconditional, help: "Steps per generated schedule.")
    var stepsFlag = NumberFlag("24")

    @OptionGroup var swarmFlags: SwarmFlags

    // Read after `check()` has.
    var swarm: Bool { swarmFlags.swarm }
    var seed: UInt64 { (try? seedFlag.unsigned("--seed")) ?? 1 }
    var jobs: Int { (try? jobsFlag.whole("--jobs", in: FlagRange.jobs)) ?? 1 }
    var steps: Int { (try? stepsFlag.whole("--steps", in: FlagRange.steps)) ?? 1 }

    /// Each flag's one-line refusal, for the command's `validate()`.
    func check() throws {
        _ = try seedFlag.unsigned("--seed")
        _ = try jobsFlag.whole("--jobs", in: FlagRange.jobs)
        _ = try stepsFlag.whole("--steps", in: FlagRange.steps)
        _ = try swarmFlags.swarmFlag.value()
    }
}

/// `--swarm on|off` of explore, matrix and serve --explore (one declaration, one check).
struct SwarmFlags: ParsableArguments {
    @Option(
        name: .customLong("swarm"),
        help: ArgumentHelp(
            "on: each run draws its own weight for each fault family from its seed; off: one fixed mix.",
            valueName: "on|off"))
    var swarmFlag = SwarmFlag("off")

    // Read after `swarmFlag.value()` has been checked.
    var swarm: Bool { (try? swarmFlag.value()) ?? false }
}

/// `--swarm on|off`, read by `value()` in `validate()`: anything else is refused with the
/// two words accepted.
struct SwarmFlag: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var text: String

    init(_ text: String) { self.text = text }
    init?(argument: String) { text = argument }
    var description: String { text }

    func value() throws -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw ValidationError("--swarm must be on or off, got \(text)")
        }
    }
}
