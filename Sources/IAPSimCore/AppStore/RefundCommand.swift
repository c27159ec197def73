/// The refund loop's commands (docs/world.md, "The server side"): Apple refunds a charge,
/// the customer asks for a refund, Apple declines one or reverses one. One family of
/// `Command` (`Command.refundLoop`): its words, its vocabulary rows
/// (`CommandSpec+ServerSide.swift`), its refusal, what it does and its narration, each an
/// exhaustive switch here, so that a new case is named by the compiler in this file alone.
package enum RefundCommand: Sendable, Hashable {
    /// `refund TXN|newest [percent N|remaining]` (nil: the newest charge): Apple refunds N
    /// percent of that charge (100: all of it; `Command.remainingShare`: a subscription
    /// period's unused share).
    case refund(txn: String?, percent: Int = 100)
    /// `refund-request TXN|newest [reason R]`: the customer asks Apple for a refund.
    case request(txn: String?, reason: ConsumptionRequestReason = .unsatisfiedWithPurchase)
    /// `refund-decline TXN|newest`: Apple declines the refund request (`REFUND_DECLINED`).
    case decline(txn: String?)
    /// `refund-reverse TXN|newest` (nil: the newest refund in effect): Apple reverses it.
    case reverse(txn: String?)

    /// The command's text as a scenario file writes it.
    var scenarioText: String {
        switch self {
        case .refund(let txn, let percent):
            if percent == Command.remainingShare { return "refund \(txn ?? "newest") remaining" }
            return "refund \(txn ?? "newest")" + (percent == 100 ? "" : " percent \(percent)")
        case .request(let txn, let reason):
            return "refund-request \(txn ?? "newest")"
                + (reason == .unsatisfiedWithPurchase ? "" : " reason \(reason.rawValue)")
        case .decline(let txn): return "refund-decline \(txn ?? "newest")"
        case .reverse(let txn): return "refund-reverse \(txn ?? "newest")"
        }
    }

    /// Its row of the vocabulary.
    var spec: CommandSpec {
        switch self {
        case .refund: return .refund
        case .request: return .refundRequest
        case .decline: return .refundDecline
        case .reverse: return .refundReverse
        }
    }

    /// A line a generated story says for it (explore's findings).
    var narration: String {
        switch self {
        case .refund(let txn, let percent):
            let what = txn.map { "charge \($0)" } ?? "the newest charge"
            return percent == 100 ? "Apple refunds \(what)." : "Apple refunds \(percent)% of \(what)."
        case .request(let txn, _): return "The customer asks Apple to refund \(txn ?? "the newest charge")."
        case .decline(let txn): return "Apple declines the refund of \(txn ?? "the newest charge")."
        case .reverse(let txn): return "Apple reverses the refund of \(txn ?? "the newest refund")."
        }
    }
}

extension Command {
    package static func refund(txn: String?, percent: Int = 100) -> Command {
        .refundLoop(.refund(txn: txn, percent: percent))
    }
    package static func refundRequest(
        txn: String?, reason: ConsumptionRequestReason = .unsatisfiedWithPurchase
    ) -> Command {
        .refundLoop(.request(txn: txn, reason: reason))
    }
    package static func refundDecline(txn: String?) -> Command { .refundLoop(.decline(txn: txn)) }
    package static func refundReverse(txn: String?) -> Command { .refundLoop(.reverse(txn: txn)) }
}

extension World {
    /// Why a command of the refund loop cannot run now, or nil.
    mutating func refusing(_ command: RefundCommand) -> String? {
        switch command {
        case .refund(let txn, _), .request(let txn, _), .decline(let txn):
            if refundTarget(txn) == nil {
                return txn.map { "\($0) is no charge that can be refunded (never charged, or refunded already)" }
                    ?? "no charge to refund"
            }
        case .reverse(let txn):
            if reversalTarget(txn) == nil {
                return txn.map { "\($0) has no refund in effect to reverse" } ?? "no refund in effect to reverse"
            }
        }
        return nil
    }

    /// Apple acts on the charge (or the refund) the command names.
    mutating func perform(_ command: RefundCommand) {
        switch command {
        case .refund(let txn, let percent):
            guard let target = refundTarget(txn) else { return }
            store.refund(target, percent: percent, &outbox)
            revokedOnUpdates(target)
        case .request(let txn, let reason):
            if let target = refundTarget(txn) { store.refundRequested(target, reason: reason, &outbox) }
        case .decline(let txn):
            if let target = refundTarget(txn) { store.refundDeclined(target, &outbox) }
        case .reverse(let txn):
            if let target = reversalTarget(txn) { store.refundReversed(target, &outbox) }
        }
    }

    /// The charge `refund TXN` names (nil: the newest charge), if it can be refunded.
    func refundTarget(_ txn: String?) -> String? {
        let refundable = store.refundable
        guard let txn else { return refundable.max { ($0.chargedAt ?? 0) < ($1.chargedAt ?? 0) }?.id }
        return refundable.contains { $0.id == txn } ? txn : nil
    }

    /// The refund `refund-reverse TXN` names (nil: the newest refund in effect), if in effect.
    func reversalTarget(_ txn: String?) -> String? {
        let reversible = store.reversible
        guard let txn else { return reversible.max { ($0.refundedAt ?? 0) < ($1.refundedAt ?? 0) }?.id }
        return reversible.contains { $0.id == txn } ? txn : nil
    }

    /// StoreKit 2: a refund reaches a running app on `Transaction.updates`, the transaction
    /// with its `revocationDate` (Apple); it is not replayed at a later launch.
    mutating func revokedOnUpdates(_ txn: String) {
        guard policy.storekit == .two, app.isRunning, app.observerRegistered, !app.inBackground else { return }
        outbox.log(.app, .revocationEmitted(txn: txn))
        // The revoked transaction reached the app, signed now: a report the app still owes
        // the server carries this JWS from now on, not the one it kept from the purchase.
        guard app.hasRecord(txn), let t = store.transaction(txn), let signed = store.sign(t, now: now) else { return }
        outbox.log(.storeKit, .transactionSigned(signed))
        app.replaceSigned(signed)
    }
}

/// The refund loop as rows of the vocabulary (docs/scenario-format.md). Not on explore's wheel:
/// explore adds refunds to the schedules of worlds with a server-side key on
/// (`Schedule.addServerSideSteps`).
extension CommandSpec {
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
}

extension RefundCommand {
    /// The family's rows of the vocabulary, in the format's order (`CommandSpec.all` is built
    /// from the families).
    static let specs: [CommandSpec] = [.refund, .refundRequest, .refundDecline, .refundReverse]
}
