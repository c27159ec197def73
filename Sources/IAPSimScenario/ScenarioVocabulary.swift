import IAPSimCore

/// The words of scenario format 1, in the order error messages and the writer list them.
package enum ScenarioVocabulary {
    /// Every top-level key.
    package static let topLevelKeys = [
        "format", "title", "story", "policy", "seed", "users", "app", "environment", "steps", "expect",
    ]
    /// The top-level keys a file must have.
    package static let requiredKeys = ["format", "title", "steps"]
    /// The keys of one step.
    package static let stepKeys = ["at", "after", "when", "within", "do", "say"]
    /// The keys that say when a step runs; a step has at most one.
    package static let triggerKeys = ["at", "after", "when"]
    /// The keys of a `policy:` map and the `policy` command: `preset`, then every policy key.
    package static let policyMapKeys = ["preset"] + PolicyKey.allCases.map(\.rawValue)
    /// What `fail-next-payment` accepts after it.
    package static let failReasons = CommandSpec.failReasons
    /// The longest duration a scenario may write: 30 days of virtual time.
    package static let maxDurationMs = CommandArguments.maxDurationMs
    /// How durations are written.
    package static let durationForm = "a whole number and a unit: 250ms, 3s, 5m, 2h"

    /// Letters, digits, `_`, `-` and `.`: a name must survive `login NAME` as one word.
    /// Scenario files and the sandbox's `--users` both hold names to it.
    package static func isUserName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || scalar == "_" || scalar == "-" || scalar == "."
            }
    }

    static func list(_ words: [String]) -> String { words.joined(separator: ", ") }
}
