import IAPSimCore

/// Where something is in a scenario file: 1-based line and column (columns count Unicode
/// scalars, as libyaml does).
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`, as compilers write it.
    package var description: String { "\(file):\(line):\(column)" }
}

/// The shape a value must have, as an error message names it.
package enum ExpectedShape: String, Sendable, Hashable {
    case list = "a list"
    case map = "a map"
    case string = "a string"
    case wholeNumber = "a whole number (0 or more)"
    case presetOrMap = "a preset name or a map of policy keys"
    case money = "an amount of money such as 0.99 or 3"
}

/// Why a scenario file was refused. Each case knows where (`at`) and what; its
/// `description` is one line, `FILE:LINE:COLUMN: what is wrong`, that names the offending
/// key, command or value and lists what is accepted. Nothing runs from a refused file.
package enum ScenarioError: Error, Sendable, Hashable {
    // The bytes and the YAML.
    /// The file could not be read at all (`load(path:)` only); `at` is line 1, column 1.
    case unreadableFile(at: SourceLocation, reason: String)
    case emptyFile(at: SourceLocation)
    case notUTF8(at: SourceLocation, byte: UInt8)
    case binaryContent(at: SourceLocation, scalar: UInt32)
    case yamlSyntax(at: SourceLocation, problem: String)
    /// Bigger than `ScenarioParser.maxFileBytes` (`load(path:)` only); `at` is line 1, column 1.
    case fileTooLarge(at: SourceLocation, bytes: Int, limit: Int)
    /// YAML a scenario never needs and that would make composing the tree costly.
    case yamlTooComplex(at: SourceLocation, problem: String)
    /// More items than the format allows: `what` names them (`steps`, `users`).
    case tooMany(at: SourceLocation, what: String, count: Int, limit: Int)
    /// A text longer than the format allows: `what` names it (`'title'`, `a user name`).
    case tooLong(at: SourceLocation, what: String, length: Int, limit: Int)

    // The shape of the document.
    /// `what` names the value: `'users'`, `each step`, `the file`.
    case wrongType(at: SourceLocation, what: String, expected: ExpectedShape, found: String)
    /// A key written twice in one map; `first` is where it was first written, if known.
    case duplicateKey(at: SourceLocation, key: String, first: SourceLocation?)
    /// `owner` says what lacks it (`a scenario`), `required` what that needs.
    case missingKey(at: SourceLocation, key: String, owner: String, required: [String])
    case unknownTopLevelKey(at: SourceLocation, key: String)
    case unknownStepKey(at: SourceLocation, key: String)
    case unknownExpectKey(at: SourceLocation, key: String)
    case unknownAnomalyKey(at: SourceLocation, key: String)

    // Top-level values.
    case unsupportedFormat(at: SourceLocation, found: String)
    case multilineTitle(at: SourceLocation)
    case badAppState(at: SourceLocation, value: String)
    case noUsers(at: SourceLocation)
    case badUserName(at: SourceLocation, name: String)
    case duplicateUser(at: SourceLocation, name: String)
    case unknownUser(at: SourceLocation, name: String, users: [String])

    // Policies, in the `policy` key or the `policy` command.
    case unknownPolicyKey(at: SourceLocation, key: String)
    case badPolicyValue(at: SourceLocation, key: String, value: String, accepted: String)
    case unknownPreset(at: SourceLocation, name: String)

    // Steps.
    /// `what` names the key or command that holds the duration.
    case badDuration(at: SourceLocation, what: String, text: String)
    case durationTooLong(at: SourceLocation, what: String, text: String)
    case twoTriggers(at: SourceLocation, first: String, second: String)
    case missingCommand(at: SourceLocation)
    case withinWithoutWhen(at: SourceLocation)
    /// An `at` earlier than the moment an earlier step (at `previousLine`, a `wait`
    /// included) ends at the earliest.
    case atBeforePrevious(
        at: SourceLocation, time: VirtualTime, earliest: VirtualTime,
        previousLine: Int)
    case unknownEvent(at: SourceLocation, name: String)

    // Commands (`do`).
    case emptyCommand(at: SourceLocation)
    case unknownCommand(at: SourceLocation, name: String)
    case unknownProduct(at: SourceLocation, name: String, products: [String])
    /// A subscription product named in a StoreKit 1 world.
    case subscriptionNeedsStoreKit2(at: SourceLocation, product: String)
    case unknownRoute(at: SourceLocation, name: String)
    case unknownFailReason(at: SourceLocation, name: String)
    case badSwitch(at: SourceLocation, command: String, value: String)
    case badStatusCode(at: SourceLocation, text: String)
    case badArgument(at: SourceLocation, command: String, word: String, expected: String)
    case missingArgument(at: SourceLocation, command: String, usage: String)
    case extraArgument(at: SourceLocation, command: String, word: String, usage: String)

    // Expectations.
    case unknownAnomalyType(at: SourceLocation, name: String)
    case unknownMoneyKey(at: SourceLocation, key: String)
    case unknownAnomalyStatus(at: SourceLocation, name: String)
    /// An entitlement naming a consumable, which is used up when delivered and never held.
    case consumableEntitlement(at: SourceLocation, name: String, heldable: [String])
    /// A number written as one, outside the range its key takes (`range`: "from 0 to 10").
    case outOfRange(at: SourceLocation, what: String, text: String, range: String)

    // The catalog: a StoreKit configuration file (`storekit:`, `--storekit`) and `grants:`.
    /// `problem` says what is wrong and what is accepted; `at` may be in the StoreKit file.
    case catalog(at: SourceLocation, problem: String)
}

extension ScenarioError {
    /// Where the error is.
    package var location: SourceLocation {
        switch self {
        case .unreadableFile(let at, _), .emptyFile(let at), .notUTF8(let at, _), .binaryContent(let at, _),
            .yamlSyntax(let at, _), .fileTooLarge(let at, _, _), .yamlTooComplex(let at, _),
            .tooMany(let at, _, _, _), .tooLong(let at, _, _, _), .wrongType(let at, _, _, _),
            .duplicateKey(let at, _, _),
            .missingKey(let at, _, _, _), .unknownTopLevelKey(let at, _),
            .unknownStepKey(let at, _), .unknownExpectKey(let at, _),
            .unknownAnomalyKey(let at, _), .unsupportedFormat(let at, _),
            .multilineTitle(let at), .badAppState(let at, _), .noUsers(let at),
            .badUserName(let at, _), .duplicateUser(let at, _), .unknownUser(let at, _, _),
            .unknownPolicyKey(let at, _), .badPolicyValue(let at, _, _, _),
            .unknownPreset(let at, _), .badDuration(let at, _, _), .durationTooLong(let at, _, _),
            .twoTriggers(let at, _, _), .missingCommand(let at), .withinWithoutWhen(let at),
            .atBeforePrevious(let at, _, _, _), .unknownEvent(let at, _),
            .emptyCommand(let at), .unknownCommand(let at, _),
            .unknownProduct(let at, _, _), .subscriptionNeedsStoreKit2(let at, _), .unknownRoute(let at, _),
            .unknownFailReason(let at, _), .badSwitch(let at, _, _), .badStatusCode(let at, _),
            .badArgument(let at, _, _, _),
            .missingArgument(let at, _, _), .extraArgument(let at, _, _, _),
            .unknownAnomalyType(let at, _), .unknownAnomalyStatus(let at, _),
            .unknownMoneyKey(let at, _), .outOfRange(let at, _, _, _),
            .consumableEntitlement(let at, _, _), .catalog(let at, _):
            return at
        }
    }
}
