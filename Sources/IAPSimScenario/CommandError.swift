/// Why a command text was refused, and where in the text (`offset`, in Unicode scalars
/// from its start) the offending word begins. A scenario turns it into a `ScenarioError`
/// with the file's line and column; the terminal UI can show `description` as it is.
public struct CommandError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var problem: Problem

    public init(offset: Int, problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    /// What is wrong with the command.
    public enum Problem: Sendable, Hashable {
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
    }

    /// The same problem as a scenario error at `at`.
    public func scenarioError(at: SourceLocation) -> ScenarioError {
        switch problem {
        case .empty: return .emptyCommand(at: at)
        case .unknownCommand(let name): return .unknownCommand(at: at, name: name)
        case .unknownProduct(let name, let products):
            return .unknownProduct(at: at, name: name, products: products)
        case .unknownUser(let name, let users): return .unknownUser(at: at, name: name, users: users)
        case .unknownRoute(let name): return .unknownRoute(at: at, name: name)
        case .unknownFailReason(let name): return .unknownFailReason(at: at, name: name)
        case .badSwitch(let command, let value):
            return .badSwitch(at: at, command: command, value: value)
        case .badDuration(let command, let text):
            return .badDuration(at: at, what: command, text: text)
        case .durationTooLong(let command, let text):
            return .durationTooLong(at: at, what: command, text: text)
        case .missingArgument(let command, let usage):
            return .missingArgument(at: at, command: command, usage: usage)
        case .extraArgument(let command, let word, let usage):
            return .extraArgument(at: at, command: command, word: word, usage: usage)
        case .unknownPolicyKey(let key): return .unknownPolicyKey(at: at, key: key)
        case .badPolicyValue(let key, let value, let accepted):
            return .badPolicyValue(at: at, key: key, value: value, accepted: accepted)
        case .unknownPreset(let name): return .unknownPreset(at: at, name: name)
        }
    }

    /// The message alone, without a location.
    public var description: String {
        scenarioError(at: SourceLocation(file: "", line: 0, column: 0)).message
    }
}

/// One word of a command and where it starts (in Unicode scalars).
struct Word: Sendable, Hashable {
    var text: String
    var offset: Int

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// Splits on spaces, tabs and line breaks.
    static func split(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = String.UnicodeScalarView()
        var start = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if isSpace(scalar) {
                if !current.isEmpty { words.append(Word(text: String(current), offset: start)) }
                current = String.UnicodeScalarView()
            } else {
                if current.isEmpty { start = index }
                current.append(scalar)
            }
        }
        if !current.isEmpty { words.append(Word(text: String(current), offset: start)) }
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
