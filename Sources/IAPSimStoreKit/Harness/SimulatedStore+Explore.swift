import Foundation
import IAPSimCore

/// Explore: random schedules of the user's action and faults around your app, each run
/// judged by the auditor; a failing run is shrunk to a short reproduction.
extension SimulatedStore {
    /// The faults explore draws from, in the scenario vocabulary; with more than one account,
    /// also `logout` and `login` of the second.
    public var exploreFaults: [String] {
        let users = locked { sim.users }
        return Self.faults + (users.count > 1 ? ["logout", "login \(users[1])"] : [])
    }

    static let faults = [
        "drop-next-request order", "drop-next-response order", "drop-next-request recharge",
        "drop-next-response recharge", "crash", "interrupt-next-payment", "fail-next-payment network",
        "fail-next-payment cancelled", "network off", "network on", "background", "foreground",
        "ask-to-buy on", "wait 5s", "wait 40s",
    ]

    /// Runs `runs` worlds, each from its own seed derived from `seed`: your app is launched
    /// with the factory of the last `launch`, and a schedule of 1 to `maxSteps` steps is
    /// played, each `buy` (running `user` on the app of the moment, as `user(_:)` does) or a
    /// fault of `exploreFaults`; then every fault ends (`heal()`), the world settles, your
    /// app is launched once more (the user opens it again: what it recovers at launch
    /// counts) and the world settles again, and
    /// the run fails when the verdict has an unresolved anomaly or lost money. The first
    /// failing run is shrunk: steps are removed while the same type of anomaly remains.
    ///
    /// `stopAfter`: end after that many failing runs (nil: play every run).
    ///
    /// `swarm`: each run draws its own weight for each family of faults (`ExploreSwarm`), as
    /// `iapsim explore --swarm on` does: some runs are all crashes, some all network faults,
    /// some none of either. Off (the default), every run draws the schedules of before swarm.
    ///
    /// The store is left in the state of the last world it played.
    public func explore<App: Sendable>(
        runs: Int, seed: UInt64, maxSteps: Int = 6, stopAfter failures: Int? = nil, swarm: Bool = false,
        as appType: App.Type = App.self, user: @escaping @Sendable (App) async throws -> Void
    ) async throws -> ExploreReport {
        guard locked({ factory }) != nil else { throw SimulatedStoreError.noApp }
        let root = SplitMix64(seed: seed)
        var failed = 0, unconfirmed = 0
        var first: ExploreFailure?
        var played = 0
        for run in 0..<runs {
            if let failures, failed >= failures { break }
            played += 1
            var rng = root.derive("run \(run)")
            let runSeed = rng.next()
            let weights = swarm ? ExploreSwarm.draw(root, run: run) : nil
            let steps = Self.schedule(&rng, maxSteps: maxSteps, faults: exploreFaults, swarm: weights)
            let verdict = try await play(steps, seed: runSeed, as: appType, user: user)
            guard !verdict.isClean else { continue }
            // A failure counts when it reproduces: the same steps and seed fail again. One
            // that does not depended on wall time (a task of your app the store took for idle
            // while the machine had it descheduled) and is counted apart.
            guard try await !play(steps, seed: runSeed, as: appType, user: user).isClean else {
                unconfirmed += 1
                continue
            }
            failed += 1
            if first == nil {
                let shrunk = try await shrink(steps, seed: runSeed, verdict: verdict, as: appType, user: user)
                // The reproduction once more, explained: caused by, prevented by, saved by.
                _ = try await play(shrunk.steps, seed: runSeed, as: appType, user: user)
                first = ExploreFailure(
                    run: run, seed: runSeed, steps: steps, reproduction: shrunk.steps, verdict: await self.verdict())
            }
        }
        return ExploreReport(
            runs: played, seed: seed, failedRuns: failed, unconfirmedRuns: unconfirmed, firstFailure: first)
    }

    /// Plays `steps` in a new world of `seed` (the same as a run of `explore`): launch, the
    /// steps, heal, settle, relaunch, settle; returns the verdict without its what-if lines
    /// (`verdict()` adds them, replaying these steps). Replays a failure's `reproduction`.
    public func play<App: Sendable>(
        _ steps: [String], seed: UInt64, as appType: App.Type = App.self,
        user: @escaping @Sendable (App) async throws -> Void
    ) async throws -> Verdict {
        guard let make = locked({ factory }) else { throw SimulatedStoreError.noApp }
        try await restart(seed: seed)
        locked {
            player = { made in
                guard let a = made as? App else { return }
                try await user(a)
            }
        }
        await launch { make() }
        for step in steps {
            switch step {
            case "buy": await playBuy()
            case "launch": await launch { make() }
            default:
                do { try await perform(step) } catch SimulatedStoreError.refused { continue }
            }
        }
        locked { hidingInputs = true }
        defer { locked { hidingInputs = false } }
        try await heal()
        await settle()
        // The user opens the app again later: what it recovers at a launch counts.
        try await relaunch()
        await settle()
        return await judged()
    }

    /// A `buy` of `play`: the user's action on the app of the last launch, if it runs.
    func playBuy() async {
        record(.buy)
        defer { recorded() }
        let action = locked { () -> (@Sendable () async throws -> Void)? in
            guard app.running, let p = player, let a = lastMade else { return nil }
            return { try await p(a) }
        }
        if let action { await user { try await action() } }
    }

