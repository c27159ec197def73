/// Why a command text was refused, and where in the text (`offset`, in Unicode scalars
/// from its start) the offending word begins. A scenario turns it into an error with the
/// file's line and column; the terminal UI shows it as it is.
package struct CommandError: Error, Sendable, Hashable {
    package var offset: Int
    package var problem: Problem

    package init(offset: Int, problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    /// What is wrong with the command.
    package enum Problem: Sendable, Hashable {
        case empty
        case unknownCommand(String)
        case unknownProduct(String, products: [String])
        case unknownUser(String, users: [String])
        case unknownRoute(String)
        case unknownFailReason(String)
        case badSwitch(_ command: String, _ value: String)
        case badDuration(_ command: String, _ text: String)
        case durationTooLong(_ command: String, _ text: String)
        case missingArgument(_ command: String, usage: String)
        case extraArgument(_ command: String, _ word: String, usage: String)
        case unknownPolicyKey(String)
        case badPolicyValue(key: String, value: String, accepted: String)
        case unknownPreset(String)
        case badStatusCode(String)
        case badArgument(_ command: String, _ word: String, expected: String)
    }
}

/// One word of a command and where it starts (in Unicode scalars).
package struct CommandWord: Sendable, Hashable {
    package var text: String
    package var offset: Int

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// Splits on spaces, tabs and line breaks.
    package static func split(_ text: String) -> [CommandWord] {
        // Each word is made once from its slice of the text (appending it scalar by scalar
        // cost a scenario more than the run of its steps did).
        var words: [CommandWord] = []
        let scalars = text.unicodeScalars
        var wordStart: String.UnicodeScalarView.Index?
        var startOffset = 0
        var offset = 0
        var i = scalars.startIndex
        while i != scalars.endIndex {
            if isSpace(scalars[i]) {
                if let from = wordStart {
                    words.append(CommandWord(text: String(scalars[from..<i]), offset: startOffset))
                    wordStart = nil
                }
            } else if wordStart == nil {
                wordStart = i
                startOffset = offset
            }
            offset += 1
            scalars.formIndex(after: &i)
        }
        if let from = wordStart { words.append(CommandWord(text: String(scalars[from...]), offset: startOffset)) }
        return words
    }

    /// Drops spaces, tabs and line breaks at both ends.
    static func trim(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
        while let last = scalars.last, isSpace(last) { scalars.removeLast() }
        return String(scalars)
    }
}
