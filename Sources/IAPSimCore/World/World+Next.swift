/// What the next events will do, in words: the status line and the UI read them.
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
        case .storeDeliver:
            // Apple delivers to a running app only; StoreKit 1 to a registered observer only
            // (the transaction waits in the queue). Dispatch drops it, and says nothing.
            guard !app.isRunning || (policy.storekit == .one && !app.observerRegistered) else { return nil }
            return app.isRunning
                ? "no observer is registered: nothing is delivered, the transaction waits in the queue"
                : "the app is not running: nothing is delivered, the transaction stays unfinished"
        case .storeResolvePayment, .storeInterruptedCharge, .storeDeferredExpired, .storeVerifyDone,
            .arrive, .appReceive, .appRequestFailedOffline, .storeNotifyCheck, .storeNotifyRetry, .storeHistoryDone,
            .serverReconcile, .storeSubscriptionClock, .serverStatusPoll, .storeFamilyDeliver, .vacant:
            return nil
        }
    }
}
