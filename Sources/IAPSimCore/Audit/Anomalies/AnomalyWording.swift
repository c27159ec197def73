/// What the auditor says about an anomaly: its one-line summary, naming the transactions
/// and orders involved, and its mechanism (how it was resolved or blocked, or why it is
/// permanent), in a trainee's words. Each type reads differently (docs/world.md, "The rules").
enum AnomalyWording {
    /// `coins_100 paid by alice (1000000000001, order o1)`
    static func charge(_ c: ChargeRecord) -> String {
        var s = ""
        s.reserveCapacity(64)
        writeCharge(c, to: &s)
        return s
    }

    /// `charge(c)` appended to `s` (one string grows; no interpolation builds pieces).
    static func writeCharge(_ c: ChargeRecord, to s: inout String) {
        s += c.productId
        s += " paid by "
        s += c.buyer
        s += " ("
        s += c.txn
        if let order = c.order {
            s += ", order "
            s += order
        }
        s += ")"
    }

    static func replayed(_ txn: String) -> String {
        "replayed receipt of \(txn) sent with a fresh order"
    }

    static func forged(_ txn: String) -> String {
        "forged JWS \(txn), never charged, sent with a fresh order"
    }

    static func refused(_ reason: String) -> String { "refused: \(reason)" }

    static var refusedAsAlreadyCredited: String { "refused: transaction already credited" }

    static func replayCredited(_ txn: String, to user: String, order: String?) -> String {
        "old receipt of \(txn) replayed with fresh order \(order ?? "-") and credited again to \(user)"
    }

    static func forgedCredited(_ txn: String, to user: String, order: String?) -> String {
        "forged JWS \(txn), never charged, credited to \(user) on fresh order \(order ?? "-")"
    }

    static var grantedToForgery: String { "granted to a forged transaction: nobody paid for it" }

    static var grantedToReplay: String { "granted to a replayed receipt: nobody paid for it" }

    /// A second credit of one charge; `staleFor`: the charge whose order the app paired
    /// with it (docs/world.md, "The rules": the two anomalies name each other).
    static func creditedAgain(
        _ c: ChargeRecord, times: Int, via: SendReason,
        staleFor other: ChargeRecord?
    ) -> String {
        let orders = c.credits.compactMap(\.order).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var words = "\(charge(c)) credited \(times) times (\(via.words))"
        if !orders.isEmpty { words += " on order\(orders.count > 1 ? "s" : "") \(orders.joined(separator: ", "))" }
        if let other {
            let order = other.order ?? "-"
            words += "; order \(order) was credited with \(c.txn)'s receipt (its own \(other.txn) went uncredited)"
        }
        return words
    }

    static var grantedTwice: String { "credited twice for one payment" }

    /// docs/world.md, "The rules": the buyer was paid after another account was.
    static func creditedToOtherFirst(_ c: ChargeRecord, other: String) -> String {
        "\(charge(c)) credited to \(other) before its buyer \(c.buyer): \(other) keeps \(c.productId) without payment"
    }

    static func grantedWithoutPayment(to user: String) -> String { "\(user) was granted it without payment" }

    static func paidBy(_ c: ChargeRecord, creditedTo user: String) -> String {
        "\(charge(c)) credited to \(user)"
    }

    static func creditedInstead(to user: String, of buyer: String) -> String {
        "credited to \(user) instead of \(buyer)"
    }

    static func buyerPaidToo(_ buyer: String, via: SendReason) -> String {
        "\(buyer) was credited too (\(via.words)): the customer is whole"
    }

    /// The summary of an uncredited charge, by the type it has now.
    static func uncredited(_ c: ChargeRecord, _ type: AnomalyType, staleCredited: Bool) -> String {
        switch type {
        case .lostOrder:
            return "\(charge(c)): the app never handled the transaction"
        case .duplicateReceipt:
            let stale = c.pairedWith ?? "?"
            let order = c.order ?? "-"
            return
                "order \(order) was paired with \(stale) instead of its own \(c.txn) (\(c.productId) paid by \(c.buyer)); "
                + (staleCredited ? "order \(order) was credited with \(stale)'s receipt" : "\(c.txn) was never sent")
        case .missedOrder, .replayFraud, .doubleCredit, .wrongAccount, .refundUnclawed, .refundOverclawed,
            .ackedNotCredited, .ledgerMismatch, .accessAfterEnd, .accessAfterRevoke, .renewalUnserved, .graceCut,
            .promoIneligible:
            return "\(charge(c)): the app handled it, the server never credited it"
        }
    }

    /// Why an uncredited charge can no longer be made right.
    static func beyondRecovery(finished: Bool, freshReceipt: Bool = false) -> String {
        guard finished else { return "no record of it remains that any retry could use" }
        return freshReceipt
            ? "finished without credit; no record of it remains (a receipt read after the finish no longer"
                + " lists it: that moment is the simulator's assumption, Apple says only \"updated receipts\")"
            : "finished without credit; no record of it remains"
    }

    /// docs/world.md, "The rules": a clean relaunch on a copy of the world did not credit it either.
    static var stuck: String { "stuck: every relaunch repeats the same failure" }

    /// Appended to `stuck` when it rests on a listener started after launch (StoreKit 2).
    static var lateListener: String {
        " (this rests on the simulator's assumption that a Transaction.updates listener started"
            + " after launch misses the launch replay; Apple documents only the replay at launch)"
    }
}

extension AnomalyType {
    /// The auditor's phrases above that name a receipt, in StoreKit 2's words. The transcript
    /// of `run` and the UI both show an SK2 run's anomalies through `text(_:in:)`, so a handout
    /// made with `run` matches the screen; the log's JSON keeps the auditor's own words. A
    /// phrase changed above must change here.
    static let storeKit2Phrases: [(String, String)] = [
        ("granted to a replayed receipt", "granted to a replayed JWS"),
        ("replayed receipt of ", "replayed jwsRepresentation of "),
        ("old receipt of ", "the jwsRepresentation of "),
        ("'s receipt", "'s JWS"),
    ]

    /// An anomaly's summary or mechanism in the words of `world`.
    package static func text(_ text: String, in world: StoreKitWorld) -> String {
        guard world == .two, text.contains("receipt") else { return text }
        return storeKit2Phrases.reduce(text) { $0.replacing($1.0, with: $1.1) }
    }
}
