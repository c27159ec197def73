extension AppProcess {
    /// The user taps Buy: open the store screen, resend what waits (if the policy says),
    /// then ask the merchant server for an order.
    mutating func buy(_ product: String, offer: String? = nil, store: inout AppStore, _ out: inout Outbox) {
        guard let user = loggedIn else { return }
        openStore(store: &store, &out)
        if out.policy.resends(on: .purchase) { resendAll(.resend(.purchase), store: &store, &out) }
        let exchange = out.newExchange()
        inFlight[exchange] = .order(product: product, user: user, offer: offer)
        out.send(
            .order, .request, .app, exchange: exchange,
            .orderRequest(user: user, product: product))
        out.after(Network.clientTimeoutMs, .appRequestTimeout(exchange: exchange, incarnation: incarnation))
    }

    /// `POST /orders` answered: add `SKPayment(product, applicationUsername: token)`.
    mutating func orderAnswered(
        exchange: Int, order: String, token: String, product: String, signature: OfferSignature? = nil,
        winBack: String? = nil, store: inout AppStore, _ out: inout Outbox
    ) {
        // The order belongs to whoever tapped Buy, even if the account changed meanwhile.
        guard case .order(_, let user, _)? = inFlight.removeValue(forKey: exchange) else { return }
        let ticket = OrderTicket(id: order, token: token, productId: product, user: user)
        currentOrder = ticket
        tickets.append(ticket)
        ticketTokens.appended(to: tickets, \.token)
        ticketIds.appended(to: tickets, \.id)
        if out.policy.storekit == .two {
            return purchase(ticket, signature: signature, winBack: winBack, store: &store, &out)
        }
        _ = store.addPayment(
            product: product, applicationUsername: token, user: user,
            order: order, &out)
    }

    /// `paymentQueue(_:updatedTransactions:)`.
    mutating func updatedTransactions(
        _ txns: [StoreTransaction], redelivery: Bool,
        atForeground: Bool = false,
        store: inout AppStore, _ out: inout Outbox
    ) {
        out.log(.app, .transactionsDelivered(txns: txns.map(\.id), redelivery: redelivery))
        for t in txns {
            // A transaction finished earlier in this same callback is not handled again.
            guard let current = store.transaction(t.id), !current.finished else { continue }
            switch current.state {
            case .failed: handleFailed(current, store: &store, &out)
            case .purchased, .restored:
                var reason: SendReason =
                    atForeground
                    ? .foregroundRedelivery
                    : redelivery ? .redelivery(out.policy.observer) : .firstDelivery
                if redelivery, store.rebuyDelivery == current.id {
                    store.rebuyDelivery = nil
                    reason = .rebuyRedelivery
                }
                handlePurchased(current, reason: reason, store: &store, &out)
            case .purchasing, .deferred: break
            }
        }
    }

    mutating func handleFailed(_ t: StoreTransaction, store: inout AppStore, _ out: inout Outbox) {
        if currentOrder?.token == t.applicationUsername { currentOrder = nil }
        guard out.policy.finishFailed else { return }
        if skipFinishNextFailed {
            skipFinishNextFailed = false
            out.narrate(.fault, .faultFired("failure branch skipped finishTransaction for \(t.id)"))
            out.log(.app, .finishSkipped(txn: t.id, reason: "the failure branch forgot finishTransaction"))
            return
        }
        store.finish(t.id, &out)
    }

    /// A purchased transaction reached the app: pair it with an order, save the receipt
    /// where the policy says, send it to the server, finish now if the policy says so.
    mutating func handlePurchased(
        _ t: StoreTransaction, reason: SendReason,
        store: inout AppStore, _ out: inout Outbox
    ) {
        let paired: StoreTransaction
        let orderId: String?
        let token: String?
        switch out.policy.match {
        case .token:
            paired = t
            token = t.applicationUsername
            orderId = token.flatMap { ticketIndex(token: $0) }.map { tickets[$0].id }
        case .first:
            // SKPaymentQueue.default().transactions.first: right only while nothing is left over.
            paired = store.firstUnfinished ?? t
            orderId = currentOrder?.id
            token = nil
            currentOrder = nil
        }
        // A failed transaction has no transaction id: what the app sends for it names none.
        let pairedId = paired.transactionIdentifier ?? StoreTransaction.noIdentifier
        if let existing = record(pairedId) {
            if !memory.contains(where: { $0.txn == existing.txn }) { memory.append(existing) }
            sendRecharge(existing, reason: reason, forDelivered: t.id, store: &store, &out)
        } else {
            // The buyer is whoever created the order, when the app still knows it.
            let buyer = orderId.flatMap { ticketIndex(id: $0) }.map { tickets[$0].user } ?? loggedIn
            let r = PendingReceipt(
                txn: pairedId, productId: paired.productId, buyer: buyer,
                orderId: orderId, orderToken: token, receipt: store.readReceipt())
            memory.append(r)
            if out.policy.persistWhen == .beforeSend { persist(r, &out) }
            sendRecharge(r, reason: reason, forDelivered: t.id, store: &store, &out)
        }
        // Naive code finishes right after handing the request to the network: a separate
        // step, so a crash can still fall between the two.
        if out.policy.finish == .onPurchase {
            out.after(0, .appFinish(txn: t.id, incarnation: incarnation))
        }
    }

    /// The first ticket for this order token, or this order id.
    func ticketIndex(token: String) -> Int? {
        ticketTokens.firstIndex(of: token, count: tickets.count) {
            tickets.indices.first { tickets[$0].token == token }
        }
    }

    func ticketIndex(id: String) -> Int? {
        ticketIds.firstIndex(of: id, count: tickets.count) {
            tickets.indices.first { tickets[$0].id == id }
        }
    }

    mutating func persist(_ r: PendingReceipt, _ out: inout Outbox) {
        let tier = out.policy.persist
        switch tier {
        case .none: return
        case .file: files.append(r)
        case .keychain: keychain.append(r)
        }
        out.log(.app, r.signed == nil ? .receiptSaved(txn: r.txn, tier: tier) : .jwsSaved(txn: r.txn, tier: tier))
    }
}
