import ArgumentParser
import Foundation
import IAPSimScenario

/// Which share of a command's runs this process runs: the run indices `i` with
/// `i % count == index`. N processes with `index` 0 to N-1 run each run exactly once, and each
/// run is the run of the unsharded command (a run depends only on the seed and its index).
struct Shard: Hashable, Sendable, CustomStringConvertible {
    var index: Int
    var count: Int

    /// Every run: what a command runs without `--shard`.
    static let whole = Shard(index: 0, count: 1)
    static let counts = 1...1_000_000
    static let accepted = "I/N: N from 1 to 1000000 and I from 0 to N-1 (e.g. 3/8)"

    var description: String { "\(index)/\(count)" }

    /// `I/N` as `--shard` and `IAPSIM_SHARD` give it; `source` names where it came from.
    static func parse(_ text: String, source: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = whole(parts[0]), let count = whole(parts[1]),
            counts.contains(count), index < count
        else {
            throw ValidationError("\(source) must be \(accepted), got \(VisibleText.escaped(text))")
        }
        return Shard(index: index, count: count)
    }

    private static func whole(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 7, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The lowest run index of this shard in `range`, or nil when it has none there.
    func first(in range: Range<Int>) -> Int? {
        let offset = (index - range.lowerBound % count + count) % count
        let (first, overflow) = range.lowerBound.addingReportingOverflow(offset)
        return overflow || first >= range.upperBound ? nil : first
    }

    /// How many of the run indices in `range` are this shard's.
    func runs(in range: Range<Int>) -> Int {
        guard let first = first(in: range) else { return 0 }
        return (range.upperBound - 1 - first) / count + 1
    }

    /// This shard's `k`th run index in `range` (`k` below `runs(in:)`).
    func run(_ k: Int, in range: Range<Int>) -> Int {
        (first(in: range) ?? range.lowerBound) + k * count
    }

    /// True when run `index` is this shard's.
    func owns(_ run: Int) -> Bool { run % count == index }
}

/// `--shard I/N` and `--shards N`: which share of the runs this process runs, the same flags
/// for `explore`, `matrix` and `serve --explore` (one declaration, one check).
struct ShardFlags: ParsableArguments {
    @Option(
        name: .customLong("shard"),
        help: ArgumentHelp(
            "Run only the run indices i with i % N == I (I from 0); N processes, I = 0 to N-1, run every run once "
                + "(then `iapsim merge`). Default: IAPSIM_SHARD, else every run.",
            valueName: "I/N"))
    var shardText: String?

    @Option(
        name: .customLong("shards"), parsing: .unconditional,
        help: ArgumentHelp(
            "The shard is JOB_COMPLETION_INDEX/N (a Kubernetes Indexed Job sets JOB_COMPLETION_INDEX).",
            valueName: "N"))
    var shardsFlag: NumberFlag?

    /// Each flag's one-line refusal, for the command's `validate()`.
    func check() throws { _ = try resolve(ProcessInfo.processInfo.environment) }

    /// Read after `check()` has.
    var shard: Shard { (try? resolve(ProcessInfo.processInfo.environment)) ?? .whole }

    /// `--shard`, else `--shards N` with `JOB_COMPLETION_INDEX`, else `IAPSIM_SHARD`, else every run.
    func resolve(_ environment: [String: String]) throws -> Shard {
        if let shardText {
            guard shardsFlag == nil else {
                throw ValidationError("--shard and --shards name the shard twice: give one of them")
            }
            return try Shard.parse(shardText, source: "--shard")
        }
        if let shardsFlag {
            let count = try shardsFlag.whole("--shards", in: Shard.counts)
            guard let index = environment["JOB_COMPLETION_INDEX"] else {
                throw ValidationError(
                    "--shards \(count) takes the shard's index from JOB_COMPLETION_INDEX, which is not set; "
                        + "or give --shard I/N")
            }
            return try Shard.parse("\(index)/\(count)", source: "JOB_COMPLETION_INDEX with --shards \(count)")
        }
        if let text = environment["IAPSIM_SHARD"], !text.isEmpty {
            return try Shard.parse(text, source: "IAPSIM_SHARD")
        }
        return .whole
    }
}
