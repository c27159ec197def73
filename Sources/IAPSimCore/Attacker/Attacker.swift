/// A user with a proxy: creates a fresh order and sends it with an old, valid receipt and
/// the transaction id the server accepted before. In StoreKit 2 the old proof is a signed
/// transaction; the attacker can also forge one, signed with a key outside Apple's chain.
package struct Attacker: Sendable, Hashable {
    struct Plan: Sendable, Hashable {
        var user: String
        var txn: String
        var product: String
        var receipt: Receipt?
        var signed: SignedTransaction?
        /// A forgery: the JWS is made once the fresh order's token is known.
        var forge: Bool = false
        /// The `environment` the forged JWS claims.
        var environment = ""
    }

    var plans = SmallMap<Int, Plan>()
    var replaysSent = 0
    var forgeries = 0

    package init() {}

    /// Starts a replay as `user`, using the newest receipt (or JWS) the server accepted.
    mutating func replay(as user: String, server: MerchantServer, _ out: inout Outbox) {
        guard let accepted = server.newestAccepted else {
            out.log(.attacker, .replayUnavailable)
            return
        }
        let signed = out.policy.storekit == .two ? accepted.signed : nil
        out.log(
            .attacker,
            signed == nil
                ? .replayPrepared(txn: accepted.transactionId)
                : .signedReplayPrepared(txn: accepted.transactionId))
        start(
            Plan(
                user: user, txn: accepted.transactionId, product: accepted.productId,
                receipt: signed == nil ? accepted.receipt : nil, signed: signed), &out)
    }

    /// Starts a forgery as `user`: a fresh order, then a JWS for it that the attacker signs.
    mutating func forge(_ product: String, as user: String, environment: String, _ out: inout Outbox) {
        forgeries += 1
        start(
            Plan(
                user: user, txn: String(9_000_000_000_000 + forgeries), product: product,
                forge: true, environment: environment), &out)
    }

    mutating func start(_ plan: Plan, _ out: inout Outbox) {
        let exchange = out.newExchange()
        plans[exchange] = plan
        out.send(
            .order, .request, .attacker, exchange: exchange,
            .orderRequest(user: plan.user, product: plan.product))
    }

    /// The fresh order came back: send the old receipt (or JWS, or a forged one) with it.
    mutating func orderAnswered(
        exchange: Int, order: String, token: String, catalog: Catalog,
        _ out: inout Outbox
    ) {
        guard var plan = plans.removeValue(forKey: exchange) else { return }
        if plan.forge, let product = catalog.product(plan.product) {
            // The forger copies Apple's payload format and puts the fresh order's token in
            // it: only a check of the signature tells it apart.
            let forged = SignedTransaction(
                transactionId: plan.txn, originalTransactionId: plan.txn, productId: product.id,
                type: product.kind, purchaseDate: out.now, originalPurchaseDate: out.now,
                signedDate: out.now, price: product.priceCents * 10, appAccountToken: token,
                signer: .forger, environment: plan.environment, store: catalog.settings)
            out.log(.attacker, .forgeryPrepared(forged))
            plan.signed = forged
        }
        let request = RechargeRequest(
            transactionId: plan.txn, productId: plan.product,
            uid: plan.user, orderId: order, orderToken: nil,
            receipt: plan.receipt, reason: plan.forge ? .forgery : .replay,
            signed: plan.signed)
        replaysSent += 1
        out.send(.recharge, .request, .attacker, exchange: out.newExchange(), .rechargeRequest(request))
    }
}
