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

    /// Reads `text`; the error names line and column.
    package static func parse(_ text: String) throws(PlainYAMLError) -> PlainYAML? {
        do {
            guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else { return nil }
            return try plain(node)
        } catch let error as PlainYAMLError {
            throw error
        } catch let error as YamlError {
            throw PlainYAMLError(line: 1, column: 1, message: "not valid YAML: \(error)")
        } catch {
            throw PlainYAMLError(line: 1, column: 1, message: "not valid YAML: \(error)")
        }
    }

    private static func plain(_ node: Node) throws -> PlainYAML {
        let line = node.mark?.line ?? 1
        let column = node.mark?.column ?? 1
        switch node {
        case .scalar(let s): return PlainYAML(value: .scalar(s.string), line: line, column: column)
        case .sequence(let seq): return PlainYAML(value: .list(try seq.map(plain)), line: line, column: column)
        case .mapping(let map):
            var entries: [Entry] = []
            for (k, v) in map {
                guard case .scalar(let key) = k else {
                    throw PlainYAMLError(line: line, column: column, message: "a key must be a plain word")
                }
                if entries.contains(where: { $0.key == key.string }) {
                    throw PlainYAMLError(
                        line: k.mark?.line ?? 1, column: k.mark?.column ?? 1,
                        message: "'\(key.string)' appears twice")
                }
                entries.append(Entry(key: key.string, value: try plain(v)))
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
