import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimTUI
import Testing

@testable import IAPSimDocs

/// The docs' vocabulary tables are the code's tables: every committed generated block is what
/// `swift run iapsim-docs` writes, and every entry of the tables says what it is.
@Suite struct GeneratedDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func committed(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    @Test(arguments: DocBlocks.files)
    func everyGeneratedBlockIsWhatTheCodeGenerates(_ file: String) throws {
        let text = try Self.committed(file)
        let blocks = try DocRegeneration.blocks(in: text)
        #expect(!blocks.isEmpty, "\(file) has no generated block")
        for block in blocks where block.isStale {
            Issue.record(
                "\(file):\(block.line): block '\(block.name)' differs from the code's table; run `swift run iapsim-docs`"
            )
        }
        #expect(try DocRegeneration.regenerate(text) == text, "\(file): run `swift run iapsim-docs`")
    }

    @Test func everyBlockAppearsInTheDocsExactlyOnce() throws {
        var names: [String] = []
        for file in DocBlocks.files { names += try DocRegeneration.blocks(in: Self.committed(file)).map(\.name) }
        #expect(names.sorted() == DocBlocks.names.sorted())
    }

    @Test func anUnknownBlockNameIsRefusedNamingTheLineAndTheBlocks() {
        let text = "# t\n\n<!-- generated: colours -->\nx\n<!-- /generated: colours -->\n"
        #expect(throws: DocRegeneration.Failure.self) { try DocRegeneration.regenerate(text) }
        do {
            _ = try DocRegeneration.regenerate(text)
        } catch {
            #expect(error.line == 3)
            #expect(error.problem.hasPrefix("unknown generated block 'colours'; blocks are: keys, top-level-keys,"))
        }
    }

    @Test func aBlockNeverClosedOrClosedTwiceIsRefused() {
        #expect(throws: DocRegeneration.Failure(line: 2, problem: "block 'routes' is never closed")) {
            try DocRegeneration.regenerate("a\n<!-- generated: routes -->\nb\n")
        }
        #expect(throws: DocRegeneration.Failure(line: 1, problem: "'routes' closes a block that is not open")) {
            try DocRegeneration.regenerate("<!-- /generated: routes -->\n")
        }
        #expect(
            throws: DocRegeneration.Failure(line: 2, problem: "block 'limits' opens inside 'routes'")
        ) {
            try DocRegeneration.regenerate("<!-- generated: routes -->\n<!-- generated: limits -->\n")
        }
    }

    @Test func regenerationRewritesTheBlockAndKeepsTheProse() throws {
        let text = "Prose before.\n<!-- generated: routes -->\n| old |\n<!-- /generated: routes -->\nProse after."
        let written = try DocRegeneration.regenerate(text)
        #expect(
            written
                == "Prose before.\n<!-- generated: routes -->\n" + DocBlocks.routes()
                + "<!-- /generated: routes -->\nProse after.")
        #expect(try DocRegeneration.blocks(in: text).map(\.isStale) == [true])
        #expect(try DocRegeneration.blocks(in: written).map(\.isStale) == [false])
        #expect(try DocRegeneration.regenerate(written) == written)
    }

    @Test func aTableEscapesPipesAndHasOneRowPerEntry() {
        #expect(Markdown.table(["a", "b"], [["x|y", "z"]]) == "| a | b |\n|---|---|\n| x\\|y | z |\n")
        let commands = DocBlocks.commands().split(separator: "\n")
        #expect(commands.count == CommandSpec.all.count + 2)
        let presets = DocBlocks.presets().split(separator: "\n")
        #expect(presets.count == PolicyKeySpec.table.count + 2)
        #expect(presets.first?.split(separator: "|").count == PolicyPreset.allCases.count + 1)
        let keys = DocBlocks.policyKeys(PolicyKeySpec.table).split(separator: "\n")
        #expect(keys.count == PolicyKey.allCases.count + 2)
    }

    /// A new command, trigger, route, anomaly type or status, expectation, top-level key,
    /// policy key or preset must say what it is: the docs print this.
    @Test func everyEntryOfEveryTableSaysWhatItIs() {
        let described: [(String, String)] =
            CommandSpec.all.map { ("command \($0.word)", $0.doc) }
            + TriggerEvent.allCases.map { ("trigger \($0.rawValue)", $0.meaning) }
            + Route.allCases.map { ("route \($0.rawValue)", $0.meaning) }
            + AnomalyType.allCases.map { ("anomaly type \($0.rawValue)", $0.meaning) }
            + AnomalyStatus.allCases.map { ("anomaly status \($0.rawValue)", $0.meaning) }
            + Expectations.table.map { ("expect key \($0.key)", $0.holds) }
            + ScenarioVocabulary.topLevel.map { ("top-level key \($0.key)", $0.meaning) }
            + PolicyKeySpec.table.map { ("policy key \($0.key.rawValue)", $0.help) }
            + PolicyPreset.allCases.map { ("preset \($0.rawValue)", $0.summary) }
            + KeyBinding.all.map { ("key \($0.written)", $0.help) }
        let empty = described.filter { $0.1.trimmingCharacters(in: .whitespaces).isEmpty }.map(\.0)
        #expect(empty.isEmpty, "say what these are (the docs print it): \(empty.joined(separator: ", "))")
    }

    @Test func theLimitsAreTheConstants() {
        #expect(ScenarioVocabulary.limitText(20_000) == "20,000")
        #expect(ScenarioVocabulary.limitText(1_234_567) == "1,234,567")
        #expect(ScenarioVocabulary.limitText(100) == "100")
        let limits = Dictionary(uniqueKeysWithValues: ScenarioVocabulary.limits.map { ($0.what, $0.limit) })
        #expect(limits["steps"] == "20,000" && ScenarioVocabulary.maxSteps == 20_000)
        #expect(limits["file size"]?.hasPrefix("4 MiB") == true && ScenarioParser.maxFileBytes == 4 << 20)
        #expect(limits["a duration"] == "400 days")
    }
}
