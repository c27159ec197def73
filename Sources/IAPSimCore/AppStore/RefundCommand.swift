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
