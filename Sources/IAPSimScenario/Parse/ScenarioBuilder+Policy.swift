import IAPSimCore
import Yams

extension ScenarioBuilder {
    /// `policy: NAME` or `policy: {preset: NAME, KEY: VALUE, …}`: the preset (default
    /// `hardened`) first, then every other key in file order. A list value such as
    /// `resend-on: [launch, network]` is read as its comma-separated text.
    func policy(_ node: Node) throws(ScenarioError) -> (PolicyPreset, Policy) {
        switch node {
        case .scalar:
            let name = try reader.string(node, what: "'policy'")
            let preset = try self.preset(name, at: node)
            return (preset, preset.policy)
        case .mapping:
            return try policyMap(node)
        default:
            throw .wrongType(
                at: reader.location(node), what: "'policy'", expected: .presetOrMap,
                found: reader.found(node))
        }
    }

    private func policyMap(_ node: Node) throws(ScenarioError) -> (PolicyPreset, Policy) {
        let entries = try reader.entries(node, what: "'policy'")
        var preset = PolicyPreset.hardened
        var overrides: [(PolicyKey, Entry)] = []
        for entry in entries {
            if entry.key == "preset" {
                preset = try self.preset(
                    try reader.string(entry.value, what: "'preset'"),
                    at: entry.value)
                continue
            }
            guard let key = PolicyKey(rawValue: entry.key) else {
                throw .unknownPolicyKey(at: reader.location(entry.keyNode), key: entry.key)
            }
            overrides.append((key, entry))
        }
        var policy = preset.policy
        for (key, entry) in overrides {
            let text = try policyValueText(entry.value, key: key)
            do {
                try policy.set(key, to: text)
            } catch {
                throw .badPolicyValue(
                    at: reader.location(entry.value), key: key.rawValue,
                    value: text, accepted: error.accepted)
            }
        }
        return (preset, policy)
    }

    private func policyValueText(_ node: Node, key: PolicyKey) throws(ScenarioError) -> String {
        guard case .sequence = node else {
            return try reader.string(node, what: "'\(key.rawValue)'")
        }
        var words: [String] = []
        for item in try reader.items(node, what: "'\(key.rawValue)'") {
            words.append(try reader.string(item, what: "each item of '\(key.rawValue)'"))
        }
        return words.isEmpty ? "none" : words.joined(separator: ",")
    }

    private func preset(_ name: String, at node: Node) throws(ScenarioError) -> PolicyPreset {
        guard let preset = PolicyPreset(rawValue: name) else {
            throw .unknownPreset(at: reader.location(node), name: name)
        }
        return preset
    }
}
