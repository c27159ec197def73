import IAPSimCore

extension ScenarioError: CustomStringConvertible {
    /// One line: `FILE:LINE:COLUMN: what is wrong`, naming the offending key, command or
    /// value and listing what is accepted.
    /// Texts from the file (values, the file's name) have their control characters made
    /// visible, so that a message cannot drive the terminal it is printed on.
    package var description: String { VisibleText.escaped("\(location): \(message)") }

    /// The message without its location.
    package var message: String {
        typealias V = ScenarioVocabulary
        switch self {
        case .unreadableFile(_, let reason):
            return "cannot read the file: \(reason)"
        case .emptyFile:
            return "the file is empty; a scenario needs at least: \(V.list(V.requiredKeys))"
        case .notUTF8(_, let byte):
            return "the file is not UTF-8 text (byte \(Self.hex(byte))); scenarios are UTF-8 YAML"
        case .binaryContent(_, let scalar):
            return "the file holds binary data (\(Self.scalarName(scalar))); scenarios are YAML text"
        case .yamlSyntax(_, let problem):
            return "invalid YAML: \(problem)"
        case .fileTooLarge(_, let bytes, let limit):
            return "the file is \(bytes) bytes; the limit is \(limit) bytes (\(limit / 1_048_576) MB)"
        case .yamlTooComplex(_, let problem):
            return "YAML not accepted in a scenario: \(problem)"
        case .tooMany(_, let what, let count, let limit):
            return "too many \(what) (\(count)); the limit is \(limit)"
        case .tooLong(_, let what, let length, let limit):
            return "\(what) is too long (\(length) characters); the limit is \(limit)"
        case .consumableEntitlement(_, let name, let heldable):
            return "'\(name)' is a consumable: it is used up when delivered and never held, so it "
                + "cannot be an entitlement; the products that can be held: \(heldable.joined(separator: ", "))"
        case .outOfRange(_, let what, let text, let range):
            return "\(what) is \(text), out of range; it must be \(range)"
        case .catalog(_, let problem):
            return problem
        case .wrongType(_, let what, let expected, let found):
            return "\(what) must be \(expected.rawValue), but it is \(found)"
        case .duplicateKey(_, let key, let first):
            let firstText = first.map { " (first at line \($0.line), column \($0.column))" } ?? ""
            return "duplicate key '\(key)'\(firstText); each key may appear once in a map"
        case .missingKey(_, let key, let owner, let required):
            return "missing required key '\(key)'; \(owner) needs: \(V.list(required))"
        case .unknownTopLevelKey(_, let key):
            return "unknown top-level key '\(key)'; keys are: \(V.list(V.topLevelKeys))"
        case .unknownStepKey(_, let key):
            return "unknown step key '\(key)'; a step has: \(V.list(V.stepKeys))"
        case .unknownExpectKey(_, let key):
            return "unknown expect key '\(key)'; expect keys are: \(V.list(Expectations.keys))"
        case .unknownMoneyKey(_, let key):
            return "unknown money key '\(key)'; money has: \(V.list(MoneyExpectation.keys))"
        case .unknownAnomalyKey(_, let key):
            return "unknown anomaly key '\(key)'; an anomaly has: "
                + V.list(AnomalyExpectation.keys)
        default:
            return valueMessage
        }
    }

    private var valueMessage: String {
        typealias V = ScenarioVocabulary
        switch self {
        case .unsupportedFormat(_, let found):
            return "unsupported format \(found); the only format is \(Scenario.supportedFormat)"
        case .multilineTitle:
            return "'title' must be one line; put the longer text in 'story'"
        case .badAppState(_, let value):
            return "unknown app state '\(value)'; app is one of: "
                + V.list(AppState.allCases.map(\.rawValue))
        case .noUsers:
            return "'users' is empty; name at least one merchant account"
        case .badUserName(_, let name):
            return "bad user name '\(name)'; a name is letters, digits, '_', '-' or '.'"
        case .duplicateUser(_, let name):
            return "user '\(name)' is listed twice in 'users'"
        case .unknownUser(_, let name, let users):
            return "unknown user '\(name)'; users are: \(V.list(users))"
        case .unknownPolicyKey(_, let key):
            return "unknown policy key '\(key)'; policy keys are: \(V.list(V.policyMapKeys))"
        case .badPolicyValue(_, let key, let value, let accepted):
            return "bad value '\(value)' for policy key '\(key)'; accepted: \(accepted)"
        case .unknownPreset(_, let name):
            return "unknown preset '\(name)'; presets are: "
                + V.list(PolicyPreset.allCases.map(\.rawValue))
        default:
            return stepMessage
        }
    }

