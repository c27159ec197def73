/// What each anomaly type means and which policy settings prevent it (DOMAIN.md, TRUTH.md
/// C7): the one table that the transcript, the `--log` export and the UI all read.
extension AnomalyType {
    /// One line a trainee reads first.
    package var meaning: String {
        switch self {
        case .lostOrder:
            return
                "the App Store charged, but the app never handled the transaction (killed during the purchase, or no observer to receive the redelivery)"
        case .missedOrder:
            return
                "the app got `purchased`, but the server never credited it (request or answer lost, app quit, no retry left)"
        case .replayFraud:
            return
                "someone sent an old valid receipt with a fresh order; a server that checks only \"receipt valid, order exists\" credits again"
        case .duplicateReceipt:
            return
                "an under-credit by wrong pairing: the order was paired with another (stale) transaction, so the real payment went uncredited (not a double delivery: that is double-credit)"
        case .doubleCredit:
            return "one charge was credited more than once (a retransmission or a redelivery credited again)"
        case .wrongAccount:
            return "the purchase was credited to an account other than the buyer's"
        case .refundUnclawed:
            return
                "Apple refunded the charge, but the coins credited for it were not taken back (the server never heard of the refund, or kept the coins); before a refund, answering CONSUMPTION_REQUEST with consumption information is the lever"
        case .refundOverclawed:
            return
                "the customer lost more than the refund gave back: a full clawback on a prorated refund, or a clawback not restored after REFUND_REVERSED"
        }
    }

    /// `meaning` in the names of `world`: StoreKit 2 has `purchase()` and
    /// `Transaction.updates`, not an observer, and a signed transaction, not a receipt.
    package func meaning(in world: StoreKitWorld) -> String {
        guard world == .two else { return meaning }
        switch self {
        case .lostOrder:
            return
                "the App Store charged, but the app never handled the transaction (killed during purchase(), or no Transaction.updates listener when it was emitted)"
        case .missedOrder:
            return
                "purchase() returned .success, but the server never credited it (request or answer lost, app quit, no retry left)"
        case .replayFraud:
            return
                "someone sent a jwsRepresentation nobody paid for again (a genuine one replayed, or a forged one) with a fresh order; a server that checks only \"signature valid, order exists\" credits again"
        case .duplicateReceipt:
            return "StoreKit 1 only: an order paired with a stale transaction; StoreKit 2 has no pairing by position"
        default: return meaning
        }
    }

    /// The settings that would have prevented this type, in order of preference.
    package var preventedBy: [(key: PolicyKey, value: String)] {
        switch self {
        case .lostOrder: return [(.observer, "launch")]
        case .missedOrder: return [(.persist, "keychain"), (.retryImmediate, "3")]
        case .replayFraud: return [(.serverBindOrder, "true")]
        case .duplicateReceipt: return [(.match, "token"), (.finishFailed, "true")]
        case .doubleCredit: return [(.serverDedup, "true")]
        case .wrongAccount: return [(.creditTo, "order-owner")]
        // The server must hear of the refund (a REFUND notification, or reconciliation with
        // `server-reconcile`) and take the coins back.
        case .refundUnclawed: return [(.serverClawback, "refunded-share"), (.serverNotifications, "true")]
        // Take back only the refunded share, and give it back when Apple reverses the refund.
        case .refundOverclawed: return [(.serverClawback, "refunded-share"), (.serverRefundReversed, "restore")]
        }
    }

    /// The settings that prevent this type in `world`: StoreKit 2 adds its own (a sweep of
    /// `Transaction.unfinished` ends lost orders too; only a server that verifies the JWS
    /// refuses a forged one).
    package func preventedBy(in world: StoreKitWorld) -> [(key: PolicyKey, value: String)] {
        guard world == .two else { return preventedBy }
        switch self {
        case .lostOrder: return preventedBy + [(.sweepUnfinished, "true")]
        case .replayFraud: return preventedBy + [(.serverVerify, "true")]
        default: return preventedBy
        }
    }

    /// `observer launch`, `persist keychain / retry-immediate 3`: every setting of the table,
    /// whatever the policy (the words an anomaly is opened with).
    package var preventedByWords: String { Self.words(preventedBy) }

    /// `prevented by: KEY VALUE`: the settings `policy` lacks; when it has them all already,
    /// all of them, marked as set (the anomaly came from something they do not cover).
    /// `status`: what became of the anomaly, so that a blocked or resolved one is not said
    /// to have got past settings that in fact stopped it.
    package func preventedBy(policy: Policy, status: AnomalyStatus? = nil) -> String {
        let all = preventedBy(in: policy.storekit)
        let missing = all.filter { policy.value(of: $0.key) != $0.value }
        if missing.isEmpty {
            let why: String
            switch status {
            case .blocked: why = "already set: it was blocked"
            case .resolved: why = "already set: it was made right"
            default: why = "already set: this one got past it"
            }
            return "prevented by: \(Self.words(all)) (\(why))"
        }
        return "prevented by: \(Self.words(missing))"
    }

    static func words(_ list: [(key: PolicyKey, value: String)]) -> String {
        list.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: " / ")
    }
}
