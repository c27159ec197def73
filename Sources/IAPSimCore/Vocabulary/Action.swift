/// Something scheduled to happen at a virtual time. The engine routes each to the part
/// that owns it; actions of the app process carry the incarnation that scheduled them, so
/// a crash cancels them (a new process has no such timers).
package enum Action: Sendable, Hashable {
    case storeResolvePayment(txn: String)
    case storeInterruptedCharge(origin: String)
    case storeDeferredExpired(txn: String)
    case storeDeliver(txns: [String], redelivery: Bool, atForeground: Bool)
    case storeVerifyDone(exchange: Int, receipt: Receipt?)
    case arrive(Message)
    /// An answer that reached the device while the app was in the background, handled now.
    case appReceive(Message)
    case appRequestTimeout(exchange: Int, incarnation: Int)
    case appRequestFailedOffline(exchange: Int)
    case appRetry(txn: String, incarnation: Int)
    case appFinish(txn: String, incarnation: Int)
    case appLaunchResend(incarnation: Int)
    case appPeriodicRetry(incarnation: Int)
    case serverVerifyTimeout(exchange: Int)
    /// The server side (docs/world.md, "The server side"): a notification attempt's timeout, its
    /// retry, the App Store Server API's answer, the server's reconciliation job. Their
    /// payloads are numbers: an action is copied on every hop of the queue, and a case
    /// that holds a string makes every copy of every action dearer.
    case storeNotifyCheck(exchange: Int)
    case storeNotifyRetry(exchange: Int)
    case storeHistoryDone(exchange: Int)
    case serverReconcile
    /// Subscriptions (docs/world.md, "Subscriptions"): subscription `index`'s clock (a
    /// renewal charge a day before the expiry, the expiry, a billing retry, the end of grace); the server's
    /// status poll.
    case storeSubscriptionClock(index: Int)
    case serverStatusPoll
    /// Family Sharing: the family member's device gets their transaction `index`
    /// (`Subscriptions/FamilySharing.swift`).
    case storeFamilyDeliver(index: Int)
    /// What a free slot of the queue's actions holds (`Outbox.pending`): never scheduled.
    case vacant
}
