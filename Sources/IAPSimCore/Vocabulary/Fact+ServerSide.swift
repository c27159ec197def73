extension Fact {
    /// The lines of the server side's facts: notifications V2, the App Store Server API,
    /// refunds, clawbacks and spending (docs/world.md, "The server side").
    var serverSideText: String {
        switch self {
        case .refundIssued(let txn, let p, let cents, 100):
            return "refunded \(formatMoney(cents)) for \(p) (\(txn)): revocationDate set, REFUND_FULL"
        case .refundIssued(let txn, let p, let cents, let percent):
            return
                "refunded \(formatMoney(cents)) (\(percent)%) for \(p) (\(txn)): revocationDate set, REFUND_PRORATED,"
                + " revocationPercentage \(percent * 1_000)"
        case .refundReversed(let txn):
            return "refund of \(txn) reversed: the customer has paid again; the revocation fields are gone"
        case .reversalHeard(let txn, let outcome): return "reversal of the refund of \(txn) heard: \(outcome)"
        case .coinsRestored(let user, let coins, let txn, let balance):
            return "+\(coins) coins back to \(user) for \(txn), its refund reversed: balance \(balance)"
        case .notificationSent(let n):
            let attempt = n.attempt == 1 ? "" : ", attempt \(n.attempt)"
            return "\(n.type.rawValue) notification \(short(n.uuid)) for \(n.transaction.transactionId) sent\(attempt)"
        case .notificationUnanswered(let uuid, let type, let txn, let ms):
            return
                "\(type.rawValue) \(short(uuid)) for \(txn) not answered with 200-206: retry in \(DurationText.format(ms))"
        case .notificationDropped(let uuid, let type, let txn):
            return "\(type.rawValue) \(short(uuid)) for \(txn) dropped after 5 retries"
        case .notificationReceived(let uuid, let type, let txn, let attempt):
            return
                "\(type.rawValue) notification \(short(uuid)) for \(txn) received\(attempt > 1 ? " (attempt \(attempt))" : ""): 200"
        case .notificationUnbound(let txn, let why): return "\(txn) not credited: \(why)"
        case .serverUnavailable(let route): return "\(route.rawValue) request answered 503: the merchant server is down"
        case .refundHeard(let txn, let outcome): return "refund of \(txn) heard: \(outcome)"
        case .coinsClawedBack(let user, let coins, let txn, let balance):
            return "-\(coins) coins from \(user) for refunded \(txn): balance \(balance)\(balance < 0 ? " (debt)" : "")"
        case .coinsSpent(let user, let coins, let balance): return "\(user) spent \(coins) coins: balance \(balance)"
        case .historyChecked(let lookup, let count):
            return "GET /inApps/v2/history/\(lookup): \(count) transaction\(count == 1 ? "" : "s")"
        case .reconcileSkipped(let why): return "reconciliation skipped: \(why)"
        default: return text
        }
    }
}