    /// A new world of `seed`: your app's process, its storage and what the world knew are gone.
    func restart(seed: UInt64, config given: WorldConfig? = nil) async throws {
        await crash()
        locked {
            var config = given ?? sim.config
            config.seed = seed
            sim = Simulation(config)
            sim.attachDrivenApp()
            signedByJWS = [:]
            revokedEmitted = []
            app = AppState()
            inputs = []
            lastMade = nil
        }
        storage.clear()
        try attachBackend()
    }

    /// A schedule: at least one `buy`; a crash is followed by a launch before the next buy;
    /// `ask-to-buy on` is an episode: a buy, a wait, the parent's approval.
    /// With `swarm`, a fault of a family the run weighs down is sometimes drawn again, a run may
    /// be up to twice as long, and its share of buys is its own; without it, the draws are
    /// exactly those from before swarm.
    static func schedule(
        _ rng: inout SplitMix64, maxSteps: Int, faults: [String], swarm: ExploreSwarm? = nil
    ) -> [String] {
        let count = 1 + rng.below(max(1, maxSteps * (swarm?.lengthFactor ?? 1)))
        var steps: [String] = []
        var down = false
        func buy(_ rng: inout SplitMix64) {
            if down {
                steps.append("launch")
                down = false
            }
            steps.append("buy")
        }
        for _ in 0..<count {
            if rng.below(swarm?.buyOneIn ?? 3) == 0 {
                buy(&rng)
            } else {
                var fault = faults[rng.below(faults.count)]
                if let swarm { fault = swarm.redraw(fault, from: faults, &rng) }
                if fault == "crash" {
                    if down { continue }
                    down = true
                }
                steps.append(fault)
                if fault == "ask-to-buy on" {
                    buy(&rng)
                    steps += ["wait \(1 + rng.below(20))s", "approve"]
                }
            }
            if rng.below(2) == 0 { steps.append("wait \(1 + rng.below(20))s") }
        }
        if !steps.contains("buy") {
            if down { steps.append("launch") }
            steps.append("buy")
        }
        return steps
    }

    /// Removes steps while the run still ends with an unresolved anomaly of the same type
    /// (or the same kind of lost money when there is none).
    func shrink<App: Sendable>(
        _ steps: [String], seed: UInt64, verdict: Verdict, as appType: App.Type,
        user: @escaping @Sendable (App) async throws -> Void
    ) async throws -> (steps: [String], verdict: Verdict) {
        let key = Self.failureKey(verdict)
        var best = (steps: steps, verdict: verdict)
        var progress = true
        while progress {
            progress = false
            var i = best.steps.count - 1
            while i >= 0 {
                var fewer = best.steps
                fewer.remove(at: i)
                if fewer.contains("buy") {
                    let v = try await play(fewer, seed: seed, as: appType, user: user)
                    if Self.failureKey(v) == key {
                        best = (fewer, v)
                        progress = true
                    }
                }
                i -= 1
            }
        }
        return best
    }

    static func failureKey(_ v: Verdict) -> String {
        if let a = v.unresolved.first { return a.type }
        if v.paidNotDeliveredCents > 0 { return "paid-not-delivered" }
        if v.grantedWithoutPaymentCents > 0 { return "granted-without-payment" }
        return ""
    }
}

/// What `explore` found.
public struct ExploreReport: Sendable, CustomStringConvertible {
    /// How many runs were played.
    public let runs: Int
    /// The seed the runs' seeds derive from.
    public let seed: UInt64
    /// How many runs ended with an unresolved anomaly or lost money.
    public let failedRuns: Int
    /// Runs that failed once and passed when played again with the same steps and seed: their
    /// outcome depended on wall time, not on your app's logic (not counted as failed).
    public let unconfirmedRuns: Int
    /// The first failing run, shrunk.
    public let firstFailure: ExploreFailure?

    /// True when no run failed.
    public var passed: Bool { failedRuns == 0 }

    /// The report as a test prints it: the count, then the first failure shrunk.
    public var description: String {
        var lines = [
            "explore: \(runs) run(s) from seed \(seed), \(failedRuns) failed"
                + (unconfirmedRuns > 0 ? ", \(unconfirmedRuns) failed once and passed when played again" : "")
        ]
        if let f = firstFailure { lines += f.lines }
        return lines.joined(separator: "\n")
    }
}

/// A failing run of `explore` and its shrunk reproduction.
public struct ExploreFailure: Sendable {
    /// The run's number and its world's seed (`play(_:seed:user:)` replays it).
    public let run: Int
    public let seed: UInt64
    /// The steps as drawn.
    public let steps: [String]
    /// The fewest steps that still fail the same way.
    public let reproduction: [String]
    /// The reproduction's verdict.
    public let verdict: Verdict

    /// The failure as a test prints it: the anomaly, then the steps to replay it.
    public var lines: [String] {
        var out = ["run \(run) (seed \(seed)) failed; shrunk from \(steps.count) to \(reproduction.count) step(s):"]
        out += reproduction.map { "  \($0)" }
        out += verdict.lines.map { "  " + $0 }
        out.append("replay: try await store.play(\(reproduction), seed: \(seed)) { app in ... }")
        return out
    }
}
