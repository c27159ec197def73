import Yams

/// One key of a YAML map with its value, in file order.
struct Entry {
    var key: String
    var keyNode: Node
    var value: Node
}

/// Reads Yams nodes into Swift values, throwing a `ScenarioError` at the node's position
/// when a value has the wrong shape. `what` names the value in messages (`'users'`).
struct NodeReader {
    let file: String
    /// The source, kept to place errors on the offending word of a value.
    let text: String

    init(file: String, text: String) {
        self.file = file
        self.text = text
    }

    /// The source, line by line: split only when an error is placed (splitting a long
    /// scenario up front cost a tenth of its reading), and by scalars, not characters ("\r\n"
    /// is one character: a file with Windows line ends was never split).
    var lines: [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var line: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            guard scalar == "\n" else {
                line.append(scalar)
                continue
            }
            if line.last == "\r" { line.removeLast() }
            lines.append(line)
            line.removeAll(keepingCapacity: true)
        }
        if line.last == "\r" { line.removeLast() }
        lines.append(line)
        return lines
    }

    func location(_ node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// True for an empty value, `~` or `null` written plainly.
    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain || s.style == .any else { return false }
        switch s.string {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// The value as an error message shows it: `empty`, `a list`, `a map`, or quoted text.
    func found(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            if isNull(node) { return "empty" }
            var text =
                s.string.split(separator: "\n", omittingEmptySubsequences: false)
                .first.map(String.init) ?? ""
            if text.count > 40 || text != s.string { text = String(text.prefix(40)) + "…" }
            return "'\(text)'"
        case .sequence: return "a list"
        case .mapping: return "a map"
        case .alias: return "an alias"
        }
    }

    /// The entries of a map, refusing non-string and duplicate keys.
    func entries(_ node: Node, what: String) throws(ScenarioError) -> [Entry] {
        guard case .mapping(let mapping) = node else {
            throw .wrongType(at: location(node), what: what, expected: .map, found: found(node))
        }
        // The keys met so far: a short map (a step has two) is searched in place; a long one
        // through a table built when it reaches `indexedFrom` keys.
        let indexedFrom = 16
        var seen: [String: SourceLocation]?
        var result: [Entry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let s) = keyNode, !isNull(keyNode) else {
                throw .wrongType(
                    at: location(keyNode), what: "a key in \(what)",
                    expected: .string, found: found(keyNode))
            }
            let key = s.string
            // Yams refuses most duplicates itself; this catches what it lets through
            // (keys equal as text but resolved to different tags, such as `1` and "1").
            if let table = seen {
                if let first = table[key] { throw .duplicateKey(at: location(keyNode), key: key, first: first) }
                seen?[key] = location(keyNode)
            } else if let j = result.firstIndex(where: { $0.key == key }) {
                throw .duplicateKey(at: location(keyNode), key: key, first: location(result[j].keyNode))
            }
            result.append(Entry(key: key, keyNode: keyNode, value: value))
            if seen == nil && result.count == indexedFrom {
                seen = Dictionary(uniqueKeysWithValues: result.map { ($0.key, location($0.keyNode)) })
            }
        }
        return result
    }

    /// The items of a list.
    func items(_ node: Node, what: String) throws(ScenarioError) -> [Node] {
        guard case .sequence(let sequence) = node else {
            throw .wrongType(at: location(node), what: what, expected: .list, found: found(node))
        }
        return Array(sequence)
    }

    /// A scalar's text; an empty value is refused.
    func string(_ node: Node, what: String) throws(ScenarioError) -> String {
        guard case .scalar(let s) = node, !isNull(node) else {
            throw .wrongType(at: location(node), what: what, expected: .string, found: found(node))
        }
        return s.string
    }

    /// A whole number, 0 or more, written in decimal digits.
    func wholeNumber(_ node: Node, what: String) throws(ScenarioError) -> Int {
        try integer(node, what: what, in: 0...Int.max)
    }

    /// A coin balance: a whole number, or a negative one (debt, under `server-clawback`).
    func balance(_ node: Node, what: String) throws(ScenarioError) -> Int {
        try integer(node, what: what, in: -Int.max...Int.max)
    }

    /// A whole number in `range` (`NumberCheck`): digits that are not in it are out of range,
    /// anything else is the wrong type.
    func integer(_ node: Node, what: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        guard case .scalar(let s) = node else {
            throw .wrongType(at: location(node), what: what, expected: .wholeNumber, found: found(node))
        }
        switch NumberCheck.integer(s.string, in: range) {
        case .success(let value): return value
        case .failure(.outOfRange):
            throw .outOfRange(
                at: location(node), what: what, text: s.string, range: NumberCheck.rangeText(range))
        case .failure(.notANumber):
            throw .wrongType(at: location(node), what: what, expected: .wholeNumber, found: found(node))
        }
    }

    /// A whole number, 0 or more, that fits 64 bits.
    func unsigned(_ node: Node, what: String) throws(ScenarioError) -> UInt64 {
        guard case .scalar(let s) = node else {
            throw .wrongType(at: location(node), what: what, expected: .wholeNumber, found: found(node))
        }
        switch NumberCheck.unsigned(s.string, in: 0...UInt64.max) {
        case .success(let value): return value
        case .failure(.outOfRange):
            throw .outOfRange(
                at: location(node), what: what, text: s.string, range: NumberCheck.rangeText(0...UInt64.max))
        case .failure(.notANumber):
            throw .wrongType(at: location(node), what: what, expected: .wholeNumber, found: found(node))
        }
    }

    /// Where the scalar at `offset` (in Unicode scalars) of a one-line value is, so an error
    /// can point at the offending word; the value's own position when that cannot be told
    /// (escapes, folded lines, block scalars).
    func location(ofOffset offset: Int, in node: Node) -> SourceLocation {
        let start = location(node)
        let lines = lines
        guard case .scalar(let s) = node, start.line >= 1, start.line <= lines.count else {
            return start
        }
        let shift: Int
        switch s.style {
        case .plain, .any: shift = 0
        case .singleQuoted, .doubleQuoted: shift = 1
        case .literal, .folded: return start
        }
        let line = lines[start.line - 1]
        let from = start.column - 1 + shift
        let value = Array(s.string.unicodeScalars)
        guard from >= 0, from + value.count <= line.count,
            Array(line[from..<(from + value.count)]) == value
        else { return start }
        var result = start
        result.column += shift + offset
        return result
    }
}
