import Foundation
import IAPSimCore

/// What your app's running process waits on in the store: purchase calls, listeners,
/// requests, sleeps. All of it goes with a crash.
struct AppState {
    /// Continuations to resume outside the store's lock, in order.
    struct Dropped {
        var actions: [() -> Void] = []
        /// The tasks the actions resume (nil: one the store cannot name), for `Debts`.
        var owes: [Int?] = []
        var isEmpty: Bool { actions.isEmpty }
        func resume() { for a in actions { a() } }
    }

    struct Purchase {
        var txn: String
        var task: Int?
        var continuation: CheckedContinuation<Product.PurchaseResult, Error>
    }

    struct Listener {
        var buffer: [VerificationResult<Transaction>] = []
        var waiter: CheckedContinuation<VerificationResult<Transaction>?, Never>?
        var waiterTask: Int?
    }

    struct Sleeper {
        var deadline: VirtualTime
        var seq: Int
        var task: Int?
        var continuation: CheckedContinuation<Void, Error>
    }

    var running = false
    var purchases: [Purchase] = []
    var listeners: [Int: Listener] = [:]
    var listenerOrder: [Int] = []
    var nextListener = 0
    var loads: [(exchange: Int, load: SimulatedNetwork.Load)] = []
    var sleepers: [Sleeper] = []
    var nextSleeper = 0

    var nextDeadline: VirtualTime? { sleepers.map(\.deadline).min() }

    /// Ends every sleep due at `time`, in the order they began.
    mutating func wakeSleepers(upTo time: VirtualTime) -> Dropped {
        var woken = Dropped()
        let due = sleepers.filter { $0.deadline <= time }.sorted { ($0.deadline, $0.seq) < ($1.deadline, $1.seq) }
        sleepers.removeAll { $0.deadline <= time }
        for s in due {
            woken.actions.append { s.continuation.resume() }
            woken.owes.append(s.task)
        }
        return woken
    }

    /// `Transaction.updates` emits `values` to every listener of the process.
    mutating func emit(_ values: [VerificationResult<Transaction>]) -> Dropped {
        var handed = Dropped()
        for id in listenerOrder {
            guard var l = listeners[id] else { continue }
            l.buffer += values
            if let w = l.waiter, !l.buffer.isEmpty {
                let first = l.buffer.removeFirst()
                l.waiter = nil
                handed.actions.append { w.resume(returning: first) }
                handed.owes.append(l.waiterTask)
            }
            listeners[id] = l
        }
        return handed
    }

    /// The process died: every call it waits on ends.
    mutating func dropAll() -> Dropped {
        var dropped = Dropped()
        for p in purchases { dropped.actions.append { p.continuation.resume(throwing: CancellationError()) } }
        for id in listenerOrder {
            if let w = listeners[id]?.waiter { dropped.actions.append { w.resume(returning: nil) } }
        }
        for (_, load) in loads { dropped.actions.append { load.fail(URLError(.cancelled)) } }
        for s in sleepers { dropped.actions.append { s.continuation.resume(throwing: CancellationError()) } }
        self = AppState()
        return dropped
    }
}
