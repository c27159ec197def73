/// The engine's side of docs/world.md, "The server side": the server-side commands, notifications V2
/// on their way, Get Transaction History, the reconciliation job. None of it runs unless a
/// scenario uses these commands or a server-side policy key is on.
extension World {
    /// `server-outage on|off`: the merchant server answers 503 to everything, or no longer.
    mutating func serverOutage(_ on: Bool) {
        server.outage = on
        outbox.narrate(
            .fault,
            .faultArmed(
                on
                    ? "the merchant server answers 503 to everything, notifications included"
                    : "the merchant server is back"))
    }

    /// The App Store Server API answers Get Transaction History.
    mutating func historyAnswered(exchange: Int) {
        outbox.send(
            .serverAPI, .response, .app, exchange: exchange, .historyResponse(store.history(now: now, policy: policy)))
    }

    /// The reconciliation job's tick (skipped if the key was turned off meanwhile).
    mutating func reconcileDue() {
        server.jobs.reconcileArmed = false
        // A tick that would find nothing is skipped (see `armReconcileIfDue`).
        guard policy.serverReconcileMs != nil, server.reconciliationHasWork(store, policy: policy) else { return }
        server.reconcile(&outbox)
    }

    /// A message of the server side reached its receiver. Returns false for other messages.
    mutating func arriveServerSide(_ m: Message) -> Bool {
        switch m.payload {
        case .notification(let n):
            network.arrived(m, receiverAlive: true, &outbox)
            server.receiveNotification(n, exchange: m.exchange, catalog: config.catalog, &outbox)
        case .notificationResponse(let status):
            network.arrived(m, receiverAlive: true, &outbox)
            store.notificationAnswered(exchange: m.exchange, status: status)
        case .historyRequest:
            network.arrived(m, receiverAlive: true, &outbox)
            if let error = apiErrorAnswer(m, call: "Get Transaction History") { return error }
            outbox.after(AppStore.verificationMs + store.apiFaults.slowMs, .storeHistoryDone(exchange: m.exchange))
        case .apiError(let status, let code):
            network.arrived(m, receiverAlive: true, &outbox)
            server.apiCallFailed(exchange: m.exchange, status: status, code: code, &outbox)
        case .appTransactionReport(let user, let id):
            network.arrived(m, receiverAlive: true, &outbox)
            server.appTransactionReported(user: user, id: id, exchange: m.exchange, &outbox)
        case .consumptionInfo(let info):
            network.arrived(m, receiverAlive: true, &outbox)
            if let error = apiErrorAnswer(m, call: "Send Consumption Information") { return error }
            store.consumptionReceived(info, &outbox)
            outbox.send(.serverAPI, .response, .app, exchange: m.exchange, .notificationResponse(status: 202))
        case .statusRequest(let original):
            network.arrived(m, receiverAlive: true, &outbox)
            answerStatus(original, exchange: m.exchange)
        case .statusResponse(let a):
            network.arrived(m, receiverAlive: true, &outbox)
            server.hear(
                a.transaction, .poll(a.status), renewal: a.renewalInfo, user: nil, signedAt: a.transaction.signedDate,
                &outbox)
        case .historyResponse(let list):
            network.arrived(m, receiverAlive: server.historyLookups.contains { $0.exchange == m.exchange }, &outbox)
            server.historyAnswered(exchange: m.exchange, list, catalog: config.catalog, &outbox)
        case .orderRequest, .orderResponse, .rechargeRequest, .rechargeResponse, .verifyRequest, .verifyResponse,
            .unavailable:
            return false
        }
        return true
    }

    /// `server-outage on`: a request reached a merchant server that answers HTTP 503.
    mutating func answerUnavailable(_ m: Message) {
        network.arrived(m, receiverAlive: true, &outbox)
        outbox.log(.server, .serverUnavailable(route: m.route))
        switch m.payload {
        case .rechargeRequest(let r):
            outbox.send(
                .recharge, .response, m.sender, exchange: m.exchange,
                .rechargeResponse(.retryLater("HTTP 503: the merchant server is down"), transactionId: r.transactionId))
        case .notification:
            outbox.send(.notify, .response, .app, exchange: m.exchange, .notificationResponse(status: 503))
        case .orderRequest, .orderResponse, .rechargeResponse, .verifyRequest, .verifyResponse,
            .notificationResponse, .historyRequest, .historyResponse, .unavailable, .appTransactionReport,
            .consumptionInfo, .apiError, .statusRequest, .statusResponse:
            outbox.send(m.route, .response, m.sender, exchange: m.exchange, .unavailable)
        }
    }

    /// `server-reconcile`: wakes the job at the next tick of its interval (on the hour for
    /// 1h) when a reconciliation would find something; a tick that would find nothing is
    /// skipped, which changes nothing but the length of the log.
    mutating func armReconcileIfDue() {
        guard let interval = policy.serverReconcileMs, !server.jobs.reconcileArmed else { return }
        // Asked after every event: the answer can change only when the transactions or the
        // server's credits, orders or news changed (all of them only grow or are updated in
        // place, so their counts and the store's revision say whether they did).
        let stamp = ReconcileStamp(
            store: store.revision, credits: server.credits.count, orders: server.orders.count,
            toldOf: server.toldOf.count, refundsHeard: server.refundsHeard.count,
            reported: server.appTransactions.count)
        guard stamp != server.jobs.reconcileIdleAt else { return }
        guard server.reconciliationHasWork(store, policy: policy) else {
            server.jobs.reconcileIdleAt = stamp
            return
        }
        server.jobs.reconcileIdleAt = nil
        server.jobs.reconcileArmed = true
        schedule((now / interval + 1) * interval - now, .serverReconcile)
    }
}
