/// How much one file may hold. Each limit is far above what a real scenario needs, and is
/// stated in the message of a file that goes over it. (The bytes, aliases, map sizes and
/// values in all are bounded before the YAML tree is built: `ScenarioParser.maxFileBytes`,
/// `YAMLPreScan`.)
extension ScenarioVocabulary {
    /// The most steps a file may hold: enough for any story or soak test, and a bound on
    /// how long one run can take.
    package static let maxSteps = 20_000
    /// The most users a file may name.
    package static let maxUsers = 100
    /// The longest user name, in characters.
    package static let maxUserNameLength = 64
    /// The longest title, in characters.
    package static let maxTitleLength = 200

    /// `base` followed by `suffix`, within `maxTitleLength`: `base` is cut (ending in `...`)
    /// when the two do not fit, so that a title made from a title (a saved session's) is
    /// still one a file may hold.
    package static func title(_ base: String, adding suffix: String) -> String {
        guard base.count + suffix.count > maxTitleLength else { return base + suffix }
        let room = max(maxTitleLength - suffix.count - 3, 0)
        return String(base.prefix(room)) + "..." + suffix
    }
}

extension ScenarioVocabulary {
    /// Every limit of a file, as the docs' table states it: what is limited, and the limit
    /// (Markdown; never printed).
    package static var limits: [(what: String, limit: String)] {
        [
            ("file size", "\(ScenarioParser.maxFileBytes / 1_048_576) MiB (only a regular file is read)"),
            ("steps", limitText(maxSteps)),
            ("users", "\(maxUsers), each name at most \(maxUserNameLength) characters"),
            ("title", "\(maxTitleLength) characters, one line"),
            ("a duration", "\(maxDurationMs / 86_400_000) days"),
            ("YAML aliases", limitText(YAMLPreScan.maxAliases)),
            ("keys in one map", limitText(YAMLPreScan.maxMapKeys)),
            ("values in the whole file", limitText(YAMLPreScan.maxNodes)),
            ("nesting of lists and maps", "\(limitText(FileLimits.maxDepth)) deep"),
            (
                "a StoreKit file (`storekit:`, `--storekit`)",
                "the same: \(FileLimits.maxFileBytes / 1_048_576) MiB, \(limitText(FileLimits.maxMapKeys)) keys in one "
                    + "object, JSON nested \(limitText(JSONReader.maxDepth)) deep, "
                    + "\(limitText(FileLimits.maxValues)) values (and keys) in all; "
                    + "\(limitText(StoreKitFile.maxProducts)) products, \(StoreKitFile.maxGroups) groups"
            ),
            (
                "a grants file (`--grants`)",
                "the same: \(FileLimits.maxFileBytes / 1_048_576) MiB, \(limitText(FileLimits.maxMapKeys)) keys "
                    + "(as `grants:`), nested \(limitText(FileLimits.maxDepth)) deep, "
                    + "\(limitText(FileLimits.maxValues)) values in all"
            ),
            ("a grant (`grants:`)", "\(limitText(Grant.maxAmount)) units a purchase"),
        ]
    }

    /// A whole number with a comma every three digits (`20,000`).
    package static func limitText(_ n: Int) -> String {
        let digits = Array(String(n))
        return digits.enumerated().reduce(into: "") { text, pair in
            if pair.offset > 0, (digits.count - pair.offset) % 3 == 0 { text += "," }
            text.append(pair.element)
        }
    }
}
