import IAPSimCore

extension CommandError: CustomStringConvertible {
    /// The same problem as a scenario error at `at`.
    package func scenarioError(at: SourceLocation) -> ScenarioError {
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
        case .badStatusCode(let text): return .badStatusCode(at: at, text: text)
        case .badArgument(let command, let word, let expected):
            return .badArgument(at: at, command: command, word: word, expected: expected)
        }
    }

    /// The message alone, without a location.
    package var description: String {
        scenarioError(at: SourceLocation(file: "", line: 0, column: 0)).message
    }
}
