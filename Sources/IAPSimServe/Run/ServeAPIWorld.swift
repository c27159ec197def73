import Foundation
import IAPSimCore

/// The App Store Server API's view of the world `iapsim serve` drives: the runner shows it
/// each world before an exchange (the backend may call the API while it answers), and the
/// API reads it at request time, under a lock. Between worlds, and with `--hold` after the
/// last, it answers from the last world shown.
package final class ServeAPIWorld: APIWorldProvider, ServeAPIHosting, @unchecked Sendable {
    private let lock = NSLock()
    private var world: World?
    private var ids: ServeIds?
    /// The worlds played before the current one, as the API shows them: the App Store still
    /// knows those customers (their ids never meet the current world's).
    private var earlier = APIWorldView(environment: .production, now: 0, transactions: [])
    /// The view of the world last shown (its own part, and with the earlier worlds before
    /// it), built at the first request after `show`: a world does not change during an
    /// exchange, and a tick's reconciliation may call the API hundreds of times, so the log
    /// is scanned once an exchange, not once a request.
    private var own: APIWorldView?
    private var cached: APIWorldView?
    private var pendingTests: [(token: String, signedPayload: String)] = []
    /// Set App Account Token calls (served ids) the world has not taken yet.
    private var pendingTokens: [AppAccountTokenChange] = []
    /// Every token set and not yet in a world shown, by original transaction (served ids):
    /// the views show them at once, as Apple's answers would.
    private var tokenOverlay: [String: String] = [:]
    /// The originals whose change the world took during the exchange in progress.
    private var tokensTaken: Set<String> = []
    private var consumption: [(txn: String, body: String)] = []
    private var calls: [String] = []
    package private(set) var url = ""
    /// The API server, for the test notifications' attempts.
    var server: AppStoreAPIServer?

    package init() {}

    /// The virtual time of the world last shown (0 before any).
    package var now: IAPSimCore.VirtualTime { locked { world?.now ?? 0 } }

    /// Where the API listens (`IAPSIM_API_URL`).
    package func listening(at url: String) { locked { self.url = url } }

    package func show(_ world: World, ids: ServeIds) {
        locked {
            if let old = self.world, let oldIds = self.ids, oldIds.world != ids.world {
                var last = own ?? APIWorldView(simulation: old, ids: oldIds.api)
                last.applyTokens(tokenOverlay)
                earlier.append(last)
                tokenOverlay = [:]
                pendingTokens = []
            } else {
                for original in tokensTaken { tokenOverlay[original] = nil }
            }
            tokensTaken = []
            self.world = world
            self.ids = ids
            own = nil
            cached = nil
        }
    }

    /// The current world's view, the worlds played before it first (the App Store still
    /// knows those customers; their ids never meet the current world's).
    package func view() async -> APIWorldView {
        locked {
            if let cached { return cached }
            guard let world, let ids else { return earlier }
            let current = own ?? APIWorldView(simulation: world, ids: ids.api)
            var view = earlier
            view.append(current)
            (view.environment, view.now) = (current.environment, current.now)
            view.applyTokens(tokenOverlay)
            own = current
            cached = view
            return view
        }
    }

    package func consumptionInformation(txn: String, body: String) async {
        locked { consumption.append((txn, body)) }
    }

    package func testNotificationRequested(token: String, signedPayload: String) async {
        locked { pendingTests.append((token, signedPayload)) }
    }

    package func appAccountTokenSet(originalTransactionId: String, token: String) async {
        locked {
            pendingTokens.append(AppAccountTokenChange(original: originalTransactionId, token: token))
            tokenOverlay[originalTransactionId] = token
            cached = nil
        }
    }

    /// The Set App Account Token calls since the last look (served ids): the runner's world
    /// takes them.
    package func takeTokenChanges() -> [AppAccountTokenChange] {
        locked {
            defer { pendingTokens = [] }
            tokensTaken.formUnion(pendingTokens.map(\.original))
            return pendingTokens
        }
    }

    package func answered(method: String, path: String, status: Int) async {
        locked { calls.append("\(method) \(path) -> \(status)") }
    }

    /// The API requests answered since the last look, oldest first.
    package func takeCalls() -> [String] {
        locked {
            defer { calls = [] }
            return calls
        }
    }

    /// The test notifications asked for since the last call: the runner delivers them.
    package func takeTestRequests() -> [(token: String, signedPayload: String)] {
        locked {
            defer { pendingTests = [] }
            return pendingTests
        }
    }

    package func recordTestAttempt(token: String, result: String, at: IAPSimCore.VirtualTime) {
        guard let server = locked({ self.server }) else { return }
        Blocking.run { await server.recordTestAttempt(token: token, result: result, at: at) }
    }

    package func arm(_ fault: ServerAPIFault) {
        guard let server = locked({ self.server }) else { return }
        Blocking.run { await server.arm(fault) }
    }

    /// How many Send Consumption Information calls were accepted.
    package var consumptionAnswers: Int { locked { consumption.count } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

extension APIWorldView {
    /// Shows the tokens Set App Account Token set (by original transaction, as the API shows
    /// it) on every transaction of that original and on its subscription's renewal info.
    mutating func applyTokens(_ tokens: [String: String]) {
        guard !tokens.isEmpty else { return }
        for i in transactions.indices {
            let t = transactions[i]
            if let token = tokens[t.ids.transaction(t.signed.originalTransactionId)] {
                transactions[i].signed.appAccountToken = token
            }
        }
        for i in subscriptions.indices {
            if let token = tokens[subscriptions[i].originalTransactionId] {
                subscriptions[i].latest.appAccountToken = token
                subscriptions[i].renewalInfo.appAccountToken = token
            }
        }
    }

    /// Adds what `other` shows after what this view shows (its environment and time unchanged).
    mutating func append(_ other: APIWorldView) {
        transactions += other.transactions
        notifications += other.notifications
        consumptionRequests += other.consumptionRequests
        subscriptions += other.subscriptions
    }
}
