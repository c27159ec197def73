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
        case .storeFamilyDeliver: return "the family member's device gets a FAMILY_SHARED transaction"
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
            .serverStatusPoll, .storeFamilyDeliver, .vacant:
            return words
        }
    }
}
