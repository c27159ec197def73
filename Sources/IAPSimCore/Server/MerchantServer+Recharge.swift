extension MerchantServer {
    /// The App Store answered: apply the server's rules and answer the sender.
    mutating func verified(
        exchange: Int, status: Int, receipt: Receipt?, catalog: Catalog,
        _ out: inout Outbox
    ) {
        guard let p = verifying.removeValue(forKey: exchange) else { return }
        let r = p.request
        out.log(.server, .receiptVerified(status: status, entries: receipt?.entries.count ?? 0))
        if status == VerifyStatus.sandboxReceiptInProduction {
            // Apple: a sandbox receipt sent to production is verified again against the sandbox.
            out.log(.server, .verifyRetriedInSandbox(txn: r.transactionId))
            return askAppStore(p, &out)
        }
        if VerifyStatus.isRetryable(status) {
            return answer(p, .retryLater("\(VerifyStatus.words(status)) (\(status))"), out: &out)
        }
        guard status == VerifyStatus.valid, let receipt else {
            return refuse(p, "\(VerifyStatus.words(status)) (\(status))", out: &out)
        }
        decide(p, receipt: receipt, catalog: catalog, &out)
    }

    /// A proven purchase (a verified receipt, or a StoreKit 2 transaction the server
    /// accepted): apply the server's rules, credit or refuse, and answer the sender.
    mutating func decide(_ p: PendingVerification, receipt: Receipt, catalog: Catalog, _ out: inout Outbox) {
        let r = p.request
        guard let asked = receipt.entry(for: r.transactionId) else {
            // When a finished consumable leaves the device's receipt Apple does not document
            // (absent from updated receipts; practitioners see it until a refresh): the
            // simulator drops it at finishTransaction, and says so where that decides.
            let assumption =
                out.policy.receipt == .fresh
                ? " (the simulator's assumption: a finished consumable leaves the device's receipt at finishTransaction)"
                : ""
            return refuse(p, "transaction \(r.transactionId) is not in the receipt" + assumption, out: &out)
        }
        guard let product = catalog.product(asked.productId) else {
            return refuse(p, "unknown product \(asked.productId)", out: &out)
        }
        if product.subscription != nil {
            guard let signed = r.signed else {
                return refuse(p, "a subscription needs its signed transaction", out: &out)
            }
            return grantSubscription(p, signed, &out)
        }
        // An entitlement is granted once, for its original transaction (and that one's
        // order), whichever later transaction of the same product asks for it.
        if out.policy.serverClawback != .off, refundsHeard.contains(r.transactionId) || r.signed?.revocationDate != nil
        {
            return refuse(p, "transaction \(r.transactionId) was refunded", out: &out)
        }
        let (entry, request) = Self.original(of: asked, r, in: receipt, product)
        if product.kind == .nonConsumable && isCredited(entry.transactionId)
            || out.policy.serverDedup && isCredited(r.transactionId)
            || boundAndCredited(entry, request, policy: out.policy)
        {
            out.log(.server, .alreadyCredited(txn: r.transactionId, sender: p.sender))
            return answer(p, .alreadyCredited(credited(in: receipt, asked: r.transactionId, catalog)), out: &out)
        }
        let order: Order?
        switch resolveOrder(request, entry: entry, policy: out.policy) {
        case .failure(let why): return refuse(p, why, out: &out)
        case .success(let o): order = o
        }
        let user = (out.policy.creditTo == .orderOwner ? order?.user : nil) ?? r.uid
        credit(
            user: user, product: product, txn: entry.transactionId, order: order?.id,
            sender: p.sender, via: r.reason, receipt: r.receipt, signed: r.signed, out: &out)
        answer(p, .credited(credited(in: receipt, asked: r.transactionId, catalog)), out: &out)
    }

    /// For a non-consumable bought again, the original transaction's entry and the request
    /// as if it were for that one (its own order, found by its token); otherwise both as given.
    static func original(
        of entry: ReceiptEntry, _ r: RechargeRequest, in receipt: Receipt,
        _ product: Product
    ) -> (ReceiptEntry, RechargeRequest) {
        guard product.kind == .nonConsumable, entry.originalTransactionId != entry.transactionId,
            let original = receipt.entry(for: entry.originalTransactionId)
        else { return (entry, r) }
        var request = r
        request.transactionId = original.transactionId
        request.orderId = nil
        request.orderToken = nil
        return (original, request)
    }

    /// What a receipt entry is credited under: its own id, or for a non-consumable (granted
    /// once, whatever buys it again) the original transaction's.
    static func creditKey(_ entry: ReceiptEntry, _ product: Product) -> String {
        product.kind == .nonConsumable ? entry.originalTransactionId : entry.transactionId
    }

    /// Every transaction of the verified receipt that the server has credited, the one
    /// asked about first: the app finishes each of them.
    func credited(in receipt: Receipt, asked: String, _ catalog: Catalog) -> [String] {
        var ids = [asked]
        for e in receipt.entries where e.transactionId != asked {
            guard let product = catalog.product(e.productId) else { continue }
            if isCredited(Self.creditKey(e, product)) { ids.append(e.transactionId) }
        }
        return ids
    }

    /// With order binding, an order already credited with this very transaction makes the
    /// request a retransmission: idempotent success, not an error.
    func boundAndCredited(_ entry: ReceiptEntry, _ r: RechargeRequest, policy: Policy) -> Bool {
        guard policy.serverBindOrder, let token = entry.appAccountToken,
            let o = order(token: token), r.orderId == nil || r.orderId == o.id
        else { return false }
        return o.state == .credited && o.transactionId == entry.transactionId
    }

    enum OrderCheck { case success(Order?), failure(String) }

    /// Finds the order a recharge is for and checks it against the server's rules.
    /// Without `server-bind-order` the server only checks that a named order exists.
    func resolveOrder(_ r: RechargeRequest, entry: ReceiptEntry, policy: Policy) -> OrderCheck {
        var order: Order?
        if let id = r.orderId {
            guard let o = self.order(id) else { return .failure("order \(id) does not exist") }
            order = o
        } else if let token = r.orderToken ?? entry.appAccountToken {
            order = self.order(token: token)
        }
        guard policy.serverBindOrder else { return .success(order) }
        guard let token = entry.appAccountToken else {
            if let legacy = unboundOrder(for: r, entry: entry, found: order) { return .success(legacy) }
            return .failure(
                policy.storekit == .two
                    ? "the transaction carries no appAccountToken to bind an order"
                    : "the receipt carries no app_account_token to bind an order")
        }
        guard let bound = order ?? self.order(token: token) else {
            return .failure("no order carries the token of transaction \(entry.transactionId)")
        }
        guard bound.token == token else {
            return .failure(
                "order \(bound.id) token does not match the "
                    + (policy.storekit == .two ? "transaction's appAccountToken" : "receipt's app_account_token"))
        }
        guard bound.state == .created else {
            return .failure("order \(bound.id) was already credited")
        }
        guard bound.productId == entry.productId else {
            return .failure("order \(bound.id) is for \(bound.productId), the receipt for \(entry.productId)")
        }
        return .success(bound)
    }

    /// A purchase without a token that a server which began binding while the world ran
    /// still accepts (`bindsPurchasesFrom`): one made by then, or one for an order it handed
    /// out by then, named or found by its buyer and product. Wrapped: nil when none.
    func unboundOrder(for r: RechargeRequest, entry: ReceiptEntry, found: Order?) -> Order?? {
        guard bindsPurchasesFrom >= 0 else { return nil }
        if let found, found.createdAt <= bindsPurchasesFrom, found.state == .created { return .some(found) }
        let legacy = orders.first { o in
            o.createdAt <= bindsPurchasesFrom && o.state == .created && o.createdBy == .app
                && o.productId == entry.productId && o.user == r.uid
        }
        if let legacy { return .some(legacy) }
        return entry.purchaseDateMs <= bindsPurchasesFrom ? .some(found) : nil
    }

    mutating func credit(
        user: String, product: Product, txn: String, order: String?,
        sender: Sender, via: SendReason, receipt: Receipt?, signed: SignedTransaction? = nil,
        out: inout Outbox
    ) {
        if let i = balances.firstIndex(where: { $0.user == user }) {
            balances[i].coins += product.coins
        } else {
            balances.append((user, product.coins))
        }
        if product.kind == .nonConsumable,
            !entitlements.contains(where: { $0.user == user && $0.product == product.id })
        {
            entitlements.append((user, product.id))
        }
        if let order, let i = orderIndex(order) {
            orders[i].state = .credited
            orders[i].transactionId = txn
        }
        credits.append(
            CreditEntry(
                transactionId: txn, orderId: order, user: user,
                productId: product.id, coins: product.coins, at: out.now,
                sender: sender, receipt: receipt, signed: signed))
        creditPositions.appended(to: credits, \.transactionId)
        out.log(
            .server,
            .coinsCredited(
                user: user, coins: product.coins, product: product.id,
                txn: txn, order: order, sender: sender, via: via))
    }

    func refuse(_ p: PendingVerification, _ why: String, out: inout Outbox) {
        out.log(.server, .rechargeRefused(txn: p.request.transactionId, reason: why, sender: p.sender))
        answer(p, .refused(why), out: &out)
    }

    /// The newest credit the server accepted from the app, as an attacker's proxy saw it.
    var newestAccepted: CreditEntry? { credits.last { $0.sender == .app } }
}
