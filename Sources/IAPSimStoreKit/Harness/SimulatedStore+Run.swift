import Foundation
import IAPSimCore

/// Your app's process (launch, crash, background) and the passage of virtual time.
extension SimulatedStore {
    /// Launches your app: runs `make` (your app's factory) as the process's first code and
    /// returns what it made, once the tasks it started are idle. StoreKit emits the unfinished
    /// transactions to a `Transaction.updates` listener started by then, once.
    ///
    /// A launch while your app runs crashes it first. `make` may be called again by
    /// `perform("launch")`.
    @discardableResult
    public func launch<App: Sendable>(_ make: @escaping @Sendable () -> App) async -> App {
        record(.launch)
        defer { recorded() }
        if locked({ app.running }) { await crash() }
        let process = locked {
            factory = { make() }
            incarnation += 1
            app.running = true
            launching = true
            _ = sim.apply(.launch)
            return incarnation
        }
        let made = SimulatedStore.$launchedStore.withValue(self) {
            SimulatedStore.$callerIncarnation.withValue(process) { make() }
        }
        await quiesce(launch: true)
        locked { launching = false }
        await runWorld(until: locked { sim.now })
        locked { lastMade = made }
        return made
    }

    /// Kills your app's process: every purchase call, listener, request and sleep it waits
    /// on ends (calls of its tasks are refused from now on), and the store keeps no object of
    /// it. The keychain and files (`storage`) stay, as does what the App Store and the
    /// merchant server know. `launch` builds the app again.
    public func crash() async {
        record(.crash)
        defer { recorded() }
        let dropped = locked { () -> AppState.Dropped in
            guard app.running else { return AppState.Dropped() }
            _ = sim.apply(.crash)
            sim.drivenForget()
            incarnation += 1
            app.running = false
            debts = Debts()
            releaseSlots(keeping: nil)
            storage.dropMemory()
            return app.dropAll()
        }
        dropped.resume()
        await quiesce()
    }

    /// The app goes to the background: StoreKit's news and the answers to its requests wait
    /// for the foreground (docs/world.md).
    public func background() async {
        record(.background)
        defer { recorded() }
        locked { _ = sim.apply(.background) }
        await quiesce()
    }

    /// The app comes back to the foreground: what waited is handed over now.
    public func foreground() async {
        record(.foreground)
        defer { recorded() }
        locked { _ = sim.apply(.foreground) }
        await runWorld(until: locked { sim.now })
    }

    /// Lets virtual time run for `duration`: the world's events and your app's reactions to
    /// them, in order, and your app's sleeps on `clock` that end meanwhile.
    public func advance(by duration: Duration) async {
        record(.advance(Int(milliseconds(duration))))
        defer { recorded() }
        let target = locked { sim.now } + VirtualTime(milliseconds(duration))
        await runWorld(until: target)
    }

    /// Runs until nothing is scheduled (bounded at 24 hours of virtual time, as iapsim's
    /// `settle`): every message delivered or lost, every retry and notification done, your
    /// app idle. A sleep of your app on `clock` keeps it running until the bound.
    public func settle() async {
        record(.settle)
        defer { recorded() }
        await runWorld(until: nil)
    }

    func milliseconds(_ d: Duration) -> Int64 {
        let (s, atto) = d.components
        return s * 1000 + atto / 1_000_000_000_000_000
    }

    /// Steps the world one event at a time, handing what reached your app to its tasks and
    /// waiting for them after each; `limit` nil: until nothing is scheduled (24 h bound).
    func runWorld(until limit: VirtualTime?) async {
        let bound = limit ?? (locked { sim.now } + 24 * 3_600_000)
        await quiesce()
        while true {
            if let handed = locked({ owing(takeEvents()) }), !handed.isEmpty {
                handed.resume()
                await quiesce()
                continue
            }
            let moved = await worldWork { () -> AppState.Dropped? in
                let world = self.sim.nextEventTime.flatMap { t -> VirtualTime? in
                    if limit == nil && self.sim.onlyClocksScheduled { return nil }
                    return t <= bound ? t : nil
                }
                let timer = self.app.nextDeadline.flatMap { $0 <= bound ? $0 : nil }
                switch (world, timer) {
                case (nil, nil):
                    return nil
                case (let w?, let t?) where t < w:
                    self.sim.run(until: t)
                    return self.owing(self.app.wakeSleepers(upTo: t))
                case (nil, let t?):
                    self.sim.run(until: t)
                    return self.owing(self.app.wakeSleepers(upTo: t))
                case (.some, _):
                    var none: [LogEntry]?
                    self.sim.step(into: &none)
                    return AppState.Dropped()
                }
            }
            guard let moved else { break }
            // An event that handed nothing to your app needs no wait for it.
            guard !moved.isEmpty else { continue }
            moved.resume()
            await quiesce()
        }
        if let limit { await worldWork { if self.sim.now < limit { self.sim.run(until: limit) } } }
    }

