import Foundation
import IAPSimCore
import IAPSimScenario

/// The user's actions, the scenario vocabulary's faults and attacks, and the verdict.
extension SimulatedStore {
    /// The user does something in your app: runs `action` as a task of your app's process
    /// and returns once your app waits on the store. Let time run (`settle()`) for it to
    /// finish; its result is the task's `value`.
    ///
    /// A purchase call waits for the App Store, which answers only while virtual time runs:
    /// awaiting your app's `buy()` in the test itself, before `settle()`, would wait forever.
    ///
    /// `verdict()` cannot replay this action (it holds an app object of one process): use
    /// `user(_:_:)` for a verdict with its what-if lines.
    @discardableResult
    public func user<T: Sendable>(_ action: @escaping @Sendable () async throws -> T) async -> Task<T, Error> {
        record(.action)
        defer { recorded() }
        let process = locked {
            debts.owe(nil)
            return incarnation
        }
        let task = SimulatedStore.$launchedStore.withValue(self) {
            SimulatedStore.$callerIncarnation.withValue(process) {
                Task {
                    let me = currentTaskID()
                    self.locked { if self.incarnation == process, let me { self.debts.named(me) } }
                    // The action ended: it is owed no more, unless its process died meanwhile
                    // (a crash forgave every debt of that process).
                    defer { self.locked { if self.incarnation == process { self.blocked(me) } } }
                    return try await action()
                }
            }
        }
        await quiesce()
        await runWorld(until: locked { sim.now })
        return task
    }

    /// The user does something in `app`, the app of the last `launch`: as `user(_:)`, with
    /// the app handed to `action`, so that `verdict()`'s replays can do the same in the app
    /// each replay launched: `await store.user(app) { try await $0.buy("coins_100") }`.
    @discardableResult
    public func user<App: Sendable, T: Sendable>(
        _ app: App, _ action: @escaping @Sendable (App) async throws -> T
    ) async -> Task<T, Error> {
        record(.user { made in if let a = made as? App { _ = try await action(a) } })
        defer { recorded() }
        return await user { try await action(app) }
    }

    /// Performs one line of iapsim's scenario vocabulary (docs/scenario-format.md) at the
    /// current virtual time: a fault (`drop-next-response recharge`, `interrupt-next-payment`,
    /// `network off`), an attack (`replay`, `forge coins_100`), Apple's side (`refund newest`,
    /// `approve`), the app's life (`crash`, `launch`, `background`, `foreground`) or time
    /// (`wait 5s`, `settle`). `buy` is your app's: call your app's own code instead. A
    /// fault's route may be named as your `serve.yaml` names it (`MerchantRoutes(baseURL:
    /// serveConfig:)`): its path (`/v2/apple-receipts`), the path's last part
    /// (`apple-receipts`) or its key (`report`) for `recharge`, and likewise for `order`.
    public func perform(_ line: String) async throws {
        let command: Command
        do {
            command = try parser.parse(routes.coreWords(line))
        } catch {
            throw SimulatedStoreError.badCommand("\(line): \(error)")
        }
        record(.perform(line, command))
        defer { recorded() }
        switch command {
        case .crash: await crash()
        case .launch: try await relaunch()
        case .background: await background()
        case .foreground: await foreground()
        case .wait(let ms): await advance(by: .milliseconds(ms))
        case .settle: await settle()
        case .buy: throw SimulatedStoreError.buyIsTheAppsJob
        case .openStore, .closeStore, .uninstall, .login, .logout, .network, .networkFault, .storeFault, .askToBuy,
            .approve, .decline, .replay, .forge, .serverOutage, .serverAPIFault, .refundLoop, .spend, .subscription,
            .heal, .setPolicy, .setPreset:
            let refusal = await worldWork { () -> String? in
                if let why = self.sim.refusal(of: command) { return why }
                _ = self.sim.apply(command)
                return nil
            }
            if let refusal { throw SimulatedStoreError.refused(refusal) }
            await runWorld(until: locked { sim.now })
        }
    }

    /// Launches your app again with the factory of the last `launch`.
    func relaunch() async throws {
        guard let make = locked({ factory }) else { throw SimulatedStoreError.noApp }
        _ = await launch { make() }
    }

    /// Ends every fault, relaunches and foregrounds your app: what explore does before it
    /// settles (iapsim's `heal`).
    public func heal() async throws {
        record(.heal)
        defer { recorded() }
        if !locked({ app.running }) { try await relaunch() }
        if locked({ sim.app.inBackground }) { await foreground() }
        await worldWork { _ = self.sim.heal() }
        await runWorld(until: locked { sim.now })
    }
}

