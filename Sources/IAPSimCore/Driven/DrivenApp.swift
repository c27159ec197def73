/// The app's side when real app code plays it (`IAPSimStoreKit`'s harness): the simulated
/// `AppProcess` stays inert (`Policy.drivenApp`) and what StoreKit 2 and the network would
/// hand to the app's code is queued here, for the harness to hand to the app's tasks.
package struct DrivenApp: Sendable, Hashable {
    /// What the world handed to the app, oldest first, until the harness takes it.
    package enum Event: Sendable, Hashable {
        /// A purchase call returns (`purchaseReturned` was logged).
        case purchaseReturned(txn: String, result: PurchaseResult)
        /// `Transaction.updates` emits these (`updatesEmitted` was logged).
        case updates(txns: [String])
        /// An answer to one of the app's requests reached the device.
        case answered(exchange: Int, payload: Payload)
        /// One of the app's requests failed: it timed out, or the device is offline.
        case failed(exchange: Int, why: String)
    }

    /// Transactions a purchase call of the running process waits for.
    package internal(set) var awaiting: [String] = []
    /// The app's task iterates `Transaction.updates`.
    package internal(set) var listening = false
    /// The app's requests in flight and their routes.
    var inFlight: [(exchange: Int, route: Route)] = []
    package internal(set) var inbox: [Event] = []

    package init() {}

    package static func == (a: Self, b: Self) -> Bool {
        a.awaiting == b.awaiting && a.listening == b.listening && a.inbox == b.inbox
            && a.inFlight.map(\.exchange) == b.inFlight.map(\.exchange)
    }

    package func hash(into h: inout Hasher) {
        h.combine(awaiting)
        h.combine(listening)
        h.combine(inbox)
    }

    /// A crash: the process's calls, listener and requests are gone with it.
    mutating func forget() {
        awaiting = []
        listening = false
        inFlight = []
        inbox = []
    }
}

extension Policy {
    /// The app-side keys of a world whose app is real code: nothing of the simulated app's
    /// own runs (no listener, sweep, retry, resend or finish of its own). The server-side
    /// keys stay as given.
    package var drivenApp: Policy {
        var p = self
        p.storekit = .two
        p.observer = .storeScreen
        p.finish = .afterCredit
        p.sweepUnfinished = false
        p.accountToken = false
        p.persist = .none
        p.retryImmediate = 0
        p.retryIntervalMs = nil
        p.resendOn = []
        p.reportAppTransaction = false
        return p
    }
}
