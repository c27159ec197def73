extension World {
    /// Routes one scheduled action to the part that owns it.
    /// The action is consumed: its payload (a message, say) moves on to the part.
    mutating func dispatch(_ action: consuming Action) {
        if app.inBackground, Self.waitsInBackground(action) {
            // No app code runs in the background: its timers wait for the foreground.
            app.parked.append(action)
            return
        }
        switch consume action {
        case .storeResolvePayment(let txn):
            store.resolvePayment(txn, &outbox)
        case .storeInterruptedCharge(let origin):
            store.interruptedCharge(origin: origin, &outbox)
        case .storeDeferredExpired(let txn):
            store.expireDeferred(txn, &outbox)
        case .storeDeliver(let txns, let redelivery, _) where policy.storekit == .two:
            deliverStoreKit2(txns, launchReplay: redelivery)
        case .storeDeliver(let txns, let redelivery, let atForeground):
            // Nothing is delivered while no observer is registered (Apple), nor while the
            // app is in the background (the foreground delivers every unfinished one).
            guard app.isRunning, app.observerRegistered, !app.inBackground else { return }
            let due = store.deliverable(txns)
            guard !due.isEmpty else { return }
            app.updatedTransactions(
                due, redelivery: redelivery, atForeground: atForeground,
                store: &store, &outbox)
        case .storeVerifyDone(let exchange, let receipt):
            let status = store.verify(receipt)
            outbox.send(
                .verify, .response, .app, exchange: exchange,
                .verifyResponse(status: status, receipt: status == 0 ? receipt : nil))
        case .arrive(let message):
            arrive(message)
        case .appReceive(let message):
            receive(message)
        case .appRequestTimeout(let exchange, let incarnation):
            guard app.isCurrent(incarnation) else { return }
            if isDriven { return drivenRequestFailed(exchange: exchange, why: "request timed out", timedOut: true) }
            if let route = app.requestFailed(exchange: exchange, why: "request timed out", &outbox) {
                network.timedOut(exchange: exchange, route: route, &outbox)
            }
        case .appRequestFailedOffline(let exchange) where isDriven:
            drivenRequestFailed(exchange: exchange, why: "the device is offline", timedOut: false)
        case .appRequestFailedOffline(let exchange):
            _ = app.requestFailed(exchange: exchange, why: "the device is offline", &outbox)
        case .appRetry(let txn, let incarnation):
            guard app.isCurrent(incarnation) else { return }
            app.immediateRetryDue(txn, store: &store, &outbox)
        case .appFinish(let txn, let incarnation):
            guard app.isCurrent(incarnation) else { return }
            store.finish(txn, &outbox)
        case .appLaunchResend(let incarnation):
            guard app.isCurrent(incarnation) else { return }
            app.launchResendDue(store: &store, &outbox)
        case .appPeriodicRetry(let incarnation):
            guard app.isCurrent(incarnation) else { return }
            app.periodicDue(store: &store, &outbox)
        case .serverVerifyTimeout(let exchange):
            if server.verifyTimedOut(exchange: exchange, &outbox) {
                network.timedOut(exchange: exchange, route: .verify, &outbox)
            }
        case .storeNotifyCheck(let exchange):
            store.notificationCheck(exchange: exchange, &outbox)
        case .storeNotifyRetry(let exchange):
            store.notificationRetry(exchange: exchange, &outbox)
        case .storeHistoryDone(let exchange):
            historyAnswered(exchange: exchange)
        case .serverReconcile:
            reconcileDue()
        case .storeSubscriptionClock(let index):
            store.subscriptionClock(index, &outbox)
        case .serverStatusPoll:
            statusPollDue()
        case .storeFamilyDeliver(let index):
            familyDelivered(index)
        case .vacant:
            assertionFailure("a free slot of the queue was scheduled")
        }
    }

    /// A message reached its receiver (or the place where its receiver used to be).
    mutating func arrive(_ m: consuming Message) {
        if server.outage, m.direction == .request, m.route != .verify, m.route != .serverAPI {
            return answerUnavailable(m)
        }
        if isExternal, Self.goesToBackend(m) { return arriveExternal(m) }
        if isExternal, let id = Self.appTransactionReport(m) { return arriveUnserved(m, id: id) }
        switch m.payload {
        case .orderRequest(let user, let product):
            network.arrived(m, receiverAlive: true, &outbox)
            server.createOrder(user: user, product: product, sender: m.sender, exchange: m.exchange, &outbox)
        case .rechargeRequest(let request):
            network.arrived(m, receiverAlive: true, &outbox)
            server.receiveRecharge(
                request, sender: m.sender, exchange: m.exchange,
                catalog: config.catalog, &outbox)
            settleBoundCode(request.transactionId)
        case .verifyRequest(let receipt):
            network.arrived(m, receiverAlive: true, &outbox)
            outbox.after(AppStore.verificationMs, .storeVerifyDone(exchange: m.exchange, receipt: receipt))
        case .verifyResponse(let status, let receipt):
            let waiting = server.verifying[m.exchange] != nil
            network.arrived(m, receiverAlive: waiting, &outbox)
            server.verified(
                exchange: m.exchange, status: status, receipt: receipt,
                catalog: config.catalog, &outbox)
        case .orderResponse(let order, let token, _):
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &outbox)
                attacker.orderAnswered(
                    exchange: m.exchange, order: order, token: token,
                    catalog: config.catalog, &outbox)
                return
            }
            arriveAtApp(m)
        case .rechargeResponse, .unavailable:
            if m.sender == .attacker {
                network.arrived(m, receiverAlive: true, &outbox)
                return
            }
            arriveAtApp(m)
        case .notification, .notificationResponse, .historyRequest, .historyResponse, .apiError,
            .appTransactionReport, .consumptionInfo, .statusRequest, .statusResponse:
            _ = arriveServerSide(m)
        }
    }

    /// An answer reached the device: handled now, or at the foreground (it waits in the
    /// background).
    mutating func arriveAtApp(_ m: Message) {
        let alive = app.isRunning && (isDriven ? drivenAwaitsAnswer(m.exchange) : app.inFlight[m.exchange] != nil)
        network.arrived(m, receiverAlive: alive, &outbox)
        guard alive else { return }
        if app.inBackground { app.parked.append(.appReceive(m)) } else { receive(m) }
    }

    /// The app handles an answer that reached it.
    mutating func receive(_ m: Message) {
        if isDriven { return drivenAnswered(m) }
        switch m.payload {
        case .orderResponse(let order, let token, let product):
            // A promotional offer the user chose comes back signed with the order, or not; a
            // win-back offer needs no signature (the App Store judges the customer).
            var signature: OfferSignature?
            var winBack: String?
            if case .order(_, let user, let offer?)? = app.inFlight[m.exchange] {
                if config.catalog.winBackOffer(offer, of: product) != nil {
                    winBack = offer
                } else {
                    signature = server.signPromotionalOffer(
                        offer, product: product, order: order, user: user, token: token, catalog: config.catalog,
                        &outbox)
                }
            }
            app.orderAnswered(
                exchange: m.exchange, order: order, token: token, product: product, signature: signature,
                winBack: winBack, store: &store, &outbox)
        case .rechargeResponse(let answer, let txn):
            app.rechargeAnswered(exchange: m.exchange, answer: answer, txn: txn, store: &store, &outbox)
        case .unavailable:
            _ = app.requestFailed(exchange: m.exchange, why: "the merchant server answered 503", &outbox)
        // Requests, and the answers of the server side, never reach the app (`arrive`).
        case .orderRequest, .rechargeRequest, .verifyRequest, .verifyResponse, .notification,
            .notificationResponse, .historyRequest, .historyResponse, .apiError, .appTransactionReport,
            .consumptionInfo, .statusRequest, .statusResponse:
            break
        }
    }

    /// Actions that are app code, which waits while the app is in the background.
    static func waitsInBackground(_ action: borrowing Action) -> Bool {
        switch action {
        case .appRequestTimeout, .appRequestFailedOffline, .appRetry, .appFinish,
            .appLaunchResend, .appPeriodicRetry, .appReceive:
            return true
        case .storeResolvePayment, .storeInterruptedCharge, .storeDeferredExpired, .storeDeliver, .storeVerifyDone,
            .arrive, .serverVerifyTimeout, .storeNotifyCheck, .storeNotifyRetry, .storeHistoryDone, .serverReconcile,
            .storeSubscriptionClock, .serverStatusPoll, .storeFamilyDeliver, .vacant:
            return false
        }
    }

    /// StoreKit 2: a transaction's news goes to the purchase call that waits for it, and
    /// otherwise to `Transaction.updates` if the listener runs (failed purchases never do:
    /// StoreKit 2 keeps no failed transaction). In the background the listener's task is
    /// suspended: the news waits for the foreground.
    mutating func deliverStoreKit2(_ txns: [String], launchReplay: Bool) {
        guard app.isRunning else { return }
        if app.inBackground {
            app.parked.append(.storeDeliver(txns: txns, redelivery: launchReplay, atForeground: false))
            return
        }
        if isDriven { return drivenDelivered(txns, launchReplay: launchReplay) }
        var updates: [StoreTransaction] = []
        for id in txns {
            guard let t = store.transaction(id) else { continue }
            if !launchReplay && app.awaits(id) {
                app.purchaseReturned(t, store: &store, &outbox)
            } else if app.observerRegistered, !t.finished, t.state == .purchased || t.state == .restored {
                updates.append(t)
            }
        }
        if !updates.isEmpty { app.updatesEmitted(updates, launchReplay: launchReplay, store: &store, &outbox) }
    }
}
