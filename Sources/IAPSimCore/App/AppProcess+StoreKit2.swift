/// A StoreKit 2 purchase call waiting for its result, and the order it was made for.
package struct AwaitedPurchase: Sendable, Hashable {
    package var txn: String
    var ticket: OrderTicket
}

/// The app's StoreKit 2 side (docs/world.md): `purchase()` gets its own result;
/// `Transaction.updates` gets what happens outside a purchase call (interrupted purchases,
/// Ask to Buy approvals) and, once right after launch, the unfinished ones; the sweep of
/// `Transaction.unfinished` finds what both missed. Every delivery is a newly signed
/// transaction, sent as its `jwsRepresentation`; there is no pairing by position.
extension AppProcess {
    /// `product.purchase(options:)`, with the order's token when `account-token` says so.
    mutating func purchase(
        _ ticket: OrderTicket, signature: OfferSignature? = nil, winBack: String? = nil, store: inout AppStore,
        _ out: inout Outbox
    ) {
        let token = out.policy.accountToken ? ticket.token : nil
        // A promotional offer goes with the call (`PurchaseOption.promotionalOffer`): the App
        // Store judges its signature first; refused, purchase() throws and nothing is charged.
        var promotional: IntroductoryOffer?
        if let signature {
            switch store.redeemLogged(signature, product: ticket.productId, account: token, &out) {
            case .success(let offer): promotional = offer
            case .failure: return
            }
        }
        // A win-back offer (`PurchaseOption.winBackOffer`): the App Store judges the customer.
        if let winBack {
            switch store.redeemWinBackLogged(winBack, product: ticket.productId, &out) {
            case .success(let offer): promotional = offer
            case .failure: return
            }
        }
        if let owned = store.returnOwned(ticket.productId, &out) {
            return awaiting.append(AwaitedPurchase(txn: owned, ticket: ticket))
        }
        let known = store.transactions.count
        let txn = store.addPayment(
            product: ticket.productId, applicationUsername: token,
            user: ticket.user, order: ticket.id, promotional: promotional, &out)
        guard store.transactions.count > known else {
            // Merged into the Ask to Buy request already waiting for the parent (TN2259):
            // this call is pending too, and the approval comes on Transaction.updates.
            out.log(.app, .purchaseReturned(txn: txn, product: ticket.productId, result: .pending))
            return
        }
        awaiting.append(AwaitedPurchase(txn: txn, ticket: ticket))
    }

    /// Whether a purchase call of this process waits for `txn`.
    func awaits(_ txn: String) -> Bool { awaiting.contains { $0.txn == txn } }

    /// The purchase call returns: a verified transaction is handled in the same code path;
    /// a cancellation, an error or `.pending` ends the call (what follows comes on
    /// `Transaction.updates`).
    mutating func purchaseReturned(_ t: StoreTransaction, store: inout AppStore, _ out: inout Outbox) {
        guard let k = awaiting.firstIndex(where: { $0.txn == t.id }) else { return }
        let ticket = awaiting.remove(at: k).ticket
        switch t.state {
        case .purchased, .restored:
            out.log(.app, .purchaseReturned(txn: t.id, product: t.productId, result: .success))
            handleVerified(t, reason: .firstDelivery, order: ticket, store: &store, &out)
        case .failed:
            let failure = t.failure ?? .cancelled
            let result: PurchaseResult = failure == .cancelled ? .userCancelled : .failed(failure.storeKit2Error)
            out.log(.app, .purchaseReturned(txn: t.id, product: t.productId, result: result))
            if currentOrder?.id == ticket.id { currentOrder = nil }
            if skipFinishNextFailed {
                // The fault that left a failed transaction in StoreKit 1's queue: StoreKit 2
                // keeps none, so nothing stale can be sent with the next purchase.
                skipFinishNextFailed = false
                out.narrate(.fault, .faultFired("no effect: StoreKit 2 leaves no failed transaction to finish"))
            }
        case .deferred:
            out.log(.app, .purchaseReturned(txn: t.id, product: t.productId, result: .pending))
        case .purchasing:
            awaiting.insert(AwaitedPurchase(txn: t.id, ticket: ticket), at: k)
        }
    }

    /// `for await update in Transaction.updates`: each verified, unfinished transaction.
    mutating func updatesEmitted(
        _ txns: [StoreTransaction], launchReplay: Bool,
        store: inout AppStore, _ out: inout Outbox
    ) {
        out.log(.app, .updatesEmitted(txns: txns.map(\.id), launchReplay: launchReplay))
        for t in txns {
            guard let current = store.transaction(t.id), !current.finished else { continue }
            handleVerified(
                current, reason: launchReplay ? .redelivery(.launch) : .transactionUpdates,
                order: nil, store: &store, &out)
        }
    }

    /// The listener task starts. Apple emits the unfinished transactions to it once, right
    /// after launch: a listener started later (on the store screen) never gets them.
    mutating func startListener(atLaunch: Bool, store: AppStore, _ out: inout Outbox) {
        out.log(.app, .listenerStarted)
        guard atLaunch else { return }
        let due = store.redeliverable
        if !due.isEmpty { out.after(0, .storeDeliver(txns: due, redelivery: true, atForeground: false)) }
    }

    /// `for await t in Transaction.unfinished`, at launch and at foreground: each is sent.
    mutating func sweepUnfinished(store: inout AppStore, _ out: inout Outbox) {
        let due = store.redeliverable
        guard !due.isEmpty else { return }
        out.log(.app, .unfinishedSwept(txns: due))
        for id in due {
            guard let t = store.transaction(id), !t.finished else { continue }
            handleVerified(t, reason: .unfinishedSweep, order: nil, store: &store, &out)
        }
    }

    /// A verified transaction reached the app's code: keep its JWS where the policy says,
    /// send it, finish now if the policy says so. The order is the purchase call's own, or
    /// the one its `appAccountToken` names; without either the app knows none.
    mutating func handleVerified(
        _ t: StoreTransaction, reason: SendReason, order: OrderTicket?,
        store: inout AppStore, _ out: inout Outbox
    ) {
        guard let signed = store.sign(t, now: out.now) else { return }
        out.log(.storeKit, .transactionSigned(signed))
        let ticket = order ?? signed.appAccountToken.flatMap { ticketIndex(token: $0) }.map { tickets[$0] }
        if var existing = record(t.id) {
            // StoreKit handed the transaction over again, signed now: the app sends this JWS
            // (the transaction as it is now, a refund's revocation included), not the older
            // copy it kept, with the order its record kept.
            existing.signed = signed
            replaceSigned(signed)
            if !memory.contains(where: { $0.txn == existing.txn }) { memory.append(existing) }
            sendRecharge(existing, reason: reason, forDelivered: t.id, store: &store, &out)
        } else {
            let r = PendingReceipt(
                txn: t.id, productId: t.productId, buyer: ticket?.user ?? loggedIn,
                orderId: ticket?.id, orderToken: signed.appAccountToken,
                receipt: Receipt.none, signed: signed)
            memory.append(r)
            if out.policy.persistWhen == .beforeSend { persist(r, &out) }
            sendRecharge(r, reason: reason, forDelivered: t.id, store: &store, &out)
        }
        if out.policy.finish == .onPurchase {
            out.after(0, .appFinish(txn: t.id, incarnation: incarnation))
        }
    }
}

extension Receipt {
    /// No receipt: what a StoreKit 2 pending record holds in its place.
    static let none = Receipt(serial: 0, entries: [], signature: 0)
}
