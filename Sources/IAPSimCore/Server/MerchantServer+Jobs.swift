/// The merchant server's own timers: its reconciliation job (`server-reconcile`) and its
/// subscription status poll (`server-status-poll`). The world schedules their ticks; whether
/// each is scheduled, and what the reconciliation last found, is the server's.
package struct ServerJobs: Sendable, Hashable {
    /// The reconciliation job is scheduled.
    var reconcileArmed = false
    /// The world as it was when `armReconcileIfDue` last found no work (nil: not known).
    var reconcileIdleAt: ReconcileStamp?
    /// The subscription status poll is scheduled.
    var statusPollArmed = false
}

/// What `MerchantServer.reconciliationHasWork` reads, counted: the same stamp, the same answer.
struct ReconcileStamp: Sendable, Hashable {
    var store: Int, credits: Int, orders: Int, toldOf: Int, refundsHeard: Int, reported: Int
}
