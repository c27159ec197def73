import IAPSimCore
import Yams

extension ScenarioBuilder {
    /// The steps, in order. `earliest` follows the earliest virtual time at which each step
    /// ends (its trigger, then its `wait`), so an `at` that could never be honoured is refused
    /// before anything runs, naming the step that set that time.
    func steps(_ node: Node, users: [String], world: StoreKitWorld = .one) throws(ScenarioError) -> [Step] {
        let commands = CommandParser(users: users, catalog: catalog)
        let items = try reader.items(node, what: "'steps'")
        let limit = ScenarioVocabulary.maxSteps
        guard items.count <= limit else {
            throw .tooMany(
                at: reader.location(items[limit]), what: "steps", count: items.count,
                limit: limit)
        }
        var earliest = Earliest()
        var steps: [Step] = []
        var world = world
        for item in items {
            let step = try self.step(item, commands: commands, earliest: earliest)
            try checkWorld(step.command, in: &world, item: item)
            earliest.advance(past: step)
            steps.append(step)
        }
        return steps
    }

    /// Subscriptions exist in the StoreKit 2 world only: a step that names a subscription
    /// product while the world is StoreKit 1 is refused, naming the key that allows it.
    /// `world` follows the steps' `policy storekit` and `policy preset` changes.
    private func checkWorld(_ command: Command, in world: inout StoreKitWorld, item: Node) throws(ScenarioError) {
        switch command {
        case .setPolicy(let s) where s.key == .storekit: world = StoreKitWorld(rawValue: s.value) ?? world
        case .setPreset(let preset): world = preset.policy.storekit
        case .buy(let product), .subscription(.changePlan(let product)),
            .subscription(.priceIncrease(let product, _, _)), .subscription(.buyOffer(let product, _)):
            guard world == .one, catalog.product(product)?.subscription != nil else { return }
            throw .subscriptionNeedsStoreKit2(at: reader.location(doNode(item)), product: product)
        case .subscription(.redeemCode(let code)):
            // An offer code is a subscription's.
            guard world == .one, let product = catalog.offerCode(code)?.product else { return }
            throw .subscriptionNeedsStoreKit2(at: reader.location(doNode(item)), product: product)
        case .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login, .logout, .network,
            .networkFault, .storeFault, .askToBuy, .approve, .decline, .replay, .forge, .serverOutage, .serverAPIFault,
            .refundLoop, .spend, .subscription(.billingFail), .subscription(.autoRenew),
            .subscription(.delayNextNotification), .subscription(.gracePeriod), .subscription(.consentToPriceIncrease),
            .subscription(.deferMessages),
            .subscription(.family), .heal, .setPolicy, .wait, .settle:
            return
        }
    }

    /// A step's `do` value (the step itself when it has none).
    private func doNode(_ item: Node) -> Node {
        (try? reader.entries(item, what: "a step"))?.first { $0.key == "do" }?.value ?? item
    }

    /// The earliest virtual time the steps so far end at, and the line of the step that
    /// last moved it.
    struct Earliest {
        var time: VirtualTime = 0
        var line = 0

        mutating func advance(past step: Step) {
            let before = time
            switch step.trigger {
            case .at(let at): time = at
            case .after(let delay): time += delay
            case .when: break
            }
            if case .wait(let duration) = step.command { time += duration }
            if time != before { line = step.line }
        }
    }

    private func step(_ node: Node, commands: CommandParser, earliest: Earliest)
        throws(ScenarioError) -> Step
    {
        var trigger: Entry?
        var within: Entry?
        var command: Entry?
        var say: String?
        for entry in try reader.entries(node, what: "each step") {
            switch entry.key {
            case "at", "after", "when":
                if let first = trigger {
                    throw .twoTriggers(
                        at: reader.location(entry.keyNode), first: first.key,
                        second: entry.key)
                }
                trigger = entry
            case "within": within = entry
            case "do": command = entry
            case "say": say = try reader.string(entry.value, what: "'say'")
            default:
                throw .unknownStepKey(at: reader.location(entry.keyNode), key: entry.key)
            }
        }
        guard let command else { throw .missingCommand(at: reader.location(node)) }
        if let within, trigger?.key != "when" {
            throw .withinWithoutWhen(at: reader.location(within.keyNode))
        }
        let start = reader.location(node)
        return Step(
            try self.trigger(trigger, within: within, earliest: earliest),
            try self.command(command.value, commands: commands),
            say: say, line: start.line, column: start.column)
    }

    private func trigger(_ entry: Entry?, within: Entry?, earliest: Earliest)
        throws(ScenarioError) -> Trigger
    {
        guard let entry else { return .after(0) }
        switch entry.key {
        case "at":
            let time = try duration(entry.value, key: "at")
            guard time >= earliest.time else {
                throw .atBeforePrevious(
                    at: reader.location(entry.value), time: time,
                    earliest: earliest.time, previousLine: earliest.line)
            }
            return .at(time)
        case "after":
            return .after(try duration(entry.value, key: "after"))
        default:
            let name = try reader.string(entry.value, what: "'when'")
            guard let event = TriggerEvent(rawValue: name) else {
                throw .unknownEvent(at: reader.location(entry.value), name: name)
            }
            let limit = try within.map { entry throws(ScenarioError) in
                try duration(entry.value, key: "within")
            }
            return .when(event, within: limit ?? Trigger.defaultWithin)
        }
    }

    private func duration(_ node: Node, key: String) throws(ScenarioError) -> VirtualTime {
        let text = try reader.string(node, what: "'\(key)'")
        guard let ms = DurationText.parse(text) else {
            throw .badDuration(at: reader.location(node), what: key, text: text)
        }
        guard ms <= ScenarioVocabulary.maxDurationMs else {
            throw .durationTooLong(at: reader.location(node), what: key, text: text)
        }
        return ms
    }

    private func command(_ node: Node, commands: CommandParser) throws(ScenarioError) -> Command {
        let text = try reader.string(node, what: "'do'")
        do {
            return try commands.parse(text)
        } catch {
            let at =
                error.problem == .empty
                ? reader.location(node) : reader.location(ofOffset: error.offset, in: node)
            throw error.scenarioError(at: at)
        }
    }
}
