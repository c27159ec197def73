/// What the auditor says about an anomaly: its one-line summary and its mechanism (how it
/// was resolved or blocked, or why it is permanent), in a trainee's words.
enum AnomalyWording {
    static func replayed(_ txn: String) -> String { "replayed receipt of \(txn)" }

    static func refused(_ reason: String) -> String { "refused: \(reason)" }

    static var refusedAsAlreadyCredited: String { "refused: transaction already credited" }

    static func replayCredited(_ txn: String, to user: String) -> String {
        "old receipt of \(txn) credited again to \(user) on a fresh order"
    }

    static func forgedCredited(_ txn: String, to user: String) -> String {
        "forged JWS \(txn), never charged, credited to \(user) on a fresh order (prevented by: server-verify true)"
    }

    static func creditedAgain(_ txn: String, times: Int, via: SendReason) -> String {
        "\(txn) credited \(times) times (\(via.words))"
    }

    static var grantedWithoutPayment: String { "coins granted without payment" }

    static func paidBy(_ txn: String, buyer: String, creditedTo user: String) -> String {
        "\(txn) paid by \(buyer), credited to \(user)"
    }

    static func creditedInstead(to user: String, of buyer: String) -> String {
        "credited to \(user) instead of \(buyer)"
    }

    static func neverCredited(_ c: ChargeRecord) -> String {
        "\(c.productId) paid by \(c.buyer) (\(c.txn)) never credited"
    }

    /// Why an uncredited charge can no longer be made right.
    static func beyondRecovery(finished: Bool) -> String {
        finished
            ? "finished without credit; no record of it remains"
            : "no record of it remains that any retry could use"
    }
}
