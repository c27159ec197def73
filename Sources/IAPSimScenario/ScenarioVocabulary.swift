import IAPSimCore

/// The words of scenario format 1, in the order error messages and the writer list them.
public enum ScenarioVocabulary {
    /// Every top-level key.
    public static let topLevelKeys = [
        "format", "title", "story", "policy", "seed", "users", "app", "steps", "expect",
    ]
    /// The top-level keys a file must have.
    public static let requiredKeys = ["format", "title", "steps"]
    /// The keys of one step.
    public static let stepKeys = ["at", "after", "when", "within", "do", "say"]
    /// The keys that say when a step runs; a step has at most one.
    public static let triggerKeys = ["at", "after", "when"]
    /// The keys of a `policy:` map and the `policy` command: `preset`, then every policy key.
    public static let policyMapKeys = ["preset"] + PolicyKey.allCases.map(\.rawValue)
    /// What `fail-next-payment` accepts after it.
    public static let failReasons = PaymentFailure.allCases.map(\.rawValue) + ["unfinished"]
    /// The longest duration a scenario may write: 30 days of virtual time. Longer waits
    /// would only let periodic work (retries every few minutes) run without end.
    public static let maxDurationMs: VirtualTime = 30 * 24 * 3_600_000
    /// How durations are written.
    public static let durationForm = "a whole number and a unit: 250ms, 3s, 5m, 2h"

    static func list(_ words: [String]) -> String { words.joined(separator: ", ") }
}
