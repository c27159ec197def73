import IAPSimCore

/// What the App Store Server API answers from: the simulated App Store's state at one
/// moment, as plain values. A provider builds one per request (`APIWorldProvider`), under
/// the lock or actor that guards the world, so the server never reads a world being changed.
package struct APIWorldView: Sendable {
    /// One charge as the API shows it.
    package struct Transaction: Sendable {
        /// Signed as of `now` (each answer signs anew).
        package var signed: SignedTransaction
        /// `M` + 9 digits (`AppStore.appleOrderId`).
        package var orderId: String
        /// When it last changed (charged, refunded, refund reversed): history's order.
        package var modifiedAt: VirtualTime
        /// The ids its world shows (`iapsim serve`: each world's own block).
        package var ids = APIIds.core
        /// The app finished it (Get Transaction History v1 omits finished consumables).
        package var finished = false
        /// Its `transactionId` as the API shows it.
        package var id: String { ids.transaction(signed.transactionId) }
        /// True when `id` is its transactionId, originalTransactionId or appTransactionId.
        package func isNamed(_ id: String) -> Bool {
            self.id == id || ids.transaction(signed.originalTransactionId) == id || customer == id
        }
        /// Its customer's `appTransactionId` as the API shows it.
        package var customer: String { ids.appTransaction(signed.appTransactionId) }
    }

    /// One auto-renewable subscription as Get All Subscription Statuses shows it.
    package struct SubscriptionState: Sendable {
        package var group: String
        /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked.
        package var status: Int
        /// The subscription's newest transaction, signed as of `now`.
        package var latest: SignedTransaction
        /// Its renewal info, signed as of `now`.
        package var renewalInfo: RenewalInfo
        package var ids = APIIds.core
        /// Its `originalTransactionId` as the API shows it.
        package var originalTransactionId: String { ids.transaction(renewalInfo.originalTransactionId) }
    }

    /// One notification attempt the App Store made.
    package struct NotificationAttempt: Sendable {
        package var notification: ServerNotification
        /// Virtual time of the attempt.
        package var at: VirtualTime
        /// Apple's `sendAttemptResult`: `SUCCESS` or `UNSUCCESSFUL_HTTP_RESPONSE_CODE`.
        package var result: String
        /// The ids its world shows.
        package var ids = APIIds.core
    }

    package var environment: StoreEnvironment
    package var now: VirtualTime
    /// Charged transactions, oldest first.
    package var transactions: [Transaction]
    /// Every notification attempt, oldest first.
    package var notifications: [NotificationAttempt]
    /// The auto-renewable subscriptions (one per group per customer).
    package var subscriptions: [SubscriptionState] = []
    /// `CONSUMPTION_REQUEST`s sent: the transaction (as the API shows it) and the virtual time
    /// of the first attempt.
    package var consumptionRequests: [(txn: String, at: VirtualTime)]

    package init(
        environment: StoreEnvironment, now: VirtualTime, transactions: [Transaction],
        notifications: [NotificationAttempt] = [], consumptionRequests: [(txn: String, at: VirtualTime)] = []
    ) {
        self.environment = environment
        self.now = now
        self.transactions = transactions
        self.notifications = notifications
        self.consumptionRequests = consumptionRequests
    }

    /// The view of a running world: its App Store, and its log for what the store does not
    /// keep (when a transaction last changed, the notifications sent and how they were
    /// answered). `log` is every entry of the world so far (a world made with `logLimit:
    /// nil`, or the runner's own copy of every entry).
    package init(simulation sim: Simulation, log: [LogEntry]? = nil, ids: APIIds = .core) {
        self.init(simulation: sim.world, log: log, ids: ids)
    }

    /// The view of a world without its checkers (what the user's backend is shown).
    package init(simulation sim: World, log: [LogEntry]? = nil, ids: APIIds = .core) {
        let entries = log ?? sim.log
        var modified: [String: VirtualTime] = [:]
        var attempts: [NotificationAttempt] = []
        var failedUUIDs: [(uuid: String, index: Int)] = []
        var requests: [(txn: String, at: VirtualTime)] = []
        for e in entries {
            switch e.fact {
            case .refundIssued(let txn, _, _, _), .refundReversed(let txn): modified[txn] = e.time
            case .notificationSent(let n):
                attempts.append(NotificationAttempt(notification: n, at: e.time, result: "SUCCESS", ids: ids))
                if n.type == .consumptionRequest, n.attempt <= 1 {
                    requests.append((ids.transaction(n.transaction.transactionId), e.time))
                }
            case .notificationUnanswered(let uuid, _, _, _), .notificationDropped(let uuid, _, _):
                if let i = attempts.lastIndex(where: { $0.notification.uuid == uuid }) {
                    failedUUIDs.append((uuid, i))
                }
            default: continue
            }
        }
        for failed in failedUUIDs { attempts[failed.index].result = "UNSUCCESSFUL_HTTP_RESPONSE_CODE" }
        let store = sim.store
        let transactions = store.chargedTransactions.compactMap { t -> Transaction? in
            guard let signed = store.signedForAPI(t, now: sim.now) else { return nil }
            let charged = t.chargedAt ?? t.createdAt
            return Transaction(
                signed: signed, orderId: AppStore.appleOrderId(of: ids.transaction(t.id)),
                modifiedAt: max(charged, modified[t.id] ?? charged), ids: ids, finished: t.finished)
        }
        self.init(
            environment: store.environment, now: sim.now, transactions: transactions, notifications: attempts,
            consumptionRequests: requests)
        subscriptions = sim.subscribers.compactMap { v -> SubscriptionState? in
            guard let t = store.transaction(v.subscription.latestTransactionId),
                let signed = store.signedForAPI(t, now: sim.now)
            else { return nil }
            return SubscriptionState(
                group: v.subscription.group, status: v.renewalInfo.status.rawValue, latest: signed,
                renewalInfo: v.renewalInfo,
                ids: ids)
        }
    }
}

