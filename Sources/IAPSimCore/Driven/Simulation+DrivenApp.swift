/// A world whose app is real code (`IAPSimStoreKit`): the app's calls become the world's
/// facts at the current virtual time; what reaches the app waits in `driven.inbox`.
extension Simulation {
    /// Hands the app's part to code outside the world, before anything has run.
    package mutating func attachDrivenApp() {
        world.policy = world.policy.drivenApp
        world.driven = DrivenApp()
    }

    /// Takes what reached the app since the last call, oldest first.
    package mutating func takeDrivenEvents() -> [DrivenApp.Event] {
        guard var d = world.driven, !d.inbox.isEmpty else { return [] }
        let events = d.inbox
        d.inbox = []
        world.driven = d
        return events
    }

    /// Runs one of the app's calls as an event of its own at the current time.
    mutating func drivenCall<R>(_ body: (inout World) -> R) -> R {
        world.begin(collecting: false)
        let r = body(&world)
        var none: [LogEntry]?
        _ = world.commit(into: &none, &checkers)
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
    package mutating func drivenPurchase(
        product: String, token: String?, promotional: IntroductoryOffer? = nil
    ) -> (txn: String, pending: Bool)? {
        guard let loggedIn = world.app.loggedIn else { return nil }
        let user = token.flatMap { world.server.order(token: $0)?.user } ?? loggedIn
        return drivenCall { w in
            if let owned = w.store.returnOwned(product, &w.outbox) {
                w.driven?.awaiting.append(owned)
                return (owned, false)
            }
            let known = w.store.transactions.count
            let txn = w.store.addPayment(
                product: product, applicationUsername: token, user: user, order: nil, promotional: promotional,
                &w.outbox)
            guard w.store.transactions.count > known else {
                w.outbox.log(.app, .purchaseReturned(txn: txn, product: product, result: .pending))
                return (txn, true)
            }
            w.driven?.awaiting.append(txn)
            return (txn, false)
        }
    }

    /// `purchase(options:)` with a promotional offer: the App Store judges the signature
    /// (`AppStore.redeem`) before any payment. Accepted, its offer goes with the payment
    /// (`drivenPurchase(promotional:)`); refused, the purchase throws StoreKit's error and
    /// nothing is charged. Either way the Events say so.
    package mutating func drivenRedeem(
        _ signature: OfferSignature, product: String, token: String?
    ) -> Result<IntroductoryOffer, OfferRefusal> {
        drivenCall { w in w.store.redeemLogged(signature, product: product, account: token, &w.outbox) }
    }

    /// `purchase(options:)` with a win-back offer: the App Store judges the customer
    /// (`AppStore.redeemWinBackLogged`) before any payment.
    package mutating func drivenWinBack(_ offer: String, product: String) -> Result<IntroductoryOffer, OfferRefusal> {
        drivenCall { w in w.store.redeemWinBackLogged(offer, product: product, &w.outbox) }
    }

    /// The customer redeems an offer code outside the app's calls (the App Store, a link, or
    /// the app's redemption sheet): the transaction, if any, comes on `Transaction.updates`.
    package mutating func drivenRedeemCode(_ code: String) -> CodeRefusal? {
        drivenCall { w in
            let refusal = w.store.codeRefusal(code)
            w.store.redeemCode(code, user: w.app.loggedIn ?? w.config.users[0], &w.outbox)
            return refusal
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
        guard world.driven != nil, !(world.driven?.listening ?? true) else { return }
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
    package mutating func drivenStopListening() { world.driven?.listening = false }

    /// The app's process died: its calls, listener and requests go with it.
    package mutating func drivenForget() { world.driven?.forget() }

    /// `Transaction.unfinished` as the app reads it: a read counts as the app having the
    /// transactions in hand (`unfinishedSwept`).
    package mutating func drivenUnfinished() -> [String] {
        let due = world.store.redeliverable.filter { id in
            guard let t = world.store.transaction(id) else { return false }
            return t.state == .purchased || t.state == .restored
        }
        if !due.isEmpty { drivenCall { w in w.outbox.log(.app, .unfinishedSwept(txns: due)) } }
        return due
    }

    /// The current signed form of `txn` (a newly signed value, as every StoreKit 2 delivery).
    package mutating func drivenSign(_ txn: String) -> SignedTransaction? {
        guard let t = world.store.transaction(txn) else { return nil }
        return world.store.sign(t, now: world.now)
    }
}
