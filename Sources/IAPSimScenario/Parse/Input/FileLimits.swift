/// The bounds every file iapsim reads is held to, whatever its format: a scenario, a
/// `.storekit` file (`storekit:`, `--storekit`), a `--grants` file and serve.yaml. Each is
/// far above what a real file needs and is checked as the file is read, so that a file past
/// one is refused where it passes it (file:line:column), before it costs more than reading.
/// (`docs/scenario-format.md`, "Limits", states them; a `--replay` recording is JSON Lines of
/// its own, up to `ServeRecord.maxFileBytes`.)
package enum FileLimits {
    /// The largest file read: a few KB is usual.
    package static let maxFileBytes = 4 * 1_048_576
    /// The most keys in one map (YAML) or object (JSON): a scenario's largest map is `policy`
    /// (about twenty keys) or `credited` (one per user, at most 100).
    package static let maxMapKeys = 1_000
    /// The deepest nesting of lists and maps (YAML: libyaml's own bound; JSON: the same).
    package static let maxDepth = 1_000
    /// The most values in one file (lists, maps, keys and texts): `maxSteps` steps of four
    /// keys each fit.
    package static let maxValues = 200_000

    /// A whole number with a comma every three digits (`1,000`).
    package static func text(_ n: Int) -> String { ScenarioVocabulary.limitText(n) }
}
