import IAPSimCore
import Yams

extension ScenarioBuilder {
    /// The `expect` map. Balances may name only the scenario's users.
    func expectations(_ node: Node, users: [String]) throws(ScenarioError) -> Expectations {
        var expect = Expectations()
        for entry in try reader.entries(node, what: "'expect'") {
            let what = "'\(entry.key)'"
            switch entry.key {
            case "charged": expect.charged = try reader.wholeNumber(entry.value, what: what)
            case "unresolved": expect.unresolved = try reader.wholeNumber(entry.value, what: what)
            case "queue": expect.queue = try reader.wholeNumber(entry.value, what: what)
            case "credited": expect.credited = try credited(entry.value, users: users)
            case "anomalies":
                for item in try reader.items(entry.value, what: what) {
                    expect.anomalies.append(try anomaly(item))
                }
            default:
                throw .unknownExpectKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        return expect
    }

    private func credited(_ node: Node, users: [String]) throws(ScenarioError) -> [String: Int] {
        var balances: [String: Int] = [:]
        for entry in try reader.entries(node, what: "'credited'") {
            guard users.contains(entry.key) else {
                throw .unknownUser(at: reader.location(entry.keyNode), name: entry.key,
                                   users: users)
            }
            balances[entry.key] = try reader.wholeNumber(
                entry.value, what: "the balance of '\(entry.key)'")
        }
        return balances
    }

    private func anomaly(_ node: Node) throws(ScenarioError) -> AnomalyExpectation {
        var type: AnomalyType?
        var status: AnomalyStatus?
        var count: Int?
        for entry in try reader.entries(node, what: "each anomaly") {
            switch entry.key {
            case "type":
                let name = try reader.string(entry.value, what: "'type'")
                type = AnomalyType(rawValue: name)
                if type == nil {
                    throw .unknownAnomalyType(at: reader.location(entry.value), name: name)
                }
            case "status":
                let name = try reader.string(entry.value, what: "'status'")
                status = AnomalyStatus(rawValue: name)
                if status == nil {
                    throw .unknownAnomalyStatus(at: reader.location(entry.value), name: name)
                }
            case "count":
                count = try reader.wholeNumber(entry.value, what: "'count'")
            default:
                throw .unknownAnomalyKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        guard let type else {
            throw .missingKey(at: reader.location(node), key: "type", owner: "an anomaly",
                              required: ["type"])
        }
        return AnomalyExpectation(type: type, status: status, count: count)
    }
}