/// How the API renames the core's ids: `iapsim serve` gives each world a block of its own
/// (docs/serve.md, "One backend, many worlds"), so that one backend serves many files.
package struct APIIds: Sendable {
    package var transaction: @Sendable (String) -> String
    package var appTransaction: @Sendable (String) -> String
    /// A notification's `notificationUUID` as the API shows it.
    package var notification: @Sendable (String) -> String

    package init(
        transaction: @escaping @Sendable (String) -> String, appTransaction: @escaping @Sendable (String) -> String,
        notification: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.transaction = transaction
        self.appTransaction = appTransaction
        self.notification = notification
    }

    /// The core's own ids.
    package static let core = APIIds(transaction: { $0 }, appTransaction: { $0 })
}

/// Where the API reads the world from, at request time. The runner implements it over the
/// world it drives (reading under its lock); `LockedWorld` is the simplest one.
package protocol APIWorldProvider: Sendable {
    /// The world now.
    func view() async -> APIWorldView
    /// Send Consumption Information arrived for `txn` (accepted, 202): the runner may turn
    /// it into an event of the world. `body` is the request's JSON text.
    func consumptionInformation(txn: String, body: String) async
    /// Request a Test Notification: the runner delivers a `TEST` notification with
    /// `signedPayload` to the backend and reports each attempt with
    /// `AppStoreAPIServer.recordTestAttempt`.
    func testNotificationRequested(token: String, signedPayload: String) async
    /// A request was answered (the runner may show it: `GET /inApps/v2/history/… -> 200`).
    func answered(method: String, path: String, status: Int) async
    /// Set App Account Token was accepted for `originalTransactionId` (as the API shows it):
    /// the world carries `token` from then on, and the views that follow show it.
    func appAccountTokenSet(originalTransactionId: String, token: String) async
}

extension APIWorldProvider {
    package func answered(method: String, path: String, status: Int) async {}
    package func appAccountTokenSet(originalTransactionId: String, token: String) async {}
}

/// A world behind an actor: tests, and a runner that has nothing else to do on a request.
package actor LockedWorld: APIWorldProvider {
    package private(set) var simulation: Simulation
    package private(set) var consumption: [(txn: String, body: String)] = []
    package private(set) var testRequests: [String] = []

    package init(_ simulation: Simulation) { self.simulation = simulation }

    package func update(_ change: @Sendable (inout Simulation) -> Void) { change(&simulation) }

    package func view() async -> APIWorldView { APIWorldView(simulation: simulation) }

    package func consumptionInformation(txn: String, body: String) async { consumption.append((txn, body)) }

    package func testNotificationRequested(token: String, signedPayload: String) async { testRequests.append(token) }

    package func appAccountTokenSet(originalTransactionId: String, token: String) async {
        _ = simulation.setAppAccountToken(AppAccountTokenChange(original: originalTransactionId, token: token))
    }
}
