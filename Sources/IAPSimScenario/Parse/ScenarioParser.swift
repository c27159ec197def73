import IAPSimCore
import Yams

/// Reads scenario files of format 1 (docs/scenario-format.md) into `Scenario` values.
///
/// Every refusal is a `ScenarioError` with file, line and column. The checks run in this
/// order: the bytes (UTF-8, no binary), what YAML a scenario never needs (`YAMLPreScan`),
/// the YAML syntax, then the document from the top,
/// key by key; the first problem found is the one reported.
package enum ScenarioParser {
    /// Parses a file's bytes; they must be UTF-8 text (a byte order mark is skipped).
    package static func parse(
        bytes: [UInt8], file: String, options: CatalogOptions = CatalogOptions()
    ) throws(ScenarioError) -> Scenario {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = bytes.starts(with: bom) ? Array(bytes.dropFirst(bom.count)) : bytes
        let text = try InputCheck.text(from: body, file: file)
        return try parseChecked(text, file: file, options: options)
    }

    /// Parses text already in memory (a test fixture, the UI's editor).
    package static func parse(
        text: String, file: String, options: CatalogOptions = CatalogOptions()
    ) throws(ScenarioError) -> Scenario {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        try InputCheck.check(text, file: file)
        return try parseChecked(text, file: file, options: options)
    }

    private static func parseChecked(_ text: String, file: String, options: CatalogOptions) throws(ScenarioError)
        -> Scenario
    {
        try YAMLPreScan.check(text, file: file)
        let reader = NodeReader(file: file, text: text)
        guard let root = try compose(text, reader: reader) else {
            throw .emptyFile(at: SourceLocation(file: file, line: 1, column: 1))
        }
        var builder = ScenarioBuilder(reader: reader, options: options)
        return try builder.scenario(from: root)
    }

    /// The YAML tree of `text`, or nil when it holds no document.
    static func compose(_ text: String, reader: NodeReader) throws(ScenarioError) -> Node? {
        do {
            return try Yams.compose(yaml: text, .basic, .default, .utf8)
        } catch let error as YamlError {
            throw YAMLErrorMapping.scenarioError(error, text: text, reader: reader)
        } catch {
            throw .yamlSyntax(
                at: SourceLocation(file: reader.file, line: 1, column: 1),
                problem: String(describing: error))
        }
    }
}
