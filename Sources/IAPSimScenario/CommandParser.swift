import IAPSimCore

/// Reads one command as a scenario's `do:` writes it (`buy coins_100`, `latency verify 2s`,
/// `policy resend-on launch,network`) into a `Command`. Exact words only: no abbreviations,
/// no case folding. Users and products are checked against the scenario's lists.
public struct CommandParser: Sendable {
    public var users: [String]
    public var catalog: Catalog

    public init(users: [String], catalog: Catalog = .standard) {
        self.users = users
        self.catalog = catalog
    }

    /// How each command that takes arguments is written, for error messages.
    public static let usage: [String: String] = [
        "buy": "buy PRODUCT",
        "login": "login USER",
        "network": "network on|off",
        "store-outage": "store-outage on|off",
        "ask-to-buy": "ask-to-buy on|off",
        "drop-next-request": "drop-next-request ROUTE",
        "drop-next-response": "drop-next-response ROUTE",
        "latency": "latency ROUTE DURATION",
        "fail-next-payment": "fail-next-payment [" + ScenarioVocabulary.failReasons
            .joined(separator: "|") + "]",
        "policy": "policy KEY VALUE",
        "wait": "wait DURATION",
    ]

    /// Parses `text`; the error says which word is wrong and where it starts.
    public func parse(_ text: String) throws(CommandError) -> Command {
        let words = Word.split(text)
        guard let name = words.first else { throw CommandError(offset: 0, problem: .empty) }
        let args = Array(words.dropFirst())
        if let command = Self.bare[name.text] {
            try expect(args, count: 0, command: name.text)
            return command
        }
        switch name.text {
        case "buy", "login":
            try expect(args, count: 1, command: name.text, after: name)
            return name.text == "buy" ? .buy(product: try product(args[0]))
                : .login(user: try user(args[0]))
        case "network", "store-outage", "ask-to-buy":
            try expect(args, count: 1, command: name.text, after: name)
            let on = try onOff(args[0], command: name.text)
            return name.text == "network" ? .network(on: on)
                : name.text == "store-outage" ? .storeOutage(on: on) : .askToBuy(on: on)
        case "drop-next-request", "drop-next-response":
            try expect(args, count: 1, command: name.text, after: name)
            let r = try route(args[0])
            return name.text == "drop-next-request" ? .dropNextRequest(r) : .dropNextResponse(r)
        case "latency":
            try expect(args, count: 2, command: name.text, after: name)
            return .latency(try route(args[0]), try duration(args[1], command: name.text))
        case "wait":
            try expect(args, count: 1, command: name.text, after: name)
            return .wait(try duration(args[0], command: name.text))
        case "fail-next-payment":
            return try failNextPayment(args, after: name)
        case "policy":
            return try policy(text, args, after: name)
        default:
            throw CommandError(offset: name.offset, problem: .unknownCommand(name.text))
        }
    }

    /// The commands that take no argument.
    static let bare: [String: Command] = [
        "open-store": .openStore, "close-store": .closeStore, "crash": .crash,
        "launch": .launch, "uninstall": .uninstall, "logout": .logout,
        "interrupt-next-payment": .interruptNextPayment, "approve": .approve,
        "decline": .decline, "replay": .replay, "settle": .settle,
    ]

    private func expect(
        _ args: [Word], count: Int, command: String, after name: Word? = nil
    ) throws(CommandError) {
        let usage = Self.usage[command] ?? command
        if args.count > count {
            let extra = args[count]
            throw CommandError(
                offset: extra.offset, problem: .extraArgument(command, extra.text, usage: usage))
        }
        if args.count < count {
            let end = (args.last ?? name).map { $0.offset + $0.text.unicodeScalars.count } ?? 0
            throw CommandError(offset: end, problem: .missingArgument(command, usage: usage))
        }
    }

    private func product(_ word: Word) throws(CommandError) -> String {
        guard catalog.product(word.text) != nil else {
            throw CommandError(offset: word.offset, problem: .unknownProduct(word.text, products: catalog.ids))
        }
        return word.text
    }

    private func user(_ word: Word) throws(CommandError) -> String {
        guard users.contains(word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownUser(word.text, users: users))
        }
        return word.text
    }

    private func onOff(_ word: Word, command: String) throws(CommandError) -> Bool {
        switch word.text {
        case "on": return true
        case "off": return false
        default: throw CommandError(offset: word.offset, problem: .badSwitch(command, word.text))
        }
    }

    private func route(_ word: Word) throws(CommandError) -> Route {
        guard let r = Route(rawValue: word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownRoute(word.text))
        }
        return r
    }

    private func duration(_ word: Word, command: String) throws(CommandError) -> VirtualTime {
        guard let ms = DurationText.parse(word.text) else {
            throw CommandError(offset: word.offset, problem: .badDuration(command, word.text))
        }
        guard ms <= ScenarioVocabulary.maxDurationMs else {
            throw CommandError(offset: word.offset, problem: .durationTooLong(command, word.text))
        }
        return ms
    }

    private func failNextPayment(_ args: [Word], after name: Word) throws(CommandError) -> Command {
        if args.isEmpty { return .failNextPayment(.cancelled) }
        try expect(args, count: 1, command: name.text)
        let word = args[0]
        if word.text == "unfinished" { return .failNextPaymentUnfinished }
        guard let reason = PaymentFailure(rawValue: word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownFailReason(word.text))
        }
        return .failNextPayment(reason)
    }

    /// `policy KEY VALUE`: the value is the rest of the line, so `launch, network` works
    /// as well as `launch,network`. The command keeps the value in its canonical spelling.
    private func policy(_ text: String, _ args: [Word], after name: Word) throws(CommandError)
        -> Command
    {
        try expect(Array(args.prefix(1)), count: 1, command: name.text, after: name)
        let keyWord = args[0]
        if keyWord.text == "preset" {
            try expect(Array(args.dropFirst()), count: 1, command: name.text, after: keyWord)
            guard let preset = PolicyPreset(rawValue: args[1].text) else {
                throw CommandError(offset: args[1].offset, problem: .unknownPreset(args[1].text))
            }
            return .setPreset(preset)
        }
        guard let key = PolicyKey(rawValue: keyWord.text) else {
            throw CommandError(offset: keyWord.offset, problem: .unknownPolicyKey(keyWord.text))
        }
        guard args.count > 1 else {
            throw CommandError(
                offset: keyWord.offset + keyWord.text.unicodeScalars.count,
                problem: .missingArgument(name.text, usage: Self.usage["policy"]!))
        }
        let valueText = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst(args[1].offset)))
        let value = Word.trim(valueText)
        var policy = PolicyPreset.hardened.policy
        do {
            try policy.set(key, to: value)
        } catch {
            throw CommandError(
                offset: args[1].offset, problem: .badPolicyValue(key: key.rawValue, value: value, accepted: error.accepted))
        }
        return .setPolicy(key, policy.value(of: key))
    }
}
