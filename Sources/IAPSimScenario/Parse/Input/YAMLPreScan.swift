// libyaml itself (Yams' C module): its event stream is linear in the input, while composing
// a tree can cost far more (Yams hashes every key node, and an alias repeats a whole subtree).
import CYaml

/// Reads a file's YAML events once, before Yams builds any tree, and refuses what a scenario
/// never needs and a hostile file uses to stall the parser: keys that are lists, maps or
/// aliases (`? [...]`), more than `maxAliases` aliases, maps of more than `maxMapKeys` keys
/// and more than `maxNodes` values in all. (libyaml itself refuses nesting deeper than 1000.)
/// A syntax error ends the scan quietly: the composer reports it with its own words.
enum YAMLPreScan {
    /// A scenario uses no alias at all; a few are allowed for files that share a `say`.
    static let maxAliases = 100
    /// Every file reader's bounds (`FileLimits`).
    static let maxMapKeys = FileLimits.maxMapKeys
    static let maxNodes = FileLimits.maxValues

    static func check(_ text: String, file: String) throws(ScenarioError) {
        guard let problem = problem(in: text, kind: "a scenario") else { return }
        let at = SourceLocation(file: file, line: problem.line, column: problem.column)
        throw .yamlTooComplex(at: at, problem: problem.text)
    }

    /// The first limit `text` goes over, or nil; `kind` names what the file is in the words
    /// of the message (`a scenario needs at most 100`).
    static func problem(in text: String, kind: String) -> Problem? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            scan(buffer, kind: kind)
        }
    }

    struct Problem {
        var line: Int
        var column: Int
        var text: String
    }

    /// One open collection: a mapping alternates key, value; a sequence holds values.
    private struct Level {
        var isMapping: Bool
        var nextIsKey: Bool
        var keys = 0
    }

    private static func scan(_ buffer: UnsafeMutableBufferPointer<UInt8>, kind: String) -> Problem? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var levels: [Level] = []
        var aliases = 0
        var nodes = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            let type = event.type
            if type == YAML_STREAM_END_EVENT { return nil }
            let mark = event.start_mark
            func problem(_ text: String) -> Problem {
                Problem(line: Int(mark.line) + 1, column: Int(mark.column) + 1, text: text)
            }
            let isNode =
                type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT
                || type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT
            if isNode {
                nodes += 1
                if nodes > maxNodes {
                    return problem(
                        "more than \(maxNodes) values (lists, maps, keys and texts); "
                            + "\(kind) needs at most \(maxNodes)")
                }
            }
            if isNode, let last = levels.last, last.isMapping {
                if last.nextIsKey {
                    if type != YAML_SCALAR_EVENT {
                        return problem(
                            "a map key must be plain text, not a list, a map or an alias "
                                + "(complex keys such as '? [a, b]' are not part of the format)")
                    }
                    levels[levels.count - 1].keys += 1
                    if last.keys + 1 > maxMapKeys {
                        return problem(
                            "a map of more than \(maxMapKeys) keys; "
                                + "\(kind) needs at most \(maxMapKeys)")
                    }
                }
                levels[levels.count - 1].nextIsKey.toggle()
            }
            if type == YAML_ALIAS_EVENT {
                aliases += 1
                if aliases > maxAliases {
                    return problem(
                        "more than \(maxAliases) aliases ('*name'); "
                            + "\(kind) needs at most \(maxAliases)")
                }
            } else if type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT {
                levels.append(Level(isMapping: type == YAML_MAPPING_START_EVENT, nextIsKey: true))
            } else if type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT {
                levels.removeLast()
            }
        }
    }
}
