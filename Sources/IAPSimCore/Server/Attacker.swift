/// A user with a proxy: creates a fresh order and sends it with an old, valid receipt and
/// the transaction id the server accepted before.
public struct Attacker: Sendable, Hashable {
    struct Plan: Sendable, Hashable {
        var user: String
        var txn: String
        var product: String
        var receipt: Receipt?
    }

    var plans: [Int: Plan] = [:]
    public internal(set) var replaysSent = 0

    public init() {}

    /// Starts a replay as `user`, using the newest receipt the server accepted.
    mutating func replay(as user: String, server: MerchantServer, _ out: inout Outbox) {
        guard let accepted = server.newestAccepted else {
            out.log(.attacker, .replayUnavailable)
            return
        }
        out.log(.attacker, .replayPrepared(txn: accepted.transactionId))
        let exchange = out.newExchange()
        plans[exchange] = Plan(user: user, txn: accepted.transactionId,
                               product: accepted.productId, receipt: accepted.receipt)
        out.send(.order, .request, .attacker, exchange: exchange,
                 .orderRequest(user: user, product: accepted.productId))
    }

    /// The fresh order came back: send the old receipt with it.
    mutating func orderAnswered(exchange: Int, order: String, _ out: inout Outbox) {
        guard let plan = plans.removeValue(forKey: exchange) else { return }
        let request = RechargeRequest(transactionId: plan.txn, productId: plan.product,
                                      uid: plan.user, orderId: order, orderToken: nil,
                                      receipt: plan.receipt, reason: .replay)
        replaysSent += 1
        out.send(.recharge, .request, .attacker, exchange: out.newExchange(), .rechargeRequest(request))
    }
}
