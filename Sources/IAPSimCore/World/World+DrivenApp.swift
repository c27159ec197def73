/// What the world does for an app played by real code (`Simulation+DrivenApp.swift` has
/// the app's calls).
extension World {
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

extension World {
    /// True when nothing but the subscription clock is scheduled: a settle stops here.
    package var onlyClocksScheduled: Bool { queue.count <= subscriptionClockEvents }
}
