extension Simulation {
    /// Routes one scheduled action to the part that owns it.
    /// The action is consumed: its payload (a message, say) moves on to the part.
    mutating func dispatch(_ action: consuming Action) {
        switch consume action {
        case .storeResolvePayment(let txn):
            store.resolvePayment(txn, &outbox)
        case .storeInterruptedCharge(let origin):
            store.interruptedCharge(origin: origin, &outbox)
        case .storeDeferredExpired(let txn):
            store.expireDeferred(txn, &outbox)
        case .storeDeliver(let txns, let redelivery):
            // Nothing is delivered while no observer is registered (Apple).
            guard app.isRunning, app.observerRegistered else { return }
            let due = store.deliverable(txns)
            guard !due.isEmpty else { return }
            app.updatedTransactions(due, redelivery: redelivery, store: &store, &outbox)
        case .storeVerifyDone(let exchange, let receipt):
            let status = store.verify(receipt)
            outbox.send(.verify, .response, .app, exchange: exchange,
                     .verifyResponse(status: status, receipt: status == 0 ? receipt : nil))
        case .arrive(let message):
            arrive(message)
        case .appRequestTimeout(let exchange, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            if let route = app.requestFailed(exchange: exchange, why: "request timed out", &outbox) {
                network.timedOut(exchange: exchange, route: route, &outbox)
            }
        case .appRequestFailedOffline(let exchange):
            _ = app.requestFailed(exchange: exchange, why: "the device is offline", &outbox)
        case .appRetry(let txn, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.immediateRetryDue(txn, &outbox)
        case .appFinish(let txn, let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            store.finish(txn, &outbox)
        case .appLaunchResend(let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.launchResendDue(&outbox)
        case .appPeriodicRetry(let incarnation):
            guard app.isRunning, app.incarnation == incarnation else { return }
            app.periodicDue(&outbox)
        case .serverVerifyTimeout(let exchange):
            if server.verifyTimedOut(exchange: exchange, &outbox) {
                network.timedOut(exchange: exchange, route: .verify, &outbox)
            }
        case .auditCheck:
            break
        }
    }

    /// A message reached its receiver (or the place where its receiver used to be).
    mutating func arrive(_ m: consuming Message) {
        switch m.payload {
        case .orderRequest(let user, let product):
            network.arrived(m, receiverAlive: true, &outbox)
            server.createOrder(user: user, product: product, sender: m.sender, exchange: m.exchange, &outbox)
        case .rechargeRequest(let request):
            network.arrived(m, receiverAlive: true, &outbox)
            server.receiveRecharge(request, sender: m.sender, exchange: m.exchange, &outbox)
        case .verifyRequest(let receipt):
            network.arrived(m, receiverAlive: true, &outbox)
            outbox.after(AppStore.verificationMs, .storeVerifyDone(exchange: m.exchange, receipt: receipt))
        case .verifyResponse(let status, let receipt):
            let waiting = server.verifying[m.exchange] != nil
            network.arrived(m, receiverAlive: waiting, &outbox)
            server.verified(exchange: m.exchange, status: status, receipt: receipt,
                            catalog: config.catalog, &outbox)
        case .orderResponse(let order, let token, let product):
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &outbox)
                attacker.orderAnswered(exchange: m.exchange, order: order, &outbox)
                return
            }
            let alive = app.isRunning && app.inFlight[m.exchange] != nil
            network.arrived(m, receiverAlive: alive, &outbox)
            app.orderAnswered(exchange: m.exchange, order: order, token: token, product: product,
                              store: &store, &outbox)
        case .rechargeResponse(let answer, let txn):
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &outbox)
                return
            }
            let alive = app.isRunning && app.inFlight[m.exchange] != nil
            network.arrived(m, receiverAlive: alive, &outbox)
            guard alive else { return }
            app.rechargeAnswered(exchange: m.exchange, answer: answer, txn: txn, store: &store, &outbox)
        }
    }
}
