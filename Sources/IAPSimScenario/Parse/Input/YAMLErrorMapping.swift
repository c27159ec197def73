import Yams

/// Turns Yams' errors into `ScenarioError`s at the same line and column.
enum YAMLErrorMapping {
    /// How deep libyaml lets lists and maps nest.
    static let maxNesting = 1_000

    static func scenarioError(_ error: YamlError, text: String, reader: NodeReader)
        -> ScenarioError
    {
        let file = reader.file
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: file, line: max(mark.line, 1), column: max(mark.column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // libyaml's own limit, worded for a person rather than as its C setter.
            if problem.hasPrefix("Maximum nesting level reached") {
                return .yamlTooComplex(
                    at: at(mark),
                    problem: "lists and maps are nested more than \(maxNesting) deep; the limit is \(maxNesting)")
            }
            return .yamlSyntax(at: at(mark), problem: describe(problem, context, mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = at(context.mark)
            guard let second = secondOccurrence(of: key, after: first, lines: reader.lines) else {
                return .duplicateKey(at: first, key: key, first: nil)
            }
            return .duplicateKey(at: second, key: key, first: first)
        case .reader(let problem, let offset, _, _):
            return .yamlSyntax(
                at: location(ofCharacter: offset ?? 0, in: text, file: file),
                problem: problem)
        default:
            return .yamlSyntax(
                at: SourceLocation(file: file, line: 1, column: 1),
                problem: String(describing: error))
        }
    }

    /// `problem (while … at line L, column C)`: libyaml's words, with our punctuation.
    static func describe(_ problem: String, _ context: YamlError.Context?, _ mark: Mark)
        -> String
    {
        guard let context, !context.text.isEmpty else { return problem }
        if context.mark.line == mark.line && context.mark.column == mark.column {
            return "\(problem) (\(context.text))"
        }
        return "\(problem) (\(context.text) at line \(context.mark.line), "
            + "column \(context.mark.column))"
    }

    /// Where the second `key:` of the map whose first `key` is at `first` is. Yams tells
    /// only where the first one is; a person needs to see the one to delete.
    static func secondOccurrence(
        of key: String, after first: SourceLocation, lines: [[Unicode.Scalar]]
    ) -> SourceLocation? {
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let keyColumn = first.column - 1
        let firstLine = lines[first.line - 1]
        if firstLine.prefix(keyColumn).contains("{") {
            // A flow map: look further along the same line.
            var index = keyColumn + 1
            while index < firstLine.count {
                let before = firstLine[index - 1]
                if before == "{" || before == "," || before == " ",
                    keyLength(key, in: firstLine, at: index) != nil
                {
                    return SourceLocation(file: first.file, line: first.line, column: index + 1)
                }
                index += 1
            }
            return nil
        }
        for lineIndex in first.line..<lines.count {
            let line = lines[lineIndex]
            let indent = line.prefix { $0 == " " }.count
            if indent == line.count || line[indent] == "#" { continue }
            if indent < keyColumn { return nil }
            if indent == keyColumn, keyLength(key, in: line, at: indent) != nil {
                return SourceLocation(file: first.file, line: lineIndex + 1, column: indent + 1)
            }
        }
        return nil
    }

    /// If `line` has `key`, `"key"` or `'key'` at `index` followed by optional spaces and a
    /// colon, the length up to the colon.
    static func keyLength(_ key: String, in line: [Unicode.Scalar], at index: Int) -> Int? {
        let bare = Array(key.unicodeScalars)
        for candidate in [bare, ["\""] + bare + ["\""], ["'"] + bare + ["'"]] {
            let end = index + candidate.count
            guard end <= line.count, Array(line[index..<end]) == candidate else { continue }
            var cursor = end
            while cursor < line.count, line[cursor] == " " { cursor += 1 }
            if cursor < line.count, line[cursor] == ":" { return cursor - index }
        }
        return nil
    }

    /// Line and column of the `offset`-th Character of `text`.
    static func location(ofCharacter offset: Int, in text: String, file: String)
        -> SourceLocation
    {
        var cursor = InputCheck.Cursor()
        for character in text.prefix(offset) {
            for scalar in character.unicodeScalars { cursor.advance(over: scalar) }
        }
        return cursor.location(file)
    }
}
