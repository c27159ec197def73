import IAPSimCore

/// The words of scenario format 1, in the order error messages and the writer list them.
package enum ScenarioVocabulary {
    /// Every top-level key, in the order messages and the docs list them: whether a file must
    /// have it, and what it holds (Markdown, for the docs' table; never printed).
    package static let topLevel: [(key: String, required: Bool, meaning: String)] = [
        ("format", true, "always `1`"),
        ("title", true, "one line, at most \(maxTitleLength) characters"),
        ("story", false, "the narration shown before the first step"),
        ("policy", false, "a preset name, or a map (below); default `\(PolicyPreset.hardened.rawValue)`"),
        (
            "seed", false,
            "a whole number from 0 to \(UInt64.max); default 1. The same file with the same seed gives the "
                + "same run, byte for byte"
        ),
        (
            "users", false,
            "the merchant accounts, default `[alice]`; the first is logged in when the app first launches. 1 to "
                + "\(maxUsers) names, each at most \(maxUserNameLength) characters of letters, digits, `_`, `-` "
                + "and `.`, no name twice"
        ),
        ("app", false, "`running` (default) or `not-running` at time 0"),
        (
            "environment", false,
            "`production` (default) or `sandbox`: the App Store environment. Production retries an unanswered "
                + "notification 1, 12, 24, 48 and 72 h after the previous attempt and keeps 180 days of "
                + "notification history; the sandbox sends each notification once and keeps 30 days; payloads "
                + "say `Production` or `Sandbox`"
        ),
        (
            "merchant", false,
            "`simulated` (default) or `external`: who plays the merchant server. An `external` file is played "
                + "against your own backend by `iapsim serve` (docs/serve.md); `run`, `check` and `play` refuse it"
        ),
        (
            "grace-period", false,
            "the app's billing grace period for auto-renewable subscriptions (App Store Connect): "
                + gracePeriods.map { "`\($0.word)`" }.joined(separator: ", ")
                + "; default `off`. In grace the customer keeps access while the App Store retries billing"
        ),
        (
            "grace-renewals", false,
            "which renewals the billing grace period covers (App Store Connect's `renewalType`): `all` "
                + "(`ALL_RENEWALS`, default) or `paid-to-paid-only` (`PAID_TO_PAID_ONLY`: a free trial's conversion "
                + "to a paid period that fails to bill gets no grace, only billing retry)"
        ),
        (
            "storekit", false,
            "the path of an Xcode StoreKit configuration file (`Products.storekit`), relative to the scenario "
                + "file: its products are the catalog the steps name (docs/storekit.md); default the built-in "
                + "`scenarios/iapsim.storekit`. `--storekit` on the command line wins over it"
        ),
        (
            "grants", false,
            "what each consumable credits: a map `PRODUCT: N UNIT` (`coins_100: 100 coins`, `gems_small: 80 gems`); "
                + "a consumable not named credits one unit of its own product (the built-in catalog: 100 and 550 "
                + "coins). `--grants FILE` on the command line wins over it"
        ),
        ("steps", true, "the list of steps, run in order; at most \(limitText(maxSteps))"),
        ("expect", false, "what must hold once the run has settled"),
    ]
    /// The values of `grace-period`: App Store Connect's choices (3, 16 or 28 days), or none.
    /// (The core's table: the command `grace-period` reads the same words.)
    package static let gracePeriods = SubscriptionCommand.gracePeriods

    /// How `grace-period` writes a grace period.
    package static func graceWord(_ ms: VirtualTime?) -> String { SubscriptionCommand.graceWord(ms) }

    /// Every top-level key.
    package static let topLevelKeys = topLevel.map(\.key)
    /// The top-level keys a file must have.
    package static let requiredKeys = topLevel.filter(\.required).map(\.key)
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
    package static let durationForm = "a whole number and a unit: 250ms, 3s, 5m, 2h, 45d"

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
