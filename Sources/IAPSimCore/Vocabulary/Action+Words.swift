extension Action {
    /// What the action will do, in words (the UI's status line names the next event with it).
    /// A switch without `default`: a new action does not compile until it says what it is.
    package var words: String {
        switch self {
        case .storeResolvePayment(let txn): return "the App Store answers the purchase sheet of \(txn)"
        case .storeInterruptedCharge(let origin):
            return "the purchase interrupted at \(origin) completes outside the app"
        case .storeDeferredExpired(let txn): return "the Ask to Buy request \(txn) expires unanswered"
        case .storeDeliver(let txns, let redelivery, _):
            return "StoreKit delivers \(txns.joined(separator: ", ")) to the observer" + (redelivery ? " again" : "")
        case .storeVerifyDone: return "the App Store answers verifyReceipt"
        case .arrive(let m): return "the \(m.route.rawValue) \(m.direction.rawValue) arrives"
        case .appReceive(let m): return "the app handles the \(m.route.rawValue) answer that came in the background"
        case .appRequestTimeout(let exchange, _): return "the app's request \(exchange) times out"
        case .appRequestFailedOffline(let exchange): return "the app's request \(exchange) fails: offline"
        case .appRetry(let txn, _): return "an immediate retry for \(txn)"
        case .appFinish(let txn, _): return "finishTransaction for \(txn)"
        case .appLaunchResend: return "the app resends saved receipts after launch"
        case .appPeriodicRetry: return "the app's periodic retry of saved receipts"
        case .serverVerifyTimeout: return "the server gives up waiting for the App Store"
        case .storeNotifyCheck: return "the App Store looks for the answer to its notification"
        case .storeNotifyRetry: return "the App Store sends its notification again"
        case .storeHistoryDone: return "the App Store Server API answers Get Transaction History"
        case .serverReconcile: return "the server's reconciliation job runs"
        case .storeSubscriptionClock: return "the App Store's subscription clock (a renewal, a billing retry)"
        case .serverStatusPoll: return "the server polls Get All Subscription Statuses"
        case .vacant: return "nothing (a free slot)"
        }
    }
}

extension Action {
    /// `words` in the names of `world`: StoreKit 2 has no observer, no `finishTransaction`
    /// and no receipt (the status line of an SK2 run must not speak StoreKit 1).
    package func words(in world: StoreKitWorld) -> String {
        guard world == .two else { return words }
        switch self {
        case .storeDeliver(let txns, let redelivery, _):
            return "StoreKit delivers \(txns.joined(separator: ", ")) to purchase() or Transaction.updates"
                + (redelivery ? " again" : "")
        case .appFinish(let txn, _): return "transaction.finish() for \(txn)"
        case .appLaunchResend: return "the app resends saved jwsRepresentations after launch"
        case .appPeriodicRetry: return "the app's periodic retry of saved jwsRepresentations"
        case .storeResolvePayment, .storeInterruptedCharge, .storeDeferredExpired, .storeVerifyDone, .arrive,
            .appReceive, .appRequestTimeout, .appRequestFailedOffline, .appRetry, .serverVerifyTimeout,
            .storeNotifyCheck, .storeNotifyRetry, .storeHistoryDone, .serverReconcile, .storeSubscriptionClock,
            .serverStatusPoll, .vacant:
            return words
        }
    }
}

extension World {
    /// The next scheduled event: when, and what it will do (nil when nothing is scheduled).
    /// The events due at the same time run in the order they were scheduled; this is the first.
    package var nextEvent: (time: VirtualTime, action: Action)? {
        queue.min.map { ($0.time, outbox.pending[$0.slot]) }
    }
}

extension World {
    /// What `action` is when its time comes to nothing, or nil: a timer that the world has
    /// made moot since it was set (the request it guards was answered, the process that set
    /// it is gone). The status line says this instead of announcing a time-out that will not
    /// be one.
    package func moot(_ action: Action) -> String? {
        let gone = "a timer of a process that is gone: it does nothing"
        switch action {
        case .appRequestTimeout(let exchange, let incarnation):
            guard app.isCurrent(incarnation) else { return gone }
            return app.inFlight[exchange] == nil ? "request \(exchange) was answered: its time-out does nothing" : nil
        case .appRetry(_, let incarnation), .appFinish(_, let incarnation), .appLaunchResend(let incarnation),
            .appPeriodicRetry(let incarnation):
            return app.isCurrent(incarnation) ? nil : gone
        case .serverVerifyTimeout(let exchange):
            return server.verifying[exchange] == nil
                ? "the App Store answered: the server's time-out does nothing" : nil
        case .storeResolvePayment, .storeInterruptedCharge, .storeDeferredExpired, .storeDeliver, .storeVerifyDone,
            .arrive, .appReceive, .appRequestFailedOffline, .storeNotifyCheck, .storeNotifyRetry, .storeHistoryDone,
            .serverReconcile, .storeSubscriptionClock, .serverStatusPoll, .vacant:
            return nil
        }
    }
}
