import Foundation
import IAPSimCore
import IAPSimScenario

/// One input of a run, as the store recorded it: what `verdict()`'s replays play again.
struct RecordedInput: Sendable {
    enum Kind: Sendable {
        case launch, crash, background, foreground, settle, heal
        case advance(Int)
        case perform(String, Command)
        /// A `buy` of `play`: its user action on the app of the last launch.
        case buy
        /// `user(app) { app in ... }`: the action, run again on the app of the last launch.
        case user(@Sendable (any Sendable) async throws -> Void)
        /// A `user { }` action: a closure over an app object of its own process, which a
        /// replay (a new process) cannot run again.
        case action
    }

    var kind: Kind
    /// False for the first launch (the world's start, as a file's `app: running`) and the
    /// ending `play` adds: replayed, never removed, never named.
    var visible: Bool
    /// When it came.
    var time: VirtualTime

    /// The input in the scenario vocabulary: what "caused by" names.
    var command: Command {
        switch kind {
        case .launch: return .launch
        case .crash: return .crash
        case .background: return .background
        case .foreground: return .foreground
        case .settle: return .settle
        case .heal: return .heal
        case .advance(let ms): return .wait(ms)
        case .perform(_, let command): return command
        case .buy, .user, .action: return .buy(product: "")
        }
    }
}

/// The what-if of the verdict: the run's inputs replayed with your app, each replay in this
/// store, as `iapsim run` replays a file's steps with its model of the app.
extension SimulatedStore {
    /// Records `kind` unless the call is part of one already recorded; pair with `recorded()`.
    func record(_ kind: RecordedInput.Kind) {
        locked {
            if recordDepth == 0 {
                let start = inputs.isEmpty && { if case .launch = kind { return true } else { return false } }()
                inputs.append(RecordedInput(kind: kind, visible: !hidingInputs && !start, time: sim.now))
            }
            recordDepth += 1
        }
    }

    func recorded() { locked { recordDepth -= 1 } }

    /// The auditor's verdict on the world as it is, with what `iapsim run` prints under it:
    /// each anomaly's cause (`caused by: step 2: drop-next-response recharge`), the server
    /// settings that would have prevented it or that saved it, and what the other preset's
    /// server would have let go wrong. The world is not changed: the grace periods end and the
    /// open anomalies are tried on a copy (docs/world.md, "The auditor"). Call it after
    /// `settle()`.
    ///
    /// The what-if is found by replay: your app's inputs (launches, `perform` lines, `play`'s
    /// steps, crashes, waits) are played again in this store, one left out, or under another
    /// server policy, with your app's own code. The store is left as the run left it (played
    /// once more); an object your test holds from an earlier `launch` then belongs to a
    /// process that ended. A run with a `user { }` action cannot be replayed (its closure
    /// holds an app of its own process): its verdict says so instead; `play` runs can.
    public func verdict() async -> Verdict {
        let run = await concluded()
        if served != nil { return servedVerdict(run) }
        guard !locked({ inputs.isEmpty }) else { return Verdict(run) }
        let report: WhatIfReport
        do {
            report = try await whatIf(of: run)
        } catch {
            report = Self.notWorkedOut("the replays stopped: \(error)", other: preset.other.policy)
        }
        return Verdict(run, whatIf: report)
    }

    /// The verdict without its what-if (explore's runs: nobody reads it unless one fails).
    func judged() async -> Verdict {
        let run = await concluded()
        return served != nil ? servedVerdict(run) : Verdict(run)
    }

    /// The verdict of a world against your backend: no what-if (a real backend cannot be
    /// copied), and the backend's failure (unreachable, its ledger unreadable), if any.
    func servedVerdict(_ run: Simulation) -> Verdict {
        let failure = locked { servedMerchant }.flatMap { m in served?.failure(of: m) }
        return Verdict(
            run,
            whatIf: Self.notWorkedOut(
                "your backend is real and cannot be copied (as under iapsim serve)", other: preset.other.policy),
            backendFailure: failure)
    }

