import IAPSimCore

/// What each anomaly type means and which policy settings prevent it (DOMAIN.md, TRUTH.md C7).
/// Kept in one place so that it can move into the core as it is.
enum Prevention {
    /// One line a trainee reads first.
    static func meaning(_ type: AnomalyType) -> String {
        switch type {
        case .lostOrder:
            return "the App Store charged, but the app never handled the transaction (killed during the purchase, or no observer to receive the redelivery)"
        case .missedOrder:
            return "the app got `purchased`, but the server never credited it (request or answer lost, app quit, no retry left)"
        case .replayFraud:
            return "someone sent an old valid receipt with a fresh order; a server that checks only \"receipt valid, order exists\" credits again"
        case .duplicateReceipt:
            return "the order was paired with another (stale) transaction, so the real payment went uncredited"
        case .doubleCredit:
            return "one charge was credited more than once (a retransmission or a redelivery credited again)"
        case .wrongAccount:
            return "the purchase was credited to an account other than the buyer's"
        }
    }

    /// The settings that would have prevented `type`, in order of preference.
    static func settings(_ type: AnomalyType) -> [(key: PolicyKey, value: String)] {
        switch type {
        case .lostOrder: return [(.observer, "launch")]
        case .missedOrder: return [(.persist, "keychain"), (.retryImmediate, "3")]
        case .replayFraud: return [(.serverBindOrder, "true")]
        case .duplicateReceipt: return [(.match, "token"), (.finishFailed, "true")]
        case .doubleCredit: return [(.serverDedup, "true")]
        case .wrongAccount: return [(.creditTo, "order-owner")]
        }
    }

    /// `prevented by: KEY VALUE`: the settings the current policy lacks; when it has them all
    /// already, all of them, marked as set (the anomaly came from something they do not cover).
    static func line(_ type: AnomalyType, policy: Policy) -> String {
        let all = settings(type)
        let missing = all.filter { policy.value(of: $0.key) != $0.value }
        let words = { (list: [(key: PolicyKey, value: String)]) in
            list.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: " / ")
        }
        if missing.isEmpty { return "prevented by: \(words(all)) (already set: this one got past it)" }
        return "prevented by: \(words(missing))"
    }
}
