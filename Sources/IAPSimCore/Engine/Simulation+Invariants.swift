/// The invariants of the world: what must hold after every event, whatever the faults.
/// Checkers beside the world: they only read it. Debug builds assert them after every
/// event and command (`commit`); release builds never look (the seed sweep asks instead).
extension Simulation {
    /// The invariants that do not hold now, oldest rule first. `watch` holds what earlier
    /// looks saw (the rules about change compare with it) and is brought up to date. A fresh
    /// watch checks every credit under today's policy.
    package func invariantViolations(_ watch: inout InvariantWatch) -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        func breach(_ rule: InvariantViolation.Rule, _ detail: String) {
            found.append(InvariantViolation(rule: rule, detail: detail, at: now))
        }
        checkBalances(breach)
        checkTransactions(&watch.finished, breach)
        checkRequestsInFlight(breach)
        checkCredits(since: watch.creditsChecked, breach)
        watch.creditsChecked = server.credits.count
        if let next = queue.min, next.time < now {
            breach(.nothingQueuedInThePast, "an event at \(next.time)ms, the clock at \(now)ms")
        }
        // Sorted: an Ask to Buy approved late is charged after younger transactions.
        let charged = store.transactions.filter { $0.chargedAt != nil }.map(\.id).sorted()
        let audited = auditor.charges.map(\.txn).sorted()
        if audited != charged {
            breach(.auditorSawEveryCharge, "App Store charged \(charged), auditor has \(audited)")
        }
        return found
    }

    /// The invariants that do not hold now, without memory of earlier looks.
    package var invariantViolations: [InvariantViolation] {
        var fresh = InvariantWatch()
        return invariantViolations(&fresh)
    }

    /// Debug builds only: stops at the first event after which an invariant does not hold,
    /// naming the run's seed.
    mutating func assertInvariants() {
        #if DEBUG
        let found = invariantViolations(&invariantWatch)
        assert(found.isEmpty, "seed \(config.seed): \(found.map(\.description).joined(separator: "; "))")
        #endif
    }

    typealias Breach = (InvariantViolation.Rule, String) -> Void

    func checkBalances(_ breach: Breach) {
        var owed: [(user: String, coins: Int)] = server.balances.map { ($0.user, 0) }
        for c in server.credits {
            if let i = owed.firstIndex(where: { $0.user == c.user }) {
                owed[i].coins += c.coins
            } else {
                breach(.balancesEqualCredits, "\(c.user) was credited \(c.transactionId) but has no balance")
            }
        }
        for (i, b) in server.balances.enumerated() where b.coins != owed[i].coins {
            breach(.balancesEqualCredits, "\(b.user) has \(b.coins) coins, credits sum to \(owed[i].coins)")
        }
    }

    func checkTransactions(_ finished: inout [Bool], _ breach: Breach) {
        var seen: [String] = []
        seen.reserveCapacity(store.transactions.count)
        for (i, t) in store.transactions.enumerated() {
            if seen.contains(t.id) { breach(.transactionIdsUnique, "\(t.id) appears twice") }
            seen.append(t.id)
            if i < finished.count, finished[i], !t.finished {
                breach(.finishedStaysFinished, "\(t.id) is \(t.state.rawValue) and unfinished again")
            }
            if t.finished, t.state == .purchasing || t.state == .deferred {
                breach(.finishedIsSettled, "\(t.id) is finished while \(t.state.rawValue)")
            }
            if (t.state == .purchased) != (t.chargedAt != nil) {
                breach(.chargedIsPurchased, "\(t.id) is \(t.state.rawValue), charged at \(t.chargedAt.map(String.init) ?? "never")")
            }
        }
        finished = store.transactions.map(\.finished)
    }

    func checkRequestsInFlight(_ breach: Breach) {
        let actions = outbox.pending
        for exchange in app.inFlight.keys where !actions.contains(.appRequestTimeout(exchange: exchange, incarnation: app.incarnation)) {
            breach(.requestsHaveTimeouts, "app exchange \(exchange) waits with no timeout")
        }
        for exchange in server.verifying.keys where !actions.contains(.serverVerifyTimeout(exchange: exchange)) {
            breach(.requestsHaveTimeouts, "server verification \(exchange) waits with no timeout")
        }
    }

    func checkCredits(since checked: Int, _ breach: Breach) {
        let credits = server.credits
        for (k, c) in credits.enumerated() {
            if !store.transactions.contains(where: { $0.id == c.transactionId && $0.chargedAt != nil }) {
                breach(.creditsWerePaid, "\(c.transactionId) credited to \(c.user), never charged")
            }
            if k >= checked, policy.serverDedup,
               credits[..<k].contains(where: { $0.transactionId == c.transactionId }) {
                breach(.creditedOnceUnderDedup, "\(c.transactionId) credited again to \(c.user)")
            }
        }
        for o in server.orders where (o.state == .credited) != (o.transactionId != nil) {
            breach(.ordersMatchCredits, "order \(o.id) is \(o.state.rawValue), transaction \(o.transactionId ?? "none")")
        }
    }
}
