/// One policy key at one value, read once from its words and kept typed: `policy KEY VALUE`
/// (`Command.setPolicy`) and the fact it writes (`Fact.policyChanged`) carry it, so the value
/// is parsed where it is written (the scenario parser, the policy panel) and applied without
/// being read again. Two settings are equal when they set the same key to the same value.
package struct PolicySetting: Sendable, Hashable {
    package let key: PolicyKey
    /// A policy holding the value, of which only `key` is read (`PolicyKeySpec.copy`).
    private let carrier: Policy

    /// Reads TEXT as a value of KEY; throws what the key accepts when it is none.
    package init(_ key: PolicyKey, _ text: String) throws(PolicyValueError) {
        var carrier = PolicyPreset.hardened.policy
        try carrier.set(key, to: text)
        self.key = key
        self.carrier = carrier
    }

    /// The value in its canonical words, as a scenario writes it (`1m` for `60s`).
    package var value: String { carrier.value(of: key) }

    /// Sets the key in `policy` to this value.
    package func apply(to policy: inout Policy) { key.spec.copy(&policy, carrier) }

    package static func == (a: PolicySetting, b: PolicySetting) -> Bool { a.key == b.key && a.value == b.value }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}

/// What a `policy` command changed: one key, or every key to a preset's values.
package enum PolicyCommand: Sendable, Hashable {
    case key(PolicySetting)
    case preset(PolicyPreset)

    /// The key's word (`preset` for a preset), as the log and the JSON export write it.
    package var keyWord: String {
        switch self {
        case .key(let setting): return setting.key.rawValue
        case .preset: return "preset"
        }
    }

    /// The value in its canonical words (the preset's name for a preset).
    package var valueWord: String {
        switch self {
        case .key(let setting): return setting.value
        case .preset(let preset): return preset.rawValue
        }
    }

    /// `policy KEY = VALUE`, `policy preset = NAME`: the log's words.
    var text: String { "policy \(keyWord) = \(valueWord)" }
}

extension Command {
    /// `policy KEY VALUE` for a value the program itself writes (a literal, a picker's
    /// choice): it must be one the key accepts. A person's words go through the scenario
    /// parser, which says what is accepted instead.
    package static func setPolicy(_ key: PolicyKey, _ text: String) -> Command {
        do {
            return .setPolicy(try PolicySetting(key, text))
        } catch {
            preconditionFailure("\(text) is no value of \(key.rawValue): \(error.accepted)")
        }
    }
}
