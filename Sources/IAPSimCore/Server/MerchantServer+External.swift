/// The simulated server's records under `merchant: external`: it keeps what the user's
/// backend answered and what its ledger showed, so that the auditor, the UI and the
/// expectations read the backend's state through the same lists.
extension MerchantServer {
    /// An order the backend made (or iapsim made for it, without an `order` key).
    mutating func recordExternalOrder(
        id: String, user: String, product: String, token: String, sender: Sender, _ out: inout Outbox
    ) {
        let order = Order(
            id: id, user: user, productId: product, token: token, createdBy: sender, state: .created,
            transactionId: nil, createdAt: out.now)
        orders.append(order)
        orderPositions.appended(to: orders, \.id)
        tokenPositions.appended(to: orders, \.token)
        out.log(.server, .orderCreated(order: id, user: user, product: product, token: token, sender: sender))
    }

    /// A clawback row: the backend heard of the refund.
    mutating func noteRefundHeard(_ txn: String) {
        if !refundsHeard.contains(txn) { refundsHeard.append(txn) }
    }

    /// A restore row (`REFUND_REVERSED`): the coins come back, and the clawbacks of `txn` that
    /// took them are undone by as much, newest first, as the simulated server's `giveBack` does
    /// (a balance is its credits less its debits: `World+Invariants`). A backend that gives
    /// back more than it took back (a second restore of one clawback) gets only what its
    /// clawbacks took: its own balance is then above the expected one, which the ledger check
    /// reports as `ledger-mismatch` (`World.applyLedger`) instead of breaking the records.
    mutating func restore(_ user: String, _ coins: Int, txn: String) {
        var left = coins
        recordSide { records in
            for k in records.debits.indices.reversed()
            where left > 0 && records.debits[k].clawedBackFor == txn && records.debits[k].user == user {
                let part = min(left, records.debits[k].coins)
                records.debits[k].coins -= part
                left -= part
                if records.debits[k].coins == 0 { records.debits.remove(at: k) }
            }
        }
        let given = coins - left
        if let i = balances.firstIndex(where: { $0.user == user }) {
            balances[i].coins += given
        } else {
            balances.append((user, given))
        }
    }
}
