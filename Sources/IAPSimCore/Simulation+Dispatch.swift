extension Simulation {
    /// Routes one scheduled action to the part that owns it.
    mutating func dispatch(_ action: Action, _ out: inout Outbox) {
        switch action {
        case .storeResolvePayment(let txn):
            store.resolvePayment(txn, &out)
        case .storeInterruptedCharge(let origin):
            let o = auditor.origins[origin]
            store.interruptedCharge(origin: origin, user: o?.user ?? "?", order: o?.order, &out)
        case .storeDeferredExpired(let txn):
            store.expireDeferred(txn, &out)
        case .storeDeliver(let txns, let redelivery):
            // Nothing is delivered while no observer is registered (Apple).
            guard app.isRunning, app.observerRegistered else { return }
            let due = store.deliverable(txns)
            guard !due.isEmpty else { return }
            app.updatedTransactions(due, redelivery: redelivery, store: &store, &out)
        case .storeVerifyDone(let exchange, let receipt):
            let status = store.verify(receipt)
            out.send(.verify, .response, .app, exchange: exchange,
                     .verifyResponse(status: status, receipt: status == 0 ? receipt : nil))
        case .arrive(let message):
            arrive(message, &out)
        case .appRequestTimeout(let exchange, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            if let route = app.requestFailed(exchange: exchange, why: "request timed out", &out) {
                network.timedOut(exchange: exchange, route: route, &out)
            }
        case .appRequestFailedOffline(let exchange):
            _ = app.requestFailed(exchange: exchange, why: "the device is offline", &out)
        case .appRetry(let txn, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.immediateRetryDue(txn, &out)
        case .appFinish(let txn, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            store.finish(txn, &out)
        case .appLaunchResend(let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.launchResendDue(&out)
        case .appPeriodicRetry(let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.periodicDue(&out)
        case .serverVerifyTimeout(let exchange):
            if server.verifyTimedOut(exchange: exchange, &out) {
                network.timedOut(exchange: exchange, route: .verify, &out)
            }
        case .auditCheck:
            break
        }
    }

    /// A message reached its receiver (or the place where its receiver used to be).
    mutating func arrive(_ m: Message, _ out: inout Outbox) {
        switch m.payload {
        case .orderRequest(let user, let product):
            network.arrived(m, receiverAlive: true, &out)
            server.createOrder(user: user, product: product, sender: m.sender, exchange: m.exchange, &out)
        case .rechargeRequest(let request):
            network.arrived(m, receiverAlive: true, &out)
            server.receiveRecharge(request, sender: m.sender, exchange: m.exchange, &out)
        case .verifyRequest(let receipt):
            network.arrived(m, receiverAlive: true, &out)
            out.after(AppStore.verificationMs, .storeVerifyDone(exchange: m.exchange, receipt: receipt))
        case .verifyResponse(let status, let receipt):
            let waiting = server.verifying[m.exchange] != nil
            network.arrived(m, receiverAlive: waiting, &out)
            server.verified(exchange: m.exchange, status: status, receipt: receipt,
                            catalog: config.catalog, &out)
        case .orderResponse(let order, let token, let product):
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &out)
                attacker.orderAnswered(exchange: m.exchange, order: order, &out)
                return
            }
            let alive = app.isRunning && app.inFlight[m.exchange] != nil
            network.arrived(m, receiverAlive: alive, &out)
            app.orderAnswered(exchange: m.exchange, order: order, token: token, product: product,
                              store: &store, &out)
        case .rechargeResponse(let answer, let txn):
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &out)
                return
            }
            let alive = app.isRunning && app.inFlight[m.exchange] != nil
            network.arrived(m, receiverAlive: alive, &out)
            guard alive else { return }
            app.rechargeAnswered(exchange: m.exchange, answer: answer, txn: txn, store: &store, &out)
        }
    }
}
