import Testing

@testable import IAPSimCore

/// The indexes beside the long lists (transactions, orders, credits, the app's tickets) give
/// what a search from the start gave, before and after their lists pass the indexing
/// threshold and after removals; the bounded histories keep exact totals.
@Suite struct ScaleTests {
    /// More purchases than `KeyPositions.threshold`, with a crash in the middle (the app's
    /// tickets are emptied) and some purchases left unfinished (an outage at the end).
    static func busyWorld(_ preset: PolicyPreset, purchases: Int = 40) -> Harness {
        var h = Harness(preset, users: ["alice"])
        for i in 0..<purchases {
            if i == purchases / 2 { h.run(.crash, .launch) }
            if i == purchases - 5 { h.run(.storeOutage(on: true)) }
            h.run(.buy(product: i % 7 == 0 ? "no_ads" : "coins_550"), .wait(60_000))
        }
        return h
    }

    @Test func keyPositionsFindWhatAScanFinds() {
        var list: [String] = []
        var index = KeyPositions<String>()
        func check() {
            for key in Set(list + ["missing"]) {
                #expect(
                    index.firstIndex(of: key, count: list.count) { list.firstIndex(of: key) }
                        == list.firstIndex(of: key), "\(key) in \(list.count)")
            }
        }
        for round in 0..<2 {
            for i in 0..<(3 * KeyPositions<String>.threshold) {
                list.append("k\(i % 11)")  // repeated keys: the first position counts
                index.appended(to: list) { $0 }
                check()
            }
            list.removeAll()
            if round == 0 { index.removeAll() }  // the second round: emptied behind its back
            check()
        }
        list.append("behind its back")
        check()
    }

    @Test(arguments: [PolicyPreset.hardened, .naive])
    func transactionLookupsMatchTheScan(_ preset: PolicyPreset) {
        let store = Self.busyWorld(preset).sim.store
        #expect(store.transactions.count > KeyPositions<String>.threshold)
        for (i, t) in store.transactions.enumerated() {
            #expect(store.index(of: t.id) == i)
        }
        #expect(store.index(of: "1") == nil)
        #expect(store.queue.map(\.id) == store.transactions.filter { !$0.finished }.map(\.id))
        #expect(store.firstUnfinished?.id == store.transactions.first { !$0.finished }?.id)
        #expect(
            store.redeliverable
                == store.transactions.filter {
                    !$0.finished && [.purchased, .failed, .restored].contains($0.state)
                }.map(\.id))
    }

    /// The auditor remembers where each waiting charge's transaction is in the store's long
    /// list: a position unknown, wrong or past the end gives the lookup's answer and is
    /// corrected; an unfinished purchase can always still be credited.
    @Test(arguments: [PolicyPreset.hardened, .naive])
    func aRememberedStorePositionGivesWhatALookupGives(_ preset: PolicyPreset) {
        let sim = Self.busyWorld(preset).sim
        let transactions = sim.store.transactions
        #expect(transactions.count > KeyPositions<String>.threshold)
        let waiting = transactions.contains { !$0.finished && $0.state == .purchased }
        #expect(waiting == (preset == .hardened), "the outage leaves hardened's last purchases waiting")
        for (i, t) in transactions.enumerated() {
            let answers = [nil, (i + 1) % transactions.count, transactions.count + 3].map { start -> Bool in
                var position: Int? = start
                let alive = RecoveryView.canStillCredit(
                    t.id, storePosition: &position, store: sim.store, app: sim.app, server: sim.server,
                    policy: sim.policy)
                #expect(position == i, "\(t.id) from \(String(describing: start))")
                return alive
            }
            #expect(Set(answers).count == 1, "\(t.id)")
            if !t.finished && t.state == .purchased { #expect(answers[0], "\(t.id)") }
        }
    }

    @Test func theReceiptListsWhatAScanOfEveryTransactionLists() {
        var store = Self.busyWorld(.hardened).sim.store
        #expect(store.open.count < store.transactions.count, "finished consumables left the list")
        let viaOpen = store.receiptNow
        store.openCovers = -1  // as if changed behind its back: every transaction is looked at
        #expect(store.receiptNow == viaOpen)
        #expect(viaOpen.contains { $0.productId == "no_ads" } && viaOpen.contains { $0.productId == "coins_550" })
    }

    @Test func orderAndCreditLookupsMatchTheScan() {
        let server = Self.busyWorld(.hardened).sim.server
        #expect(server.orders.count > KeyPositions<String>.threshold)
        #expect(server.credits.count > KeyPositions<String>.threshold)
        for o in server.orders {
            #expect(server.order(o.id) == server.orders.first { $0.id == o.id })
            #expect(server.order(token: o.token) == server.orders.first { $0.token == o.token })
        }
        #expect(server.order("o0") == nil && server.order(token: "no such token") == nil)
        let store = Self.busyWorld(.hardened).sim.store
        for t in store.transactions {
            #expect(server.isCredited(t.id) == server.credits.contains { $0.transactionId == t.id })
        }
    }

    @Test func theAuditorsChargeLookupsMatchTheScan() {
        let ledger = Self.busyWorld(.hardened).sim.auditor.ledger
        #expect(ledger.charges.count > KeyPositions<String>.threshold)
        for c in ledger.charges {
            #expect(ledger.index(of: c.txn) == ledger.charges.firstIndex { $0.txn == c.txn })
        }
        #expect(ledger.index(of: "no such transaction") == nil)
    }

    @Test func ticketLookupsMatchTheScanAfterACrashEmptiedThem() {
        var h = Self.busyWorld(.hardened)
        func check(_ app: AppProcess) {
            for t in app.tickets {
                #expect(app.ticketIndex(token: t.token) == app.tickets.firstIndex { $0.token == t.token })
                #expect(app.ticketIndex(id: t.id) == app.tickets.firstIndex { $0.id == t.id })
            }
            #expect(app.ticketIndex(token: "none") == nil && app.ticketIndex(id: "none") == nil)
        }
        #expect(h.sim.app.tickets.count > KeyPositions<String>.threshold)
        check(h.sim.app)
        h.run(.crash, .launch, .buy(product: "coins_550"))
        h.settle()
        #expect(h.sim.app.tickets.count == 1)
        check(h.sim.app)
    }

    @Test func aBoundedLogKeepsExactTotals() {
        let limit = 50
        var bounded = Simulation(WorldConfig(users: ["alice"], logLimit: limit))
        var whole = Simulation(WorldConfig(users: ["alice"]))
        for _ in 0..<30 {
            bounded.apply(.buy(product: "coins_550"))
            whole.apply(.buy(product: "coins_550"))
            bounded.apply(.wait(60_000))
            whole.apply(.wait(60_000))
        }
        #expect(whole.log.count > 4 * limit)
        #expect(bounded.log.count <= 2 * limit)
        #expect(bounded.logCount == whole.logCount && whole.logCount == whole.log.count)
        #expect(Array(bounded.log) == Array(whole.log.suffix(bounded.log.count)))
        #expect(bounded.network.history.count <= 2 * bounded.network.recentLimit)
        let sent = whole.log.filter { if case .messageSent = $0.fact { true } else { false } }.count
        #expect(Route.allCases.map { bounded.network.totals(for: $0).messages }.reduce(0, +) == sent)
    }

    @Test func aReportBuiltRunByRunEqualsOneBuiltFromEveryOutcome() {
        let explorer = Explorer(policy: PolicyPreset.naive.policy, seed: 3)
        let outcomes = (0..<60).map(explorer.run)
        var odd = ExploreReport(), even = ExploreReport()
        for o in outcomes.reversed() { if o.index % 2 == 0 { even.add(o) } else { odd.add(o) } }
        even.merge(odd)
        #expect(even == ExploreReport(outcomes))
        for (type, first) in even.firstFailure {
            #expect(first.index == outcomes.filter { $0.failures.contains(type) }.map(\.index).min())
        }
        #expect(!even.firstFailure.isEmpty, "naive runs fail: the first failure is compared")
        // The candidates to shrink: each type's four lowest failing indices, whatever the order
        // of the runs and however they were split (7 reports, as 7 shards, merged in reverse).
        var shards = Array(repeating: ExploreReport(), count: 7)
        for o in outcomes.shuffled() { shards[o.index % 7].add(o) }
        var merged = ExploreReport()
        for shard in shards.reversed() { merged.merge(shard) }
        #expect(merged == even)
        for (type, runs) in even.candidates {
            let failing = outcomes.filter { $0.failures.contains(type) }.map(\.index).sorted()
            #expect(runs.map(\.index) == Array(failing.prefix(ExploreReport.candidateCount)), "\(type)")
        }
        #expect(even.candidates.values.contains { $0.count == ExploreReport.candidateCount })
    }
}