    /// The world as the auditor concludes it, on a copy (with your backend: its last ticks
    /// and its ledger are asked for, as at the end of a `serve` run).
    func concluded() async -> Simulation {
        await worldWork {
            var copy = self.sim
            copy.concludeVerdict()
            return copy
        }
    }

    static func notWorkedOut(_ why: String, other: Policy) -> WhatIfReport {
        WhatIfReport(
            explanations: [], avoided: [], other: other, replays: 0,
            notWorkedOut: "caused by, prevented by and saved by: not worked out: " + why)
    }

    /// The core's what-if over the recorded inputs, each replay this store's
    /// (`replayed(policy:removing:)`). The core asks for its replays one at a time and
    /// synchronously, while your app's code runs only asynchronously: the report is worked out
    /// again with every replay it asked for and did not have, played meanwhile, until it asks
    /// for none; the last pass is the core's answer with every replay real.
    func whatIf(of run: Simulation) async throws -> WhatIfReport {
        let (recordedInputs, config, policy) = locked { (inputs, sim.config, sim.policy) }
        let other = preset.other.policy
        if recordedInputs.contains(where: { if case .action = $0.kind { return true } else { return false } }) {
            return Self.notWorkedOut(
                "they replay the run's inputs with your app, and a `user { }` action cannot be replayed "
                    + "(it holds an app object of its own process); steps given to `play` can", other: other)
        }
        let visible = recordedInputs.filter(\.visible)
        let replayInput = ReplayInput(
            config: {
                var c = config; c.policy = policy; return c
            }(), preset: preset,
            steps: visible.enumerated().map { ReplayStep(.after(0), $1.command, number: $0 + 1) })
        struct Key: Hashable {
            var policy: Policy
            var removed: [Int]
        }
        var known: [Key: (world: Simulation, stepTimes: [VirtualTime])] = [:]
        known[Key(policy: policy.drivenApp, removed: [])] = (run, visible.map(\.time))
        defer { locked { inputs = recordedInputs } }
        while true {
            let table = known
            let missed = LockedBox<[Key]>([])
            var engine = WhatIf(replayInput)
            engine.replayer = { policy, removed in
                let key = Key(policy: policy.drivenApp, removed: removed.sorted())
                if let hit = table[key] { return hit }
                missed.withLock { if !$0.contains(key) { $0.append(key) } }
                return nil
            }
            let report = engine.report(for: run)
            let asked = missed.withLock { $0 }
            if asked.isEmpty {
                // The store as the run left it: the run once more.
                _ = try await replayed(config: config, removing: [], inputs: recordedInputs)
                return report
            }
            for key in asked {
                var c = config
                c.policy = key.policy
                let played = try await replayed(config: c, removing: Set(key.removed), inputs: recordedInputs)
                known[key] = played
            }
        }
    }

    /// Plays `recordedInputs` again in a new world of `config`, the visible inputs at `removed`
    /// left out; returns the world as the auditor concludes it and when each visible input came.
    func replayed(config: WorldConfig, removing removed: Set<Int>, inputs recordedInputs: [RecordedInput])
        async throws -> (world: Simulation, stepTimes: [VirtualTime])
    {
        try await restart(seed: config.seed, config: config)
        locked { recordDepth += 1 }
        defer { locked { recordDepth -= 1 } }
        var times: [VirtualTime] = []
        var index = 0
        for input in recordedInputs {
            if input.visible {
                times.append(locked { sim.now })
                index += 1
                if removed.contains(index - 1) { continue }
            }
            try await replay(input.kind)
        }
        return (await concluded(), times)
    }

    /// One recorded input, played again.
    func replay(_ kind: RecordedInput.Kind) async throws {
        switch kind {
        case .launch: try await relaunch()
        case .crash: await crash()
        case .background: await background()
        case .foreground: await foreground()
        case .settle: await settle()
        case .heal: try await heal()
        case .advance(let ms): await advance(by: .milliseconds(ms))
        case .perform(let line, _):
            do { try await perform(line) } catch SimulatedStoreError.refused {}
        case .buy: await playBuy()
        case .user(let action):
            guard let made = locked({ lastMade }) else { return }
            await user { try await action(made) }
        case .action: throw SimulatedStoreError.noApp
        }
    }
}
