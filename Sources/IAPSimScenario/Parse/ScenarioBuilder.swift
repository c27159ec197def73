import IAPSimCore
import Yams

/// Walks a scenario's YAML tree from the top and builds the `Scenario`, checking each key.
/// Keys are read in a fixed order (format, title, …, expect) whatever their order in the
/// file, because steps and expectations need the users first.
struct ScenarioBuilder {
    let reader: NodeReader
    /// The catalog commands and expectations are read against: the scenario's (`storekit:`,
    /// `grants:`) unless the command line chose one.
    var catalog: Catalog = .standard
    let options: CatalogOptions

    init(reader: NodeReader, options: CatalogOptions = CatalogOptions()) {
        self.reader = reader
        self.options = options
    }

    mutating func scenario(from root: Node) throws(ScenarioError) -> Scenario {
        let keys = try topLevelEntries(root)
        typealias V = ScenarioVocabulary
        for key in V.requiredKeys where keys[key] == nil {
            throw .missingKey(
                at: reader.location(root), key: key, owner: "a scenario",
                required: V.requiredKeys)
        }
        try format(keys["format"]!.value)
        var scenario = Scenario(title: try title(keys["title"]!.value))
        if let story = keys["story"] {
            scenario.story = try reader.string(story.value, what: "'story'")
        }
        if let policy = keys["policy"] {
            (scenario.preset, scenario.policy) = try self.policy(policy.value)
        }
        if let seed = keys["seed"] {
            scenario.seed = try reader.unsigned(seed.value, what: "'seed'")
        }
        if let users = keys["users"] { scenario.users = try self.users(users.value) }
        if let app = keys["app"] { scenario.app = try appState(app.value) }
        if let environment = keys["environment"] { scenario.environment = try self.environment(environment.value) }
        if let merchant = keys["merchant"] { scenario.merchant = try self.merchant(merchant.value) }
        if let grace = keys["grace-period"] { scenario.gracePeriodMs = try gracePeriod(grace.value) }
        try readCatalog(keys, into: &scenario)
        if let renewals = keys["grace-renewals"] {
            scenario.catalog.catalog.settings.graceRenewals = try graceRenewals(renewals.value)
        }
        scenario.steps = try steps(keys["steps"]!.value, users: scenario.users, world: scenario.policy.storekit)
        if let expect = keys["expect"] {
            scenario.expect = try expectations(expect.value, users: scenario.users)
        }
        return scenario
    }

    private func topLevelEntries(_ root: Node) throws(ScenarioError) -> [String: Entry] {
        var keys: [String: Entry] = [:]
        for entry in try reader.entries(root, what: "the file") {
            guard ScenarioVocabulary.topLevelKeys.contains(entry.key) else {
                throw .unknownTopLevelKey(at: reader.location(entry.keyNode), key: entry.key)
            }
            keys[entry.key] = entry
        }
        return keys
    }

    private func format(_ node: Node) throws(ScenarioError) {
        guard case .scalar(let s) = node, s.string == String(Scenario.supportedFormat) else {
            throw .unsupportedFormat(at: reader.location(node), found: reader.found(node))
        }
    }

    /// One line; a single final newline (from `title: >`) is dropped.
    private func title(_ node: Node) throws(ScenarioError) -> String {
        var title = try reader.string(node, what: "'title'")
        if title.hasSuffix("\n") { title.removeLast() }
        guard !title.contains("\n"), !title.contains("\r") else {
            throw .multilineTitle(at: reader.location(node))
        }
        try checkLength(title, of: node, what: "'title'", limit: ScenarioVocabulary.maxTitleLength)
        return title
    }

    private func appState(_ node: Node) throws(ScenarioError) -> AppState {
        let text = try reader.string(node, what: "'app'")
        guard let state = AppState(rawValue: text) else {
            throw .badAppState(at: reader.location(node), value: text)
        }
        return state
    }

    /// `environment: production | sandbox`.
    private func environment(_ node: Node) throws(ScenarioError) -> StoreEnvironment {
        let text = try reader.string(node, what: "'environment'")
        guard let environment = StoreEnvironment(rawValue: text) else {
            throw .badArgument(
                at: reader.location(node), command: "environment", word: text, expected: "production or sandbox")
        }
        return environment
    }

    /// `merchant: simulated | external`.
    private func merchant(_ node: Node) throws(ScenarioError) -> MerchantMode {
        let text = try reader.string(node, what: "'merchant'")
        guard let mode = MerchantMode(rawValue: text) else {
            throw .badArgument(
                at: reader.location(node), command: "merchant", word: text, expected: "simulated or external")
        }
        return mode
    }

    /// `grace-renewals: all | paid-to-paid-only`.
    private func graceRenewals(_ node: Node) throws(ScenarioError) -> GraceRenewals {
        let text = try reader.string(node, what: "'grace-renewals'")
        guard let found = GraceRenewals(rawValue: text) else {
            throw .badArgument(
                at: reader.location(node), command: "grace-renewals", word: text,
                expected: ScenarioVocabulary.list(GraceRenewals.allCases.map(\.rawValue)))
        }
        return found
    }

    /// `grace-period: off | 3d | 16d | 28d`.
    private func gracePeriod(_ node: Node) throws(ScenarioError) -> VirtualTime? {
        let text = try reader.string(node, what: "'grace-period'")
        let choices = ScenarioVocabulary.gracePeriods
        guard let found = choices.first(where: { $0.word == text }) else {
            throw .badArgument(
                at: reader.location(node), command: "grace-period", word: text,
                expected: ScenarioVocabulary.list(choices.map(\.word)))
        }
        return found.ms
    }

    private func users(_ node: Node) throws(ScenarioError) -> [String] {
        let items = try reader.items(node, what: "'users'")
        guard !items.isEmpty else { throw .noUsers(at: reader.location(node)) }
        let limit = ScenarioVocabulary.maxUsers
        guard items.count <= limit else {
            throw .tooMany(
                at: reader.location(items[limit]), what: "users", count: items.count,
                limit: limit)
        }
        var users: [String] = []
        for item in items {
            let name = try reader.string(item, what: "each user")
            try checkLength(
                name, of: item, what: "a user name",
                limit: ScenarioVocabulary.maxUserNameLength)
            guard ScenarioVocabulary.isUserName(name) else {
                throw .badUserName(at: reader.location(item), name: name)
            }
            guard !users.contains(name) else {
                throw .duplicateUser(at: reader.location(item), name: name)
            }
            users.append(name)
        }
        return users
    }

    private func checkLength(_ text: String, of node: Node, what: String, limit: Int)
        throws(ScenarioError)
    {
        let length = text.count
        guard length <= limit else {
            throw .tooLong(at: reader.location(node), what: what, length: length, limit: limit)
        }
    }
}
