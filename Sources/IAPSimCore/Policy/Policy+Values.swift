/// Why a policy value was refused; the text names the key and lists what it accepts.
package struct PolicyValueError: Error, Sendable, Hashable, CustomStringConvertible {
    package var key: String
    package var value: String
    package var accepted: String
    package var description: String {
        "invalid value '\(value)' for policy key '\(key)'; accepted: \(accepted)"
    }
}

extension Policy {
    /// Reads a key's value as the text a scenario or the UI would write it.
    package func value(of key: PolicyKey) -> String { key.spec.read(self) }

    /// Sets one key from its text form. Throws a `PolicyValueError` listing what is accepted.
    package mutating func set(_ key: PolicyKey, to text: String) throws(PolicyValueError) {
        guard key.spec.write(&self, text.trimmingSpaces()) else {
            let accepted = key.spec.refusal(text.trimmingSpaces()) ?? key.acceptedValues
            throw PolicyValueError(key: key.rawValue, value: text, accepted: accepted)
        }
    }

    /// The preset this policy equals, if any.
    package var matchingPreset: PolicyPreset? {
        PolicyPreset.allCases.first { $0.policy == self }
    }

    /// A short name for headers: the preset's name, or "custom".
    package var displayName: String { matchingPreset?.rawValue ?? "custom" }

    /// The keys on which this policy differs from `other`.
    package func differences(from other: Policy) -> [PolicyKey] {
        PolicyKey.allCases.filter { value(of: $0) != other.value(of: $0) }
    }

    /// A list written comma-separated (`none`, empty or `[]` for none; brackets allowed),
    /// each value once, in the order of `T.allCases`; nil when a value is not one of them.
    static func list<T: RawRepresentable & CaseIterable & Equatable>(_ text: String) -> [T]?
    where T.RawValue == String {
        if text == "none" || text.isEmpty || text == "[]" { return [] }
        var body = Substring(text)
        if body.hasPrefix("[") && body.hasSuffix("]") { body = body.dropFirst().dropLast() }
        var out: [T] = []
        for part in body.split(separator: ",") {
            guard let value = T(rawValue: String(part).trimmingSpaces()) else { return nil }
            if !out.contains(value) { out.append(value) }
        }
        return T.allCases.filter(out.contains)
    }

    /// The shortest and longest interval a policy key takes (`PolicyKeySpec.interval`): a retry
    /// or a reconciliation more often than once a second would only flood the world with
    /// requests (a 1ms retry makes hours of CPU out of a small file); the longest is the
    /// longest is 30 days, which fits the 32 bits the policy keeps some in.
    static let intervalRange: ClosedRange<VirtualTime> = 1_000...(30 * 24 * 3_600_000)
}
