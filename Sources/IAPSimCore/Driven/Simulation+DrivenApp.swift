/// A world whose app is real code (`IAPSimStoreKit`): the app's calls become the world's
/// facts at the current virtual time; what reaches the app waits in `driven.inbox`.
extension Simulation {
    /// Hands the app's part to code outside the world, before anything has run.
    package mutating func attachDrivenApp() {
        policy = policy.drivenApp
        driven = DrivenApp()
    }

    /// Takes what reached the app since the last call, oldest first.
    package mutating func takeDrivenEvents() -> [DrivenApp.Event] {
        guard var d = driven, !d.inbox.isEmpty else { return [] }
        let events = d.inbox
        d.inbox = []
        driven = d
        return events
    }

    /// Runs one of the app's calls as an event of its own at the current time.
    mutating func drivenCall<R>(_ body: (inout Simulation) -> R) -> R {
        begin(collecting: false)
        let r = body(&self)
        var none: [LogEntry]?
        _ = commit(into: &none)
        return r
    }

    /// The app's `URLSession` sends a request on `route`; returns its exchange. Without an
    /// answer the request times out after `Network.clientTimeoutMs`, as the app's would.
    package mutating func drivenSend(_ route: Route, _ payload: Payload) -> Int {
        drivenCall { w in
            let exchange = w.outbox.newExchange()
            w.driven?.inFlight.append((exchange, route))
            if case .rechargeRequest(let r) = payload {
                w.outbox.log(
                    .app,
                    .rechargeSent(
                        txn: r.transactionId, order: r.orderId, user: r.uid, reason: r.reason,
                        forDelivered: r.transactionId))
            }
            w.outbox.send(route, .request, .app, exchange: exchange, payload)
            w.outbox.after(
                Network.clientTimeoutMs, .appRequestTimeout(exchange: exchange, incarnation: w.app.incarnation))
            return exchange
        }
    }

    /// `product.purchase(options:)`: the payment is added for the account that ordered it
    /// (the order the token names: whoever tapped Buy, even if the account changed since, as
    /// the simulated app's ticket), else for the logged-in account. Returns the transaction
    /// the call waits for, and whether it is pending already (an Ask to Buy request merged
    /// into the one waiting for the parent); nil when nobody is logged in.
    package mutating func drivenPurchase(product: String, token: String?) -> (txn: String, pending: Bool)? {
        guard let loggedIn = app.loggedIn else { return nil }
        let user = token.flatMap { server.order(token: $0)?.user } ?? loggedIn
        return drivenCall { w in
            if let owned = w.store.returnOwned(product, &w.outbox) {
                w.driven?.awaiting.append(owned)
                return (owned, false)
            }
            let known = w.store.transactions.count
            let txn = w.store.addPayment(
                product: product, applicationUsername: token, user: user, order: nil, &w.outbox)
            guard w.store.transactions.count > known else {
                w.outbox.log(.app, .purchaseReturned(txn: txn, product: product, result: .pending))
                return (txn, true)
            }
            w.driven?.awaiting.append(txn)
            return (txn, false)
        }
    }

    /// `transaction.finish()`.
    package mutating func drivenFinish(_ txn: String) {
        drivenCall { w in w.store.finish(txn, &w.outbox) }
    }

    /// The app's task starts iterating `Transaction.updates`. Right after a launch (`atLaunch`)
    /// StoreKit emits the unfinished transactions to it once; a listener started later does
    /// not get that replay.
    package mutating func drivenListen(atLaunch: Bool) {
        guard driven != nil, !(driven?.listening ?? true) else { return }
        drivenCall { w in
            w.driven?.listening = true
            w.outbox.log(.app, .listenerStarted)
            let due = w.store.redeliverable
            if atLaunch, !due.isEmpty {
                w.outbox.after(0, .storeDeliver(txns: due, redelivery: true, atForeground: false))
            }
        }
    }

    /// The app's task stops iterating `Transaction.updates`.
    package mutating func drivenStopListening() { driven?.listening = false }

    /// The app's process died: its calls, listener and requests go with it.
    package mutating func drivenForget() { driven?.forget() }

    /// `Transaction.unfinished` as the app reads it: a read counts as the app having the
    /// transactions in hand (`unfinishedSwept`).
    package mutating func drivenUnfinished() -> [String] {
        let due = store.redeliverable.filter { id in
            guard let t = store.transaction(id) else { return false }
            return t.state == .purchased || t.state == .restored
        }
        if !due.isEmpty { drivenCall { w in w.outbox.log(.app, .unfinishedSwept(txns: due)) } }
        return due
    }

    /// The current signed form of `txn` (a newly signed value, as every StoreKit 2 delivery).
    package mutating func drivenSign(_ txn: String) -> SignedTransaction? {
        guard let t = store.transaction(txn) else { return nil }
        return store.sign(t, now: now)
    }

    /// StoreKit 2 news while the app is real code: to the purchase call that waits, else to
    /// `Transaction.updates` when the app's task iterates it.
    mutating func drivenDelivered(_ txns: [String], launchReplay: Bool) {
        var updates: [String] = []
        for id in txns {
            guard let t = store.transaction(id) else { continue }
            if !launchReplay, let k = driven?.awaiting.firstIndex(of: id) {
                guard let result = Self.purchaseResult(of: t) else { continue }
                driven?.awaiting.remove(at: k)
                outbox.log(.app, .purchaseReturned(txn: id, product: t.productId, result: result))
                driven?.inbox.append(.purchaseReturned(txn: id, result: result))
            } else if driven?.listening == true, !t.finished, t.state == .purchased || t.state == .restored {
                updates.append(id)
            }
        }
        guard !updates.isEmpty else { return }
        outbox.log(.app, .updatesEmitted(txns: updates, launchReplay: launchReplay))
        driven?.inbox.append(.updates(txns: updates))
    }

    /// What a purchase call returns for a transaction in this state; nil while it is open.
    static func purchaseResult(of t: StoreTransaction) -> PurchaseResult? {
        switch t.state {
        case .purchased, .restored: return .success
        case .failed:
            let failure = t.failure ?? .cancelled
            return failure == .cancelled ? .userCancelled : .failed(failure.storeKit2Error)
        case .deferred: return .pending
        case .purchasing: return nil
        }
    }

    /// An answer reached the device: the app's if its request is still in flight.
    mutating func drivenAnswered(_ m: Message) {
        guard let k = driven?.inFlight.firstIndex(where: { $0.exchange == m.exchange }) else { return }
        driven?.inFlight.remove(at: k)
        driven?.inbox.append(.answered(exchange: m.exchange, payload: m.payload))
    }

    /// One of the app's requests failed; a timed-out one is counted by the network.
    mutating func drivenRequestFailed(exchange: Int, why: String, timedOut: Bool) {
        guard let k = driven?.inFlight.firstIndex(where: { $0.exchange == exchange }),
            let route = driven?.inFlight[k].route
        else { return }
        driven?.inFlight.remove(at: k)
        if timedOut { network.timedOut(exchange: exchange, route: route, &outbox) }
        driven?.inbox.append(.failed(exchange: exchange, why: why))
    }

    /// True while one of the app's requests waits for `exchange`'s answer.
    func drivenAwaitsAnswer(_ exchange: Int) -> Bool {
        driven?.inFlight.contains { $0.exchange == exchange } ?? false
    }
}

extension Simulation {
    /// True when nothing but the subscription clock is scheduled: a settle stops here.
    package var onlyClocksScheduled: Bool { queue.count <= subscriptionClockEvents }
}
