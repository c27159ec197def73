import IAPSimCore
import IAPSimScenario
import IAPSimTUI

/// The generated blocks of the docs: each is a Markdown table (or list) rendered from one of
/// the code's own tables, written between `<!-- generated: NAME -->` and
/// `<!-- /generated: NAME -->`. Prose around the blocks is hand-written; `swift run iapsim-docs`
/// rewrites the blocks, and a test fails when a committed file differs from them.
package enum DocBlocks {
    /// The files that hold generated blocks, relative to the package's root.
    package static let files = ["README.md", "docs/scenario-format.md", "docs/world.md", "docs/server-api.md"]

    /// Every block, by name, with what renders it.
    package static let all: [(name: String, render: @Sendable () -> String)] = [
        ("keys", { KeyBinding.markdownTable }),
        ("top-level-keys", topLevelKeys),
        ("triggers", triggers),
        ("commands", commands),
        ("routes", routes),
        ("expectations", expectations),
        ("limits", limits),
        ("policy-keys", { policyKeys(PolicyKeySpec.table.filter { $0.world != .serverSide }) }),
        ("server-side-keys", { policyKeys(PolicyKeySpec.table.filter { $0.world == .serverSide }) }),
        ("preset-summaries", presetSummaries),
        ("presets", presets),
        ("anomaly-types", anomalyTypes),
        ("anomaly-statuses", anomalyStatuses),
        ("api-endpoints", apiEndpoints),
        ("api-rate-limits", apiRateLimits),
    ]

    /// The names of every block, in order.
    package static var names: [String] { all.map(\.name) }

    /// The text of the block `name`, or nil when there is no such block.
    package static func render(_ name: String) -> String? { all.first { $0.name == name }?.render() }

    static func topLevelKeys() -> String {
        Markdown.table(
            ["key", "required", "meaning"],
            ScenarioVocabulary.topLevel.map { [Markdown.code($0.key), $0.required ? "yes" : "no", $0.meaning] })
    }

    static func triggers() -> String {
        Markdown.table(
            ["event", "what it waits for"], TriggerEvent.allCases.map { [Markdown.code($0.rawValue), $0.meaning] })
    }

    static func commands() -> String {
        Markdown.table(["command", "what happens"], CommandSpec.all.map { [Markdown.code($0.usage), $0.doc] })
    }

    /// The App Store Server API lookalike's endpoints, as its router matches them.
    static func apiEndpoints() -> String {
        Markdown.table(
            ["method and path", "Apple's name", "answer"],
            ServerAPIEndpoint.allCases.map { [Markdown.code("\($0.method) \($0.path)"), $0.appleName, $0.answer] })
    }

    /// Its rate limits, as it counts them.
    static func apiRateLimits() -> String {
        Markdown.table(
            ["endpoint", "counted as", "production", "sandbox"],
            ServerAPIEndpoint.allCases.map {
                [
                    $0.appleName, Markdown.code($0.rateLimitName), "\($0.perSecond(in: .production)) a second",
                    "\($0.perSecond(in: .sandbox)) a second",
                ]
            })
    }

    static func routes() -> String {
        Markdown.table(["route", "what it carries"], Route.allCases.map { [Markdown.code($0.rawValue), $0.meaning] })
    }

    static func expectations() -> String {
        Markdown.table(["key", "holds when"], Expectations.table.map { [Markdown.code($0.written), $0.holds] })
    }

    static func limits() -> String {
        Markdown.table(["what", "limit"], ScenarioVocabulary.limits.map { [$0.what, $0.limit] })
    }

    static func policyKeys(_ rows: [PolicyKeySpec]) -> String {
        Markdown.table(
            ["key", "read in", "values", "what it decides"],
            rows.map { [Markdown.code($0.key.rawValue), $0.world.rawValue, $0.accepted, $0.doc] })
    }

    static func presetSummaries() -> String {
        Markdown.table(
            ["preset", "world", "what it is"],
            PolicyPreset.allCases.map { preset in
                [
                    Markdown.code(preset.rawValue), "StoreKit " + PolicyKey.storekit.spec.value(in: preset),
                    preset.summary,
                ]
            })
    }

    static func presets() -> String {
        Markdown.table(
            ["key"] + PolicyPreset.allCases.map { Markdown.code($0.rawValue) },
            PolicyKeySpec.table.map { spec in
                [Markdown.code(spec.key.rawValue)] + PolicyPreset.allCases.map { spec.value(in: $0) }
            })
    }

    /// Each type's meaning, and its words in StoreKit 2 where they differ.
    static func anomalyTypes() -> String {
        Markdown.table(
            ["type", "meaning", "in StoreKit 2"],
            AnomalyType.allCases.map { type in
                let two = type.meaning(in: .two)
                return [Markdown.code(type.rawValue), type.meaning, two == type.meaning ? "the same" : two]
            })
    }

    static func anomalyStatuses() -> String {
        Markdown.table(["status", "meaning"], AnomalyStatus.allCases.map { [Markdown.code($0.rawValue), $0.meaning] })
    }
}

/// The Markdown the blocks are written in.
enum Markdown {
    /// A table: a header row, the separator, one row per item; a `|` in a cell is escaped.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        func row(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
        }
        return row(header) + "|" + String(repeating: "---|", count: header.count) + "\n" + rows.map(row).joined()
    }

    /// Code text: `word`.
    static func code(_ text: String) -> String { "`" + text + "`" }
}

extension String {
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
