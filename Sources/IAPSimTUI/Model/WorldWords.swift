import IAPSimCore

/// The UI's words that differ between the two StoreKit worlds, in one place: a StoreKit 2
/// run shows `purchase()`, `Transaction.unfinished`, `finish()` and signed transactions,
/// never the payment queue or a receipt; a StoreKit 1 run reads exactly as it always did.
struct WorldWords {
    let world: StoreKitWorld

    init(_ world: StoreKitWorld) { self.world = world }

    var storeKit2: Bool { world == .two }

    // MARK: the transactions panel

    var queueTitle: String { storeKit2 ? "Transactions" : "Payment queue" }

    /// A narrow panel's title has no room for the API's name; the legend gives it.
    func queueBadge(unfinished n: Int, narrow: Bool) -> String {
        storeKit2 && !narrow ? "\(n) in Transaction.unfinished" : "\(n) unfinished"
    }

    /// Whether an unfinished transaction is counted and marked as such: in StoreKit 2 only a
    /// charged one is in `Transaction.unfinished` (one still in `purchase()`, or pending, is
    /// not a transaction the app can see yet).
    func listedAsUnfinished(_ t: StoreTransaction) -> Bool {
        !storeKit2 || t.state == .purchased || t.state == .restored
    }

    var noTransactions: String { storeKit2 ? "no purchase() yet: b buys" : "no transactions yet: b buys" }

    var finishedHeading: String { storeKit2 ? "done (finish() or failed)" : "finished (newest first)" }

    /// The state column's width: StoreKit 2's `userCancelled` is two columns wider.
    func stateWidth(narrow: Bool) -> Int { storeKit2 && !narrow ? 13 : 11 }

    /// The name column's heading, long and short.
    var nameColumn: (long: String, short: String) {
        storeKit2 ? ("appAccountToken", "token") : ("applicationUsername", "appUsername")
    }

    /// A transaction's state: `SKPaymentTransactionState` in StoreKit 1; in StoreKit 2 what
    /// `purchase()` returned (`success`, `pending`, `userCancelled`) or threw, and `verified`
    /// for a charge no purchase call returned (the app died, or it completed outside the
    /// app): only `Transaction.updates` or `Transaction.unfinished` can hand it over;
    /// `renewal` for a subscription's renewal (`transactionReason` RENEWAL), which no
    /// purchase call ever returns.
    func state(_ t: StoreTransaction, narrow: Bool = false, returned: Set<String>) -> String {
        guard storeKit2 else { return t.state.rawValue }
        switch t.state {
        case .purchasing: return "purchasing"
        case .purchased, .restored:
            if returned.contains(t.id) { return "success" }
            // A renewal is no purchase() call's: Apple's transactionReason names it.
            return t.subscription?.reason == .renewal ? "renewal" : "verified"
        case .deferred: return "pending"
        case .failed:
            switch t.failure ?? .cancelled {
            case .cancelled: return narrow ? "cancelled" : "userCancelled"
            case .network: return narrow ? "netError" : "networkError"
            case .invalid: return "unavailable"
            case .unknown: return "unknown"
            }
        }
    }

    /// The transactions whose `purchase()` returned `.success`, from the log kept in memory.
    /// One older than that log and finished was handled: counted as returned.
    static func returnedSuccess(_ sim: Simulation) -> Set<String> {
        guard sim.policy.storekit == .two else { return [] }
        var ids = Set<String>()
        for e in sim.log {
            if case .purchaseReturned(let txn, _, .success) = e.fact { ids.insert(txn) }
        }
        let logStart = sim.log.first?.time ?? 0
        for t in sim.store.transactions where t.finished && (t.chargedAt ?? t.createdAt) < logStart { ids.insert(t.id) }
        return ids
    }

    // MARK: the inspectors

    func finishedWords(_ t: StoreTransaction) -> String {
        guard storeKit2 else { return t.finished ? "  finished" : "  unfinished (still in the payment queue)" }
        switch t.state {
        case .failed: return "  no transaction left behind: purchase() did not succeed"
        case .purchasing: return "  purchase() has not returned yet"
        case .deferred: return "  waiting for a parent: the outcome comes on Transaction.updates"
        case .purchased, .restored: break
        }
        return t.finished ? "  finished (finish() called)" : "  unfinished (in Transaction.unfinished until finish())"
    }

    /// An anomaly's text from the auditor, in this world's words.
    func anomaly(_ text: String) -> String { AnomalyType.text(text, in: world) }

    // MARK: the help overlay

    /// The legend's entries that name StoreKit's API.
    func legend(_ g: Glyphs) -> [(String, String)] {
        guard storeKit2 else {
            return [
                (g.dot, "unfinished: still in the payment queue"), (g.check, "finished / registered"),
                (g.cross, "observer not registered"),
            ]
        }
        return [
            (g.dot, "unfinished: in Transaction.unfinished"), (g.check, "finish() called / listening"),
            (g.cross, "no Transaction.updates listener"), ("success", "purchase() returned .success(.verified)"),
            ("verified", "charged; no purchase() returned it (updates or unfinished must)"),
            ("renewal", "a renewal (transactionReason RENEWAL): on Transaction.updates"),
        ]
    }

    var transactionLegend: (String, String) {
        storeKit2 ? ("txn", "Transaction.id (transactionId)") : ("txn", "SKPaymentTransaction id")
    }

    var dataLegend: (String, String) {
        storeKit2 ? ("JWS", "jwsRepresentation: a signed transaction") : ("in_app", "receipt entries")
    }
}
