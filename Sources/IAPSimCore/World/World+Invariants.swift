/// The invariants of the world: what must hold after every event, whatever the faults.
/// They only read the world. Debug builds assert them, and the onlooker's agreement with it, after every
/// event and command (`commit`); release builds never look (the seed sweep asks instead).
extension World {
    /// The invariants that do not hold now, oldest rule first. `watch` holds what earlier
    /// looks saw (the rules about change compare with it) and is brought up to date. A fresh
    /// watch checks every credit under today's policy.
    func invariantViolations(_ watch: inout InvariantWatch) -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        func breach(_ rule: InvariantViolation.Rule, _ detail: String) {
            found.append(InvariantViolation(rule: rule, detail: detail, at: now))
        }
        checkBalances(breach)
        checkTransactions(&watch.finished, breach)
        checkRequestsInFlight(breach)
        // Under serve the credits are the user's backend's: a wrong one is the verdict's
        // finding about that backend, not a broken world.
        if !isExternal { checkCredits(since: watch.creditsChecked, breach) }
        watch.creditsChecked = server.credits.count
        if let next = queue.min, next.time < now {
            breach(.nothingQueuedInThePast, "an event at \(next.time)ms, the clock at \(now)ms")
        }
        return found
    }

    /// The invariants that do not hold now, without memory of earlier looks.
    var invariantViolations: [InvariantViolation] {
        var fresh = InvariantWatch()
        return invariantViolations(&fresh)
    }

    /// Debug builds only: stops at the first event after which an invariant does not hold
    /// (the world's, or its onlooker's agreement with it), naming the run's seed.
    mutating func assertInvariants<O: Onlooker>(_ onlooker: O) {
        #if DEBUG
            let found = invariantViolations(&invariantWatch) + onlooker.violations(in: self)
            assert(found.isEmpty, "seed \(config.seed): \(found.map(\.description).joined(separator: "; "))")
        #endif
    }

    typealias Breach = (InvariantViolation.Rule, String) -> Void

    // Debug builds run these after every event: they search in place rather than build
    // lists (a run holds a few dozen records at most).

    func checkBalances(_ breach: Breach) {
        let credits = server.credits, balances = server.balances, debits = server.debits
        for b in balances {
            let owed = credits.reduce(0) { $1.user == b.user ? $0 + $1.coins : $0 }
            let taken = debits.reduce(0) { $1.user == b.user ? $0 + $1.coins : $0 }
            if b.coins != owed - taken {
                breach(
                    .balancesEqualCredits,
                    "\(b.user) has \(b.coins) coins, credits sum to \(owed)"
                        + (taken == 0 ? "" : ", less \(taken) spent or clawed back"))
            }
            let clawed = debits.reduce(0) { $1.user == b.user && $1.clawedBackFor != nil ? $0 + $1.coins : $0 }
            if b.coins < -clawed {
                breach(.debtOnlyFromClawbacks, "\(b.user) owes \(-b.coins) coins, \(clawed) were clawed back")
            }
        }
        for d in debits {
            guard let txn = d.clawedBackFor, d.user == debits.first(where: { $0.clawedBackFor == txn })?.user else {
                continue
            }
            let given = credits.reduce(0) { $1.transactionId == txn ? $0 + $1.coins : $0 }
            let back = debits.reduce(0) { $1.clawedBackFor == txn ? $0 + $1.coins : $0 }
            if back > given {
                breach(.clawbacksWithinCredits, "\(back) coins clawed back for \(txn), \(given) credited")
            }
        }
        for c in credits where !balances.contains(where: { $0.user == c.user }) {
            breach(.balancesEqualCredits, "\(c.user) was credited \(c.transactionId) but has no balance")
        }
    }

    func checkTransactions(_ finished: inout [Bool], _ breach: Breach) {
        let transactions = store.transactions
        var ids = Set<String>()
        ids.reserveCapacity(transactions.count)
        for (i, t) in transactions.enumerated() {
            if !ids.insert(t.id).inserted {
                breach(.transactionIdsUnique, "\(t.id) appears twice")
            }
            if i < finished.count, finished[i], !t.finished {
                breach(.finishedStaysFinished, "\(t.id) is \(t.state.rawValue) and unfinished again")
            }
            if t.finished, t.state == .purchasing || t.state == .deferred {
                breach(.finishedIsSettled, "\(t.id) is finished while \(t.state.rawValue)")
            }
            if (t.state == .purchased) != (t.chargedAt != nil) {
                breach(
                    .chargedIsPurchased,
                    "\(t.id) is \(t.state.rawValue), charged at \(t.chargedAt.map(String.init) ?? "never")")
            }
            if i < finished.count { finished[i] = t.finished } else { finished.append(t.finished) }
        }
    }

    /// A timeout that came due while the app was in the background waits in `app.parked`
    /// and runs at `foreground`: it still counts.
    func checkRequestsInFlight(_ breach: Breach) {
        let actions = outbox.pending
        for e in app.inFlight.entries {
            let timeout = Action.appRequestTimeout(exchange: e.key, incarnation: app.incarnation)
            guard !actions.contains(timeout), !app.parked.contains(timeout) else { continue }
            breach(.requestsHaveTimeouts, "app exchange \(e.key) waits with no timeout")
        }
        for e in server.verifying.entries where !actions.contains(.serverVerifyTimeout(exchange: e.key)) {
            breach(.requestsHaveTimeouts, "server verification \(e.key) waits with no timeout")
        }
        // A notification being delivered waits for its answer's check or for its retry.
        for d in store.notifications
        where !actions.contains(.storeNotifyCheck(exchange: d.exchange))
            && !actions.contains(.storeNotifyRetry(exchange: d.exchange))
        {
            breach(.requestsHaveTimeouts, "notification \(d.notification.uuid) waits with no retry")
        }
    }

    func checkCredits(since checked: Int, _ breach: Breach) {
        let credits = server.credits
        for (k, c) in credits.enumerated() {
            // A forged JWS a server believed is the verdict's replay fraud, not a broken world.
            if c.signed?.signer != .forger,
                !store.transactions.contains(where: { $0.id == c.transactionId && $0.chargedAt != nil })
            {
                breach(.creditsWerePaid, "\(c.transactionId) credited to \(c.user), never charged")
            }
            if k >= checked, policy.serverDedup,
                credits[..<k].contains(where: { $0.transactionId == c.transactionId })
            {
                breach(.creditedOnceUnderDedup, "\(c.transactionId) credited again to \(c.user)")
            }
        }
        for o in server.orders where (o.state == .credited) != (o.transactionId != nil) {
            breach(
                .ordersMatchCredits, "order \(o.id) is \(o.state.rawValue), transaction \(o.transactionId ?? "none")")
        }
    }
}
