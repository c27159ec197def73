extension Fact {
    /// Appends the lines of the server side's facts: notifications V2, the App Store Server API,
    /// refunds, clawbacks and spending (docs/world.md, "The server side").
    func writeServerSideText(to out: FactTextBytes) {
        switch self {
        case .refundIssued(let txn, let p, let cents, 100):
            out.write(string: "refunded \(formatMoney(cents)) for \(p) (\(txn)): revocationDate set, REFUND_FULL")
        case .refundIssued(let txn, let p, let cents, let percent):
            out.write(
                string:
                    "refunded \(formatMoney(cents)) (\(percent)%) for \(p) (\(txn)): revocationDate set, REFUND_PRORATED,"
                    + " revocationPercentage \(percent * 1_000)")
        case .refundReversed(let txn):
            out.write(string: "refund of \(txn) reversed: the customer has paid again; the revocation fields are gone")
        case .reversalHeard(let txn, let outcome):
            out.write(string: "reversal of the refund of \(txn) heard: \(outcome)")
        case .coinsRestored(let user, let coins, let txn, let balance):
            out.write(string: "+\(coins) coins back to \(user) for \(txn), its refund reversed: balance \(balance)")
        case .notificationSent(let n):
            out.write("", n.type.rawValue, " notification ")
            out.write(short: n.uuid)
            out.write(" for ", n.transaction.transactionId, " sent")
            if n.attempt != 1 {
                out.write(", attempt ")
                out.write(number: n.attempt)
            }
        case .notificationUnanswered(let uuid, let type, let txn, let ms):
            out.write(
                string:
                    "\(type.rawValue) \(short(uuid)) for \(txn) not answered with 200-206: retry in \(DurationText.format(ms))"
            )
        case .notificationDropped(let uuid, let type, let txn):
            out.write(string: "\(type.rawValue) \(short(uuid)) for \(txn) dropped after 5 retries")
        case .notificationReceived(let uuid, let type, let txn, let attempt):
            out.write("", type.rawValue, " notification ")
            out.write(short: uuid)
            out.write(" for ", txn, " received")
            if attempt > 1 {
                out.write(" (attempt ")
                out.write(number: attempt)
                out.write(")")
            }
            out.write(": 200")
        case .notificationUnbound(let txn, let why): out.write(string: "\(txn) not credited: \(why)")
        case .serverUnavailable(let route):
            out.write(string: "\(route.rawValue) request answered 503: the merchant server is down")
        case .refundHeard(let txn, let outcome): out.write(string: "refund of \(txn) heard: \(outcome)")
        case .coinsClawedBack(let user, 0, let txn, _):
            // An unlock's clawback (no coins): the entitlement it granted is taken back.
            out.write(string: "the unlock of refunded \(txn) taken back from \(user): locked again")
        case .coinsClawedBack(let user, let coins, let txn, let balance):
            out.write(
                string:
                    "-\(coins) coins from \(user) for refunded \(txn): balance \(balance)\(balance < 0 ? " (debt)" : "")"
            )
        case .coinsSpent(let user, let coins, let balance):
            out.write(string: "\(user) spent \(coins) coins: balance \(balance)")
        case .historyChecked(let lookup, let count):
            out.write(string: "GET /inApps/v2/history/\(lookup): \(count) transaction\(count == 1 ? "" : "s")")
        case .reconcileSkipped(let why): out.write(string: "reconciliation skipped: \(why)")
        default: out.write(string: text)
        }
    }
}
