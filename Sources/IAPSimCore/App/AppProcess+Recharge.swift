extension AppProcess {
    /// `POST /recharge` for one pending receipt, unless one is already in flight or
    /// nobody is logged in (then it waits for a login).
    mutating func sendRecharge(_ r: PendingReceipt, reason: SendReason, forDelivered: String? = nil,
                               _ out: inout Outbox) {
        guard !hasRechargeInFlight(r.txn) else { return }
        guard let user = loggedIn else {
            if !waitingForLogin.contains(r.txn) {
                waitingForLogin.append(r.txn)
                out.log(.app, .rechargeWaitingForLogin(txn: r.txn))
            }
            return
        }
        let request = RechargeRequest(transactionId: r.txn, productId: r.productId, uid: user,
                                      orderId: r.orderId, orderToken: r.orderToken,
                                      receipt: r.receipt, reason: reason)
        let exchange = out.newExchange()
        inFlight[exchange] = .recharge(txn: r.txn)
        out.log(.app, .rechargeSent(txn: r.txn, order: r.orderId, user: user, reason: reason,
                                    forDelivered: forDelivered))
        out.send(.recharge, .request, .app, exchange: exchange, .rechargeRequest(request))
        out.after(Network.clientTimeoutMs, .appRequestTimeout(exchange: exchange, incarnation: incarnation))
    }

    mutating func resendAll(_ reason: SendReason, _ out: inout Outbox) {
        for r in reachablePending { sendRecharge(r, reason: reason, &out) }
    }

    /// The server answered a recharge.
    mutating func rechargeAnswered(exchange: Int, answer: RechargeAnswer, txn: String,
                                   store: inout AppStore, _ out: inout Outbox) {
        guard inFlight.removeValue(forKey: exchange) != nil else { return }
        out.log(.app, .rechargeAnswered(txn: txn, outcome: answer))
        switch answer {
        case .credited(let ids), .alreadyCredited(let ids):
            forget(txn, why: "the server answered", &out)
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
        case .order(let product, _):
            out.log(.app, .purchaseAbandoned(product: product, reason: why))
            return .order
        case .recharge(let txn):
            retryable(txn, &out)
            return .recharge
        }
    }

    mutating func retryable(_ txn: String, _ out: inout Outbox) {
        let used = retriesUsed[txn] ?? 0
        if used < out.policy.retryImmediate {
            retriesUsed[txn] = used + 1
            out.log(.app, .retryScheduled(txn: txn, inMs: AppProcess.immediateRetryDelayMs, attempt: used + 1))
            out.after(AppProcess.immediateRetryDelayMs, .appRetry(txn: txn, incarnation: incarnation))
        } else {
            armPeriodic(&out)
        }
    }

    mutating func immediateRetryDue(_ txn: String, _ out: inout Outbox) {
        guard let r = record(txn) else { return }
        sendRecharge(r, reason: .immediateRetry(retriesUsed[txn] ?? 1), &out)
    }

    mutating func armPeriodic(_ out: inout Outbox) {
        guard isRunning, !periodicArmed, let interval = out.policy.retryIntervalMs,
              hasReachablePending else { return }
        periodicArmed = true
        out.after(interval, .appPeriodicRetry(incarnation: incarnation))
    }

    mutating func periodicDue(_ out: inout Outbox) {
        periodicArmed = false
        guard hasReachablePending, out.policy.retryIntervalMs != nil else { return }
        periodicCount += 1
        resendAll(.periodicRetry(periodicCount), &out)
        armPeriodic(&out)
    }

    mutating func launchResendDue(_ out: inout Outbox) {
        for r in files + keychain {
            if !memory.contains(where: { $0.txn == r.txn }) { memory.append(r) }
        }
        resendAll(.resend(.launch), &out)
    }

    /// Deletes a pending receipt everywhere: only on a definite answer.
    mutating func forget(_ txn: String, why: String, _ out: inout Outbox) {
        retriesUsed[txn] = nil
        waitingForLogin.removeAll { $0 == txn }
        memory.removeAll { $0.txn == txn }
        if files.contains(where: { $0.txn == txn }) {
            files.removeAll { $0.txn == txn }
            out.log(.app, .receiptDeleted(txn: txn, tier: .file, why: why))
        }
        if keychain.contains(where: { $0.txn == txn }) {
            keychain.removeAll { $0.txn == txn }
            out.log(.app, .receiptDeleted(txn: txn, tier: .keychain, why: why))
        }
    }
}
