/// The vocabulary's server-side rows (docs/scenario-format.md): the merchant server's outage,
/// the refund loop and spending. `CommandSpec.all` (Command.swift) lists them in the format's order.
extension CommandSpec {
    // The server side: not on explore's wheel either; explore adds refunds and spending to
    // the schedules of worlds with a server-side key on (`Schedule.addServerSideSteps`), and
    // the server's faults to every world's (`Schedule.addServerFaultSteps`, `faultDraws`).
    static let serverOutage = CommandSpec(
        "server-outage", usage: "server-outage on|off",
        faultIf: { $0 == .serverOutage(on: true) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .serverOutage(on: try a.onOff(0))
        },
        doc: "`on`: the merchant server answers every request (orders, recharges, notifications) with HTTP 503 "
            + "until it is turned `off`")
    static let refund = CommandSpec(
        "refund", usage: "refund TXN|newest [percent N|remaining]",
        read: { a throws(CommandError) in try a.refund() },
        doc: "Apple refunds that charge (`newest`: the newest charge not refunded yet); `percent N` (1 to 100, "
            + "default 100) refunds N percent of the price (`REFUND_PRORATED`); `remaining` refunds the unused share "
            + "of a subscription's current period, to the whole percent; a REFUND notification goes out when the "
            + "server has a notification URL")
    static let refundRequest = CommandSpec(
        "refund-request", usage: "refund-request TXN|newest [reason REASON]",
        read: { a throws(CommandError) in try a.refundRequest() },
        doc: "the customer asks Apple for a refund of that charge; a consumable's or a subscription's request sends "
            + "`CONSUMPTION_REQUEST` with `consumptionRequestReason` (`reason`: `UNINTENDED_PURCHASE`, "
            + "`FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE` (default), `LEGAL`, `OTHER`), which a server with "
            + "`server-consumption-answer true` answers; for a subscription the App Store also turns auto-renew off; "
            + "Apple decides later, by `refund` or `refund-decline`")
    static let refundDecline = naming(
        "refund-decline", doc: "Apple declines the customer's refund request (`REFUND_DECLINED`)"
    ) { .refundDecline(txn: $0) }
    static let refundReverse = naming(
        "refund-reverse",
        doc: "Apple reverses a refund in effect (`REFUND_REVERSED`; `newest`: the newest one): the customer has "
            + "paid again"
    ) { .refundReverse(txn: $0) }

    /// A command of the refund loop that names one transaction id, or `newest`.
    static func naming(_ word: String, doc: String, _ make: @escaping @Sendable (String?) -> Command) -> CommandSpec {
        CommandSpec(
            word, usage: "\(word) TXN|newest",
            read: { a throws(CommandError) in
                try a.exactly(1)
                return make(try a.refundTarget(0))
            }, doc: doc)
    }
    static let spend = CommandSpec(
        "spend", usage: "spend USER COINS",
        read: { a throws(CommandError) in
            try a.exactly(2)
            return .spend(user: try a.user(0), coins: try a.coins(1))
        },
        doc: "USER spends COINS coins in the app (the app must be running); refused, with the reason logged, when "
            + "the balance is short")
}
