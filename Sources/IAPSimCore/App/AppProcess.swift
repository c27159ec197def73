/// The app process's life.
package enum ProcessState: String, Sendable, Hashable {
    case running, crashed
    case notRunning = "not running"
    case uninstalled
}

/// An order the app got from the merchant server (memory only).
package struct OrderTicket: Sendable, Hashable {
    package var id: String
    package var token: String
    package var productId: String
    package var user: String
}

/// A receipt the app still has to get credited: kept in memory, and in a file or the
/// keychain where the policy says.
package struct PendingReceipt: Sendable, Hashable {
    package var txn: String
    package var productId: String
    /// The account logged in when the transaction was handled (nil: nobody).
    package var buyer: String?
    package var orderId: String?
    var orderToken: String?
    package var receipt: Receipt
    /// StoreKit 2: the `jwsRepresentation` that is sent instead of a receipt.
    package var signed: SignedTransaction? = nil
}

/// What an exchange in flight was for.
enum InFlight: Sendable, Hashable {
    /// `offer`: the promotional offer the user chose at Buy, which the order's answer signs.
    case order(product: String, user: String, offer: String? = nil)
    case recharge(txn: String)
}

/// The app: a process that can crash (memory gone), files that go with an uninstall, a
/// keychain that stays; its StoreKit observer and its purchase flow, every step governed
/// by the policy.
package struct AppProcess: Sendable, Hashable {
    package internal(set) var process: ProcessState
    /// Bumped at every launch; timers of an earlier process are void.
    package internal(set) var incarnation = 0
    var everLaunched = false
    // Memory: gone with the process.
    /// In the background the process runs no code: what would run waits in `parked`.
    package internal(set) var inBackground = false
    var parked: [Action] = []
    package internal(set) var storeOpen = false
    package internal(set) var observerRegistered = false
    var currentOrder: OrderTicket?
    /// StoreKit 2: purchase calls waiting for their result, each with its order.
    var awaiting: [AwaitedPurchase] = []
    var tickets: [OrderTicket] = []
    /// Where each ticket's order token and order id first is (indexes once there are many).
    var ticketTokens = KeyPositions<String>()
    var ticketIds = KeyPositions<String>()
    package internal(set) var memory: [PendingReceipt] = []
    package internal(set) var waitingForLogin: [String] = []
    var inFlight = SmallMap<Int, InFlight>()
    var retriesUsed = SmallMap<String, Int>()
    var periodicArmed = false
    var periodicCount = 0
    // The periodic retry's back-off (`AppProcess+PeriodicRetry.swift`).
    /// How many times the periodic interval has doubled.
    var periodicDoublings = 0
    /// A periodic round was sent and no recharge has had a definite answer since.
    var periodicUnanswered = false
    var periodicLastRoundAt: VirtualTime = 0
    /// The back-off the next round waits out (0: none), for its reason's words.
    var periodicBackedOffMs: UInt32 = 0
    // Files: kept across crashes, gone with an uninstall.
    var savedLogin: String?
    package internal(set) var files: [PendingReceipt] = []
    // Keychain: kept even across an uninstall.
    package internal(set) var keychain: [PendingReceipt] = []
    /// A bug injected by `fail-next-payment unfinished`: the failure branch skips finishing.
    var skipFinishNextFailed = false

    static let launchResendDelayMs: VirtualTime = 3_000
    static let immediateRetryDelayMs: VirtualTime = 1_000

    package init(running: Bool) {
        process = running ? .running : .notRunning
    }

    package var isRunning: Bool { process == .running }

    /// Whether the process that set a timer (its `incarnation`) is the one running now: a
    /// crash or an uninstall leaves the timers of the old one to fire on nothing.
    func isCurrent(_ incarnation: Int) -> Bool { isRunning && self.incarnation == incarnation }

    /// The logged-in account while the process runs.
    package var loggedIn: String? { isRunning ? savedLogin : nil }

    /// Transactions with a recharge request in flight.
    package var rechargesInFlight: [String] {
        inFlight.keys.sorted().compactMap {
            if case .recharge(let txn) = inFlight[$0]! { return txn }
            return nil
        }
    }

    /// True while a recharge request for `txn` is in flight.
    func hasRechargeInFlight(_ txn: String) -> Bool {
        inFlight.containsValue { if case .recharge(txn) = $0 { return true } else { return false } }
    }

    /// Every pending receipt the app can reach now, each once (memory, files, keychain).
    var reachablePending: [PendingReceipt] {
        var out: [PendingReceipt] = []
        // Memory, files, keychain, in this order, without building their concatenation.
        func take(_ tier: [PendingReceipt]) {
            for i in tier.indices where !out.indices.contains(where: { out[$0].txn == tier[i].txn }) {
                out.append(tier[i])
            }
        }
        if isRunning { take(memory) }
        take(files)
        take(keychain)
        return out
    }

    /// True when `reachablePending` is not empty (without building it).
    var hasReachablePending: Bool {
        (isRunning && !memory.isEmpty) || !files.isEmpty || !keychain.isEmpty
    }

    /// The first of memory, files and keychain that holds `txn`, as `reachablePending`
    /// would find it.
    func record(_ txn: String) -> PendingReceipt? {
        if isRunning, let i = memory.indices.first(where: { memory[$0].txn == txn }) { return memory[i] }
        if let i = files.indices.first(where: { files[$0].txn == txn }) { return files[i] }
        return keychain.indices.first { keychain[$0].txn == txn }.map { keychain[$0] }
    }

    /// Whether the app still holds a record of `txn` (what `record` would find), without
    /// copying any: a record carries its receipt, and thousands may wait at once.
    /// StoreKit handed the app `signed` anew (a refund's revocation on `Transaction.updates`):
    /// every record it keeps of that transaction carries it from now on.
    mutating func replaceSigned(_ signed: SignedTransaction) {
        let txn = signed.transactionId
        for i in memory.indices where memory[i].txn == txn { memory[i].signed = signed }
        for i in files.indices where files[i].txn == txn { files[i].signed = signed }
        for i in keychain.indices where keychain[i].txn == txn { keychain[i].signed = signed }
    }

    func hasRecord(_ txn: String) -> Bool {
        (isRunning && memory.indices.contains { memory[$0].txn == txn })
            || files.indices.contains { files[$0].txn == txn }
            || keychain.indices.contains { keychain[$0].txn == txn }
    }

    /// The transactions the app holds records of (memory when running, files, keychain).
    var heldTransactions: Set<String> {
        var held = Set<String>()
        if isRunning { for i in memory.indices { held.insert(memory[i].txn) } }
        for i in files.indices { held.insert(files[i].txn) }
        for i in keychain.indices { held.insert(keychain[i].txn) }
        return held
    }

    // MARK: lifecycle

    mutating func launch(firstUser: String?, store: inout AppStore, _ out: inout Outbox) {
        let fresh = !everLaunched
        process = .running
        incarnation += 1
        if fresh, let firstUser { savedLogin = firstUser }
        everLaunched = true
        // A new process: no timer of the old one, and no back-off.
        resetPeriodicBackOff()
        periodicBackedOffMs = 0
        out.log(.app, .appLaunched(freshInstall: fresh))
        // StoreKit delivers the messages that waited for a launch (a price increase's).
        store.deliverStoreKitMessages(&out)
        if fresh, let user = savedLogin {
            out.log(.app, .userLoggedIn(user))
            reportAppTransaction(user, &out)
        }
        if out.policy.observer == .launch { registerObserver(atLaunch: true, store: &store, &out) }
        if out.policy.storekit == .two && out.policy.sweepUnfinished { sweepUnfinished(store: &store, &out) }
        if out.policy.resends(on: .launch) && !(files.isEmpty && keychain.isEmpty) {
            out.after(AppProcess.launchResendDelayMs, .appLaunchResend(incarnation: incarnation))
        }
        armPeriodic(&out)
    }

    mutating func registerObserver(atLaunch: Bool = false, store: inout AppStore, _ out: inout Outbox) {
        guard !observerRegistered else { return }
        observerRegistered = true
        if out.policy.storekit == .two { return startListener(atLaunch: atLaunch, store: store, &out) }
        out.log(.app, .observerRegistered)
        store.observerAdded(&out)
    }

    mutating func crash(_ out: inout Outbox) {
        forgetMemory()
        process = .crashed
        out.log(.app, .appCrashed)
    }

    mutating func uninstall(_ out: inout Outbox) {
        forgetMemory()
        process = .uninstalled
        savedLogin = nil
        files = []
        everLaunched = false
        out.log(.app, .appUninstalled)
    }

    mutating func forgetMemory() {
        inBackground = false
        // The lists keep their room for the next process (explore crashes apps by the
        // million): emptied, not replaced.
        parked.removeAll(keepingCapacity: true)
        storeOpen = false
        observerRegistered = false
        currentOrder = nil
        awaiting.removeAll(keepingCapacity: true)
        tickets.removeAll(keepingCapacity: true)
        ticketTokens.removeAll()
        ticketIds.removeAll()
        memory.removeAll(keepingCapacity: true)
        waitingForLogin.removeAll(keepingCapacity: true)
        inFlight.removeAll(keepingCapacity: true)
        retriesUsed.removeAll(keepingCapacity: true)
        periodicArmed = false
    }

    mutating func background(_ out: inout Outbox) {
        inBackground = true
        out.log(.app, .appBackgrounded)
    }

    /// Back from the background: what waited runs now, in the order it came, then StoreKit
    /// delivers every unfinished transaction again (Apple).
    mutating func foreground(store: inout AppStore, _ out: inout Outbox) {
        inBackground = false
        out.log(.app, .appForegrounded)
        for action in parked { out.after(0, action) }
        parked = []
        if out.policy.storekit == .two {
            // No redelivery at foreground in StoreKit 2: the listener resumes (what it was
            // sent waited in `parked`), and the sweep looks at `Transaction.unfinished`.
            if out.policy.sweepUnfinished { sweepUnfinished(store: &store, &out) }
        } else if observerRegistered {
            let due = store.redeliverable
            if !due.isEmpty { out.after(0, .storeDeliver(txns: due, redelivery: true, atForeground: true)) }
        }
    }

    mutating func openStore(store: inout AppStore, _ out: inout Outbox) {
        guard !storeOpen else { return }
        storeOpen = true
        out.log(.app, .storeScreenOpened)
        if out.policy.observer == .storeScreen { registerObserver(store: &store, &out) }
    }

    mutating func closeStore(_ out: inout Outbox) {
        guard storeOpen else { return }
        storeOpen = false
        out.log(.app, .storeScreenClosed)
        // The store screen's view controller owned the observer.
        if out.policy.observer == .storeScreen { observerRegistered = false }
    }

    mutating func login(_ user: String, store: inout AppStore, _ out: inout Outbox) {
        savedLogin = user
        out.log(.app, .userLoggedIn(user))
        reportAppTransaction(user, &out)
        let waiting = waitingForLogin
        waitingForLogin = []
        for r in reachablePending {
            if waiting.contains(r.txn) {
                sendRecharge(r, reason: .loginArrived, store: &store, &out)
            } else if out.policy.resends(on: .login) {
                sendRecharge(r, reason: .resend(.login), store: &store, &out)
            }
        }
    }

    /// `report-app-transaction`: at login the app tells the server its customer's
    /// `AppTransaction.appTransactionID` (it exists before any purchase), route `order`.
    /// Under serve the backend has no such endpoint (it gets the id in `POST /orders`):
    /// nothing is sent, so no simulated server keeps what the backend never saw.
    func reportAppTransaction(_ user: String, _ out: inout Outbox) {
        guard out.policy.reportAppTransaction, out.policy.storekit == .two, !out.served else { return }
        out.send(
            .order, .request, .app, exchange: out.newExchange(),
            .appTransactionReport(user: user, appTransactionId: AppStore.appTransactionId))
    }

    mutating func logout(_ out: inout Outbox) {
        guard let user = savedLogin else { return }
        savedLogin = nil
        out.log(.app, .userLoggedOut(user))
    }

    mutating func networkReturned(store: inout AppStore, _ out: inout Outbox) {
        guard isRunning, out.policy.resends(on: .network) else { return }
        resendAll(.resend(.network), store: &store, &out)
    }
}