    private var stepMessage: String {
        typealias V = ScenarioVocabulary
        switch self {
        case .badDuration(_, let what, let text):
            return "bad duration '\(text)' for '\(what)'; a duration is \(V.durationForm)"
        case .durationTooLong(_, let what, let text):
            return "duration '\(text)' for '\(what)' is too long; at most "
                + "\(V.maxDurationMs / 86_400_000)d (\(V.maxDurationMs / 86_400_000) days of virtual time)"
        case .twoTriggers(_, let first, let second):
            return "step has two triggers, '\(first)' and '\(second)'; a step has at most one of: "
                + V.list(V.triggerKeys)
        case .missingCommand:
            return "step has no 'do'; every step needs a command: \(V.list(CommandSpec.words))"
        case .withinWithoutWhen:
            return "'within' is only allowed in a step with 'when'"
        case .atBeforePrevious(_, let time, let earliest, let previousLine):
            return "'at: \(DurationText.format(time))' is earlier than the step at line "
                + "\(previousLine), which ends at \(DurationText.format(earliest)) at the "
                + "earliest; 'at' counts from the start of the run"
        case .unknownEvent(_, let name):
            return "unknown event '\(name)'; events are: "
                + V.list(TriggerEvent.allCases.map(\.rawValue))
        default:
            return commandMessage
        }
    }

    private var commandMessage: String {
        typealias V = ScenarioVocabulary
        switch self {
        case .emptyCommand:
            return "'do' is empty; commands are: \(V.list(CommandSpec.words))"
        case .unknownCommand(_, let name):
            return "unknown command '\(name)'; commands are: \(V.list(CommandSpec.words))"
        case .unknownProduct(_, let name, let products):
            return "unknown product '\(name)'; products are: \(V.list(products))"
        case .subscriptionNeedsStoreKit2(_, let product):
            return "'\(product)' is an auto-renewable subscription, and subscriptions exist in the StoreKit 2 world "
                + "only; the policy key 'storekit' allows them: write 'storekit: 2' in the policy map (or a preset "
                + "that has it: \(V.list(PolicyPreset.allCases.filter { $0.policy.storekit == .two }.map(\.rawValue))))"
        case .unknownRoute(_, let name):
            return "unknown route '\(name)'; routes are: \(V.list(Route.allCases.map(\.rawValue)))"
        case .unknownFailReason(_, let name):
            return "unknown reason '\(name)' for 'fail-next-payment'; reasons are: "
                + V.list(V.failReasons)
        case .badSwitch(_, let command, let value):
            return "'\(command)' takes on or off, not '\(value)'"
        case .badStatusCode(_, let text):
            return "unknown status '\(text)' for 'store-status'; statuses are: "
                + VerifyStatus.acceptedCodes
        case .badArgument(_, let command, let word, let expected):
            return "'\(command)' takes \(expected), not '\(word)'"
        case .missingArgument(_, let command, let usage):
            return "'\(command)' is missing an argument; write: \(usage)"
        case .extraArgument(_, let command, let word, let usage):
            return "unexpected '\(word)' after '\(command)'; write: \(usage)"
        case .unknownAnomalyType(_, let name):
            return "unknown anomaly type '\(name)'; types are: "
                + V.list(AnomalyType.allCases.map(\.rawValue))
        case .unknownAnomalyStatus(_, let name):
            return "unknown anomaly status '\(name)'; statuses are: "
                + V.list(AnomalyStatus.allCases.map(\.rawValue))
        default:
            preconditionFailure("every case has a message")
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" : "") + digits
    }

    static func scalarName(_ scalar: UInt32) -> String {
        if scalar == 0 { return "a NUL byte" }
        var digits = String(scalar, radix: 16, uppercase: true)
        while digits.count < 4 { digits = "0" + digits }
        return "control character U+\(digits)"
    }
}
