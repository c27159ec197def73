/// The words after a command's word, being read into the command's values. Exact words
/// only: no abbreviations, no case folding; users and products are checked against the
/// run's lists. Every refusal names the word and where it starts.
package struct CommandArguments: Sendable {
    /// The whole command text (a policy value is the rest of the line).
    let text: String
    /// The command word.
    let name: CommandWord
    let words: [CommandWord]
    let usage: String
    let users: [String]
    let catalog: Catalog

    /// The longest duration a command may write: 400 days of virtual time (a year of
    /// subscription renewals and more). Longer waits would only let periodic work run on.
    package static let maxDurationMs: VirtualTime = 400 * 24 * 3_600_000

    /// Refuses fewer or more words than `count` (`args`: the words looked at, all by
    /// default; `after`: the word a missing argument would follow).
    func expect(_ count: Int, of args: [CommandWord]? = nil, after: CommandWord? = nil)
        throws(CommandError)
    {
        let args = args ?? words
        if args.count > count {
            let extra = args[count]
            throw CommandError(
                offset: extra.offset, problem: .extraArgument(name.text, extra.text, usage: usage))
        }
        if args.count < count {
            let end = (args.last ?? after).map { $0.offset + $0.text.unicodeScalars.count } ?? 0
            throw CommandError(offset: end, problem: .missingArgument(name.text, usage: usage))
        }
    }

    /// Exactly `count` words, a missing one placed after the command word.
    func exactly(_ count: Int) throws(CommandError) { try expect(count, after: name) }

    func product(_ i: Int) throws(CommandError) -> String {
        let word = words[i]
        guard catalog.contains(word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownProduct(word.text, products: catalog.allIds))
        }
        return word.text
    }

    /// Word `i`, a promotional or win-back offer of the product at word `product`.
    func promotionalOffer(_ i: Int, of product: Int) throws(CommandError) -> String {
        let word = words[i]
        let terms = catalog.product(words[product].text)?.subscription
        let offers = (terms?.promotional ?? []).compactMap(\.promotionalId) + (terms?.winBack ?? []).map(\.id)
        guard offers.contains(word.text) else {
            throw CommandError(
                offset: word.offset,
                problem: .badArgument(
                    "buy", word.text,
                    expected: offers.isEmpty
                        ? "none: \(words[product].text) has no promotional or win-back offer (a .storekit file's"
                            + " adHocOffers, winbackOffers)"
                        : offers.joined(separator: ", ")))
        }
        return word.text
    }

    /// Word `i`, an offer code of the catalog: an offer's custom code, or one of its one-time
    /// codes (`CODE-1` to `CODE-9999`).
    func offerCode(_ i: Int) throws(CommandError) -> String {
        let word = words[i]
        guard catalog.offerCode(word.text) == nil else { return word.text }
        let codes = catalog.subscriptions.flatMap { $0.subscription?.codes ?? [] }.map(\.customCode)
        throw CommandError(
            offset: word.offset,
            problem: .badArgument(
                "redeem-code", word.text,
                expected: codes.isEmpty
                    ? "none: the catalog has no offer code (a .storekit file's codeOffers)"
                    : codes.map { "\($0) (custom), \($0)-N (one-time, N from 1 to 9999)" }.joined(separator: ", ")))
    }

    func user(_ i: Int) throws(CommandError) -> String {
        let word = words[i]
        guard users.contains(word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownUser(word.text, users: users))
        }
        return word.text
    }

    func onOff(_ i: Int) throws(CommandError) -> Bool {
        let word = words[i]
        switch word.text {
        case "on": return true
        case "off": return false
        default: throw CommandError(offset: word.offset, problem: .badSwitch(name.text, word.text))
        }
    }

    func route(_ i: Int) throws(CommandError) -> Route {
        let word = words[i]
        guard let r = Route(rawValue: word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownRoute(word.text))
        }
        return r
    }

    func duration(_ i: Int) throws(CommandError) -> VirtualTime {
        let word = words[i]
        guard let ms = DurationText.parse(word.text) else {
            throw CommandError(offset: word.offset, problem: .badDuration(name.text, word.text))
        }
        guard ms <= Self.maxDurationMs else {
            throw CommandError(offset: word.offset, problem: .durationTooLong(name.text, word.text))
        }
        return ms
    }

    /// A transaction id (digits) or `newest` (nil).
    func refundTarget(_ i: Int) throws(CommandError) -> String? {
        let word = words[i]
        if word.text == "newest" { return nil }
        guard !word.text.isEmpty, word.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw CommandError(
                offset: word.offset,
                problem: .badArgument(
                    name.text, word.text,
                    expected: "a transaction id or newest"))
        }
        return word.text
    }

    /// `refund TXN|newest [percent N|remaining]`, N from 1 to 100.
    func refund() throws(CommandError) -> Command {
        if words.count == 2, words[1].text == "remaining" {
            return .refund(txn: try refundTarget(0), percent: Command.remainingShare)
        }
        if words.count != 3 { try exactly(1) }
        let txn = try refundTarget(0)
        guard words.count == 3 else { return .refund(txn: txn) }
        let value = try keywordValue("percent", usage: "percent N")
        guard let n = Int(value), (1...100).contains(n) else {
            throw bad(2, expected: "a whole percent from 1 to 100")
        }
        return .refund(txn: txn, percent: n)
    }

    /// `refund-request TXN|newest [reason REASON]`, a `ConsumptionRequestReason`.
    func refundRequest() throws(CommandError) -> Command {
        if words.count != 3 { try exactly(1) }
        let txn = try refundTarget(0)
        guard words.count == 3 else { return .refundRequest(txn: txn) }
        let value = try keywordValue("reason", usage: "reason REASON")
        guard let reason = ConsumptionRequestReason(rawValue: value) else {
            throw bad(2, expected: ConsumptionRequestReason.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return .refundRequest(txn: txn, reason: reason)
    }

    /// `forge PRODUCT [environment NAME]`: the environment the forged JWS claims.
    func forge() throws(CommandError) -> Command {
        if words.count != 3 { try exactly(1) }
        let product = try self.product(0)
        guard words.count == 3 else { return .forge(product: product) }
        let claims = ["Xcode", "LocalTesting", "Sandbox", "Production"]
        let value = try keywordValue("environment", usage: "environment NAME")
        guard claims.contains(value) else {
            throw bad(2, expected: "an environment: " + claims.joined(separator: ", "))
        }
        return .forge(product: product, environment: value)
    }

    /// The value of a command's optional `KEYWORD VALUE` (its second and third words).
    func keywordValue(_ keyword: String, usage: String) throws(CommandError) -> String {
        guard words[1].text == keyword else { throw bad(1, expected: usage) }
        return words[2].text
    }

    /// Word `i` is not what the command takes.
    func bad(_ i: Int, expected: String) -> CommandError {
        CommandError(offset: words[i].offset, problem: .badArgument(name.text, words[i].text, expected: expected))
    }

    /// A whole number of coins, 1 or more.
    func coins(_ i: Int) throws(CommandError) -> Int {
        let word = words[i]
        guard let n = Int(word.text), n > 0, n <= 1_000_000 else {
            throw CommandError(
                offset: word.offset,
                problem: .badArgument(
                    name.text, word.text,
                    expected: "a whole number of coins from 1 to 1000000"))
        }
        return n
    }

    /// A `verifyReceipt` status the App Store can be made to answer.
    func statusCode(_ i: Int) throws(CommandError) -> Int {
        let word = words[i]
        guard let code = Int(word.text), VerifyStatus.canBeArmed(code) else {
            throw CommandError(offset: word.offset, problem: .badStatusCode(word.text))
        }
        return code
    }

    /// `fail-next-payment [REASON|unfinished]`.
    func failure() throws(CommandError) -> Command {
        if words.isEmpty { return .failNextPayment(.cancelled) }
        try expect(1)
        let word = words[0]
        if word.text == "unfinished" { return .failNextPaymentUnfinished }
        guard let reason = PaymentFailure(rawValue: word.text) else {
            throw CommandError(offset: word.offset, problem: .unknownFailReason(word.text))
        }
        return .failNextPayment(reason)
    }

    /// `policy KEY VALUE`: the value is the rest of the line, so `launch, network` works
    /// as well as `launch,network`. The command keeps the value in its canonical spelling.
    func policy() throws(CommandError) -> Command {
        try expect(1, of: Array(words.prefix(1)), after: name)
        let keyWord = words[0]
        if keyWord.text == "preset" {
            try expect(1, of: Array(words.dropFirst()), after: keyWord)
            guard let preset = PolicyPreset(rawValue: words[1].text) else {
                throw CommandError(offset: words[1].offset, problem: .unknownPreset(words[1].text))
            }
            return .setPreset(preset)
        }
        guard let key = PolicyKey(rawValue: keyWord.text) else {
            throw CommandError(offset: keyWord.offset, problem: .unknownPolicyKey(keyWord.text))
        }
        guard words.count > 1 else {
            throw CommandError(
                offset: keyWord.offset + keyWord.text.unicodeScalars.count,
                problem: .missingArgument(name.text, usage: usage))
        }
        let valueText = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst(words[1].offset)))
        let value = CommandWord.trim(valueText)
        do {
            return .setPolicy(try PolicySetting(key, value))
        } catch {
            throw CommandError(
                offset: words[1].offset,
                problem: .badPolicyValue(key: key.rawValue, value: value, accepted: error.accepted))
        }
    }
}

extension Command {
    /// Reads one command as a scenario's `do:` writes it (`buy coins_100`, `latency verify
    /// 2s`, `policy resend-on launch,network`); the error says which word is wrong and
    /// where it starts.
    package static func read(_ text: String, users: [String], catalog: Catalog = .standard)
        throws(CommandError) -> Command
    {
        let words = CommandWord.split(text)
        guard let name = words.first else { throw CommandError(offset: 0, problem: .empty) }
        guard let spec = CommandSpec.named(name.text) else {
            throw CommandError(offset: name.offset, problem: .unknownCommand(name.text))
        }
        let arguments = CommandArguments(
            text: text, name: name, words: Array(words.dropFirst()),
            usage: spec.usage, users: users, catalog: catalog)
        return try spec.read(arguments)
    }
}

extension Command {
    /// The `percent` of `refund TXN remaining`: the unused share of a subscription's current
    /// period, worked out when Apple refunds it.
    package static let remainingShare = 0
}
