import Yams

/// A YAML document as plain values with their positions, for files other than scenarios
/// (`iapsim serve`'s `serve.yaml`): the modules that read them need not import Yams.
package struct PlainYAML: Sendable, Equatable {
    package indirect enum Value: Sendable, Equatable {
        case scalar(String)
        case map([Entry])
        case list([PlainYAML])
    }

    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: PlainYAML
    }

    package var value: Value
    /// 1-based line and column where the value starts.
    package var line: Int
    package var column: Int

    /// Reads `text`; the error names line and column. The text is bounded as a scenario's
    /// is (`YAMLPreScan`: aliases, keys in one map, values in all, complex keys), and the
    /// values the tree holds once its aliases are expanded are counted too (at most
    /// `YAMLPreScan.maxNodes`), so that a few hundred bytes of nested aliases cannot build
    /// a tree of billions of values.
    package static func parse(_ text: String) throws(PlainYAMLError) -> PlainYAML? {
        if let problem = YAMLPreScan.problem(in: text, kind: "this file") {
            throw PlainYAMLError(line: problem.line, column: problem.column, message: problem.text)
        }
        do {
            guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else { return nil }
            var budget = YAMLPreScan.maxNodes
            return try plain(node, budget: &budget)
        } catch let error as PlainYAMLError {
            throw error
        } catch let error as YamlError {
            throw PlainYAMLError(line: 1, column: 1, message: "not valid YAML: \(error)")
        } catch {
            throw PlainYAMLError(line: 1, column: 1, message: "not valid YAML: \(error)")
        }
    }

    private static func plain(_ node: Node, budget: inout Int) throws -> PlainYAML {
        let line = node.mark?.line ?? 1
        let column = node.mark?.column ?? 1
        budget -= 1
        guard budget >= 0 else {
            throw PlainYAMLError(
                line: line, column: column,
                message: "more than \(YAMLPreScan.maxNodes) values once its aliases are expanded; "
                    + "this file needs at most \(YAMLPreScan.maxNodes)")
        }
        switch node {
        case .scalar(let s): return PlainYAML(value: .scalar(s.string), line: line, column: column)
        case .sequence(let seq):
            var items: [PlainYAML] = []
            for item in seq { items.append(try plain(item, budget: &budget)) }
            return PlainYAML(value: .list(items), line: line, column: column)
        case .mapping(let map):
            var entries: [Entry] = []
            var keys: Set<String> = []
            for (k, v) in map {
                guard case .scalar(let key) = k else {
                    throw PlainYAMLError(line: line, column: column, message: "a key must be a plain word")
                }
                guard keys.insert(key.string).inserted else {
                    throw PlainYAMLError(
                        line: k.mark?.line ?? 1, column: k.mark?.column ?? 1,
                        message: "'\(key.string)' appears twice")
                }
                entries.append(Entry(key: key.string, value: try plain(v, budget: &budget)))
            }
            return PlainYAML(value: .map(entries), line: line, column: column)
        @unknown default:
            throw PlainYAMLError(line: line, column: column, message: "anchors and aliases are not accepted")
        }
    }

    /// The text of a scalar, or nil.
    package var text: String? {
        if case .scalar(let s) = value { return s }
        return nil
    }

    /// The entries of a map, or nil.
    package var entries: [Entry]? {
        if case .map(let e) = value { return e }
        return nil
    }
}

package struct PlainYAMLError: Error, Sendable, Equatable {
    package var line: Int
    package var column: Int
    package var message: String
}

extension PlainYAML {
    /// The text of the file at `path`, read as a scenario file is (`ScenarioParser.load`):
    /// only a regular file (never a FIFO or a device), at most `ScenarioParser.maxFileBytes`,
    /// UTF-8 text with no binary; a byte order mark is skipped. The error is one line,
    /// `FILE:LINE:COLUMN: what is wrong`.
    package static func readFile(_ path: String) throws(ScenarioError) -> String {
        let bytes = try ScenarioParser.readRegularFile(path)
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        return try InputCheck.text(from: bytes.starts(with: bom) ? Array(bytes.dropFirst(3)) : bytes, file: path)
    }
}