/// The auditor's findings: anomalies (with their cause) and the money either side lost.
public struct Verdict: Sendable, Hashable, CustomStringConvertible {
    /// One finding about one charge (docs/world.md, "The auditor").
    public struct Anomaly: Sendable, Hashable {
        /// `lost-order`, `missed-order`, `double-credit`, `wrong-account`, `replay-fraud`,
        /// `refund-unclawed`, ... (docs/world.md's table).
        public let type: String
        /// `open`, `resolved`, `permanent` or `blocked`.
        public let status: String
        /// How it happened, in the auditor's words, when it knows.
        public let cause: String?
        /// One line: the charge, who paid, what went wrong.
        public let summary: String
        /// The App Store transaction it is about.
        public let transactionID: String?
        /// The account that paid.
        public let user: String?
        /// Whether it is still wrong (open or permanent).
        public let isUnresolved: Bool
        /// `caused by: step 1: drop-next-response recharge`: the fewest of the run's injected
        /// inputs (faults, account switches, attacks, refunds) without which it does not open,
        /// as `iapsim run` prints it; nil when the what-if was not worked out.
        public let causedBy: String?
        /// `prevented by: server-dedup true`: the server settings (one or two) after which it
        /// ends well (or, put right by no setting, never happens) and nothing new goes wrong;
        /// nil when a setting in effect resolved it or the what-if was not worked out.
        public let preventedBy: String?
        /// `resolved by: server-dedup true`: for one that ended well, the server settings in
        /// effect without which it would have ended badly; nil when none.
        public let savedBy: String?
    }

    /// Every anomaly the auditor opened, resolved ones included, oldest first.
    public let anomalies: [Anomaly]
    /// What customers paid and did not get, in cents.
    public let paidNotDeliveredCents: Int
    /// What the merchant granted without payment, in cents.
    public let grantedWithoutPaymentCents: Int
    /// Each account's balance on the merchant server.
    public let balances: [String: Int]
    /// What the other preset's server (`sk2-naive` beside `.hardened` and `.appDependent`,
    /// `sk2-hardened` beside `.naive`) would have let end badly and this one did not, with the
    /// settings that saved it: `lost-order o1, by server-reconcile 1h`, as `run`'s `avoided`.
    public let avoided: [String]
    /// The verdict as `iapsim run` prints it, its what-if lines under each anomaly (or why
    /// they were not worked out).
    public let lines: [String]

    /// The anomalies still wrong.
    public var unresolved: [Anomaly] { anomalies.filter(\.isUnresolved) }

    /// True when nothing is wrong: no unresolved anomaly, no money lost either side.
    public var isClean: Bool {
        unresolved.isEmpty && paidNotDeliveredCents == 0 && grantedWithoutPaymentCents == 0 && backendFailure == nil
    }

    /// With your backend as the merchant server (`ServedBackend`): why the run could not be
    /// judged (the backend stopped answering, its ledger could not be read), else nil. A
    /// verdict with one is never clean.
    public let backendFailure: String?

    /// `lines`, one a line.
    public var description: String { lines.joined(separator: "\n") }

    init(_ sim: Simulation, whatIf: WhatIfReport? = nil, backendFailure: String? = nil) {
        self.backendFailure = backendFailure
        let auditor = sim.auditor
        anomalies = auditor.anomalies.map { a in
            let x = whatIf?.explanation(of: a.id)
            let account = x?.account
            return Anomaly(
                type: a.type.rawValue, status: a.status.rawValue, cause: a.mechanism, summary: a.summary,
                transactionID: a.txn, user: a.user, isUnresolved: a.status.isUnresolved, causedBy: x?.causedByLine,
                preventedBy: account?.fix == .prevented ? account?.line : nil,
                savedBy: account?.fix == .resolved ? account?.line : nil)
        }
        avoided = whatIf?.avoided.map(\.line) ?? []
        paidNotDeliveredCents = auditor.paidNotDeliveredCents
        grantedWithoutPaymentCents = auditor.grantedNotPaidCents
        var b: [String: Int] = [:]
        for user in sim.users { b[user] = sim.server.balance(of: user) }
        balances = b
        var lines = ["== verdict"]
        if let backendFailure { lines.append("not judged: your backend: " + backendFailure) }
        let other = whatIf.flatMap { w in PolicyPreset.allCases.first { $0.policy == w.other }?.rawValue }
        lines += Transcript.anomalyLines(sim, whatIf: whatIf, otherName: other ?? "the other policy")
        lines.append("balances: " + sim.users.map { "\($0) \(sim.server.balance(of: $0))" }.joined(separator: ", "))
        lines.append(
            "money: paid and not delivered \(formatMoney(paidNotDeliveredCents)); "
                + "granted without payment \(formatMoney(grantedWithoutPaymentCents))")
        lines.append("queue: \(sim.store.queue.count) unfinished transaction(s)")
        self.lines = lines
    }
}