    /// Counts the tasks `handed` resumes as owed (under the lock).
    func owing(_ handed: AppState.Dropped?) -> AppState.Dropped? {
        for task in handed?.owes ?? [] { debts.owe(task) }
        return handed
    }

    /// Waits until your app's tasks stand still: every task the store resumed waits on it
    /// again (or ended), then no call comes for two rounds of a few turns of the executor;
    /// after a launch (`launch`) the second round also lasts `quietPeriod` of wall time, since the tasks a launch starts are
    /// not known. A task owed for `stallLimit` without any call is taken for ended. It waits
    /// suspended, not spinning: your app's tasks get the cores.
    func quiesce(launch: Bool = false) async {
        while true {
            if locked({ debts.count }) > 0 {
                if await !waitForPayment() {
                    locked {
                        debts = Debts()
                        stalls += 1
                    }
                }
                continue
            }
            // Idle means no call through two rounds in a row: a round is a few turns of the
            // executor; after a launch the second round also waits `quietPeriod` of wall time
            // (a task the launch started that the first round's turns did not reach, or that
            // the machine descheduled, gets it to call; one that calls starts both rounds over).
            var stable = true
            for round in 0..<2 {
                let before = locked { activity }
                if launch, round == 1 { try? await Task.sleep(for: quietPeriod) }
                for _ in 0..<4 { await Task.yield() }
                let (after, owed) = locked { (activity, debts.count) }
                if after != before || owed != 0 {
                    stable = false
                    break
                }
            }
            if stable { return }
        }
    }

    /// Suspends until a task pays a debt (true) or `stallLimit` passes without one (false).
    func waitForPayment() async -> Bool {
        await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            let round: Int? = locked {
                guard debts.count > 0 else { return nil }
                paymentWaiter = c
                paymentRound += 1
                return paymentRound
            }
            guard let round else { return c.resume(returning: true) }
            let limit = stallLimit
            let timer = Task {
                try? await Task.sleep(for: limit)
                self.locked {
                    guard self.paymentRound == round, let w = self.paymentWaiter else { return }
                    self.paymentWaiter = nil
                    w.resume(returning: false)
                }
            }
            locked { if paymentRound == round, paymentWaiter != nil { stallTimer = timer } else { timer.cancel() } }
        }
    }

    /// Hands what the world queued for your app to the waiting calls (under the lock).
    func takeEvents() -> AppState.Dropped? {
        let events = sim.takeDrivenEvents()
        let revoked = revocations()
        guard !events.isEmpty else { return revoked }
        var handed = revoked ?? AppState.Dropped()
        for event in events {
            switch event {
            case .purchaseReturned(let txn, let result):
                guard let k = app.purchases.firstIndex(where: { $0.txn == txn }) else { continue }
                let call = app.purchases.remove(at: k)
                let outcome = purchaseOutcome(txn: txn, result)
                handed.actions.append { call.continuation.resume(with: outcome) }
                handed.owes.append(call.task)
            case .updates(let txns):
                let values = txns.compactMap { verification(of: $0) }
                let emitted = app.emit(values)
                handed.actions += emitted.actions
                handed.owes += emitted.owes
            case .answered(let exchange, let payload):
                guard let k = app.loads.firstIndex(where: { $0.exchange == exchange }) else { continue }
                let load = app.loads.remove(at: k).load
                let answer = HTTPAnswer(payload, routes: merchantRoutes)
                handed.actions.append { load.answer(answer) }
                handed.owes.append(nil)
            case .failed(let exchange, let why):
                guard let k = app.loads.firstIndex(where: { $0.exchange == exchange }) else { continue }
                let load = app.loads.remove(at: k).load
                let offline = why.contains("offline")
                handed.actions.append { load.fail(URLError(offline ? .notConnectedToInternet : .timedOut)) }
                handed.owes.append(nil)
            }
        }
        return handed
    }
}
