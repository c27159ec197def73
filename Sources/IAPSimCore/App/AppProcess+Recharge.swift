extension AppProcess {
    /// `POST /recharge` for one pending receipt, unless one is already in flight or it has
    /// nobody to be sent as (then it waits for a login, or for its buyer's).
    mutating func sendRecharge(
        _ r: PendingReceipt, reason: SendReason, forDelivered: String? = nil,
        store: inout AppStore, _ out: inout Outbox
    ) {
        guard !hasRechargeInFlight(r.txn) else {
            if let forDelivered, forDelivered != r.txn {
                out.log(.app, .rechargeAlreadyInFlight(txn: r.txn, forDelivered: forDelivered))
            }
            return
        }
        guard let user = sender(of: r, &out) else { return }
        store.claimRedeemedCode(r.txn, by: user, &out)
        // `receipt: fresh` reads the receipt again now: what was finished meanwhile is gone.
        // StoreKit 2 sends the kept `jwsRepresentation` and no receipt.
        let receipt = r.signed != nil ? nil : out.policy.receipt == .fresh ? store.readReceipt() : r.receipt
        let request = RechargeRequest(
            transactionId: r.txn, productId: r.productId, uid: user,
            orderId: r.orderId, orderToken: r.orderToken,
            receipt: receipt, reason: reason, signed: r.signed)
        let exchange = out.newExchange()
        inFlight[exchange] = .recharge(txn: r.txn)
        out.log(
            .app,
            .rechargeSent(
                txn: r.txn, order: r.orderId, user: user, reason: reason,
                forDelivered: forDelivered))
        out.send(.recharge, .request, .app, exchange: exchange, .rechargeRequest(request))
        out.after(Network.clientTimeoutMs, .appRequestTimeout(exchange: exchange, incarnation: incarnation))
    }

    /// The uid a send carries, or nil when the receipt must wait: nobody is logged in, or
    /// (`resend-as: buyer`) another account is and the server credits whoever the request
    /// names (with `credit-to: order-owner` anyone may send it: the order's owner is paid).
    mutating func sender(of r: PendingReceipt, _ out: inout Outbox) -> String? {
        guard let user = loggedIn else {
            waitForLogin(r.txn, .rechargeWaitingForLogin(txn: r.txn), &out)
            return nil
        }
        guard out.policy.resendAs == .buyer, let buyer = r.buyer, buyer != user else { return user }
        if out.policy.creditTo == .orderOwner { return buyer }
        waitForLogin(r.txn, .rechargeWaitingForBuyer(txn: r.txn, buyer: buyer, loggedIn: user), &out)
        return nil
    }

    mutating func waitForLogin(_ txn: String, _ fact: Fact, _ out: inout Outbox) {
        guard !waitingForLogin.contains(txn) else { return }
        waitingForLogin.append(txn)
        out.log(.app, fact)
    }

    mutating func resendAll(_ reason: SendReason, store: inout AppStore, _ out: inout Outbox) {
        for r in reachablePending { sendRecharge(r, reason: reason, store: &store, &out) }
    }

    /// The server answered a recharge.
    mutating func rechargeAnswered(
        exchange: Int, answer: RechargeAnswer, txn: String,
        store: inout AppStore, _ out: inout Outbox
    ) {
        guard inFlight.removeValue(forKey: exchange) != nil else { return }
        out.log(.app, .rechargeAnswered(txn: txn, outcome: answer))
        if answer.isDefinite { resetPeriodicBackOff() }
        switch answer {
        case .credited(let ids), .alreadyCredited(let ids):
            // The answer lists every credited transaction of the receipt: each is done.
            forget(txn, why: "the server answered", &out)
            store.settleRedeemedCode(txn)
            // One pass over the records, not one per listed id: a receipt may list thousands.
            let held = ids.count > 1 ? heldTransactions : []
            for id in ids where id != txn && held.contains(id) {
                forget(id, why: "the server listed it as credited", &out)
            }
            if out.policy.finish == .afterCredit {
                for id in ids { store.finish(id, &out) }
            }
        case .refused:
            forget(txn, why: "the server refused it for good", &out)
        case .retryLater:
            retryable(txn, &out)
        }
    }

    /// A request timed out or could not be sent.
    mutating func requestFailed(exchange: Int, why: String, _ out: inout Outbox) -> Route? {
        guard let what = inFlight.removeValue(forKey: exchange) else { return nil }
        switch what {
        case .order(let product, _, _):
            out.log(.app, .purchaseAbandoned(product: product, reason: why))
            return .order
        case .recharge(let txn):
            retryable(txn, &out)
            return .recharge
        }
    }

    mutating func retryable(_ txn: String, _ out: inout Outbox) {
        // Forgotten meanwhile (another answer listed it as credited): nothing to retry.
        guard hasRecord(txn) else { return }
        let used = retriesUsed[txn] ?? 0
        if used < out.policy.retryImmediate {
            retriesUsed[txn] = used + 1
            out.log(.app, .retryScheduled(txn: txn, inMs: AppProcess.immediateRetryDelayMs, attempt: used + 1))
            out.after(AppProcess.immediateRetryDelayMs, .appRetry(txn: txn, incarnation: incarnation))
        } else {
            // `persist-when: after-retries` saves the receipt only now.
            if out.policy.persistWhen == .afterRetries, let r = record(txn), !isSaved(txn) {
                persist(r, &out)
            }
            armPeriodic(&out)
        }
    }

    func isSaved(_ txn: String) -> Bool {
        files.indices.contains { files[$0].txn == txn } || keychain.indices.contains { keychain[$0].txn == txn }
    }

    mutating func immediateRetryDue(_ txn: String, store: inout AppStore, _ out: inout Outbox) {
        guard let r = record(txn) else { return }
        sendRecharge(r, reason: .immediateRetry(retriesUsed[txn] ?? 1), store: &store, &out)
    }

    mutating func launchResendDue(store: inout AppStore, _ out: inout Outbox) {
        for r in files + keychain {
            if !memory.contains(where: { $0.txn == r.txn }) { memory.append(r) }
        }
        resendAll(.resend(.launch), store: &store, &out)
    }

    /// Deletes a pending receipt everywhere: only on a definite answer.
    mutating func forget(_ txn: String, why: String, _ out: inout Outbox) {
        retriesUsed[txn] = nil
        waitingForLogin.removeAll { $0 == txn }
        memory.removeAll { $0.txn == txn }
        if let r = files.first(where: { $0.txn == txn }) {
            files.removeAll { $0.txn == txn }
            out.log(.app, Self.deleted(r, tier: .file, why: why))
        }
        if let r = keychain.first(where: { $0.txn == txn }) {
            keychain.removeAll { $0.txn == txn }
            out.log(.app, Self.deleted(r, tier: .keychain, why: why))
        }
    }

    static func deleted(_ r: PendingReceipt, tier: PersistTier, why: String) -> Fact {
        r.signed == nil
            ? .receiptDeleted(txn: r.txn, tier: tier, why: why)
            : .jwsDeleted(txn: r.txn, tier: tier, why: why)
    }
}
