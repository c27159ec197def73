import IAPSimCore

/// Turns a generated fault schedule (from `iapsim explore`) into a scenario file of format 1:
/// its steps, the heal phase written out as commands, a generated story, and an `expect`
/// block taken from the verdict of the very run the file replays, so `iapsim run` passes.
public enum ScheduleExport {
    public static func scenario(_ schedule: Schedule, seed: UInt64, preset: PolicyPreset,
                                type: AnomalyType, origin: String) -> Scenario {
        let users = usersNeeded(schedule)
        var sim = Simulation(WorldConfig(seed: seed, users: users, policy: preset.policy))
        let fired = sim.runSteps(schedule)
        let heal = sim.heal()
        sim.settle()
        let resolved = schedule.resolvingTriggers(fired)
        var steps = resolved.steps.map { s in
            Step(s.trigger, s.command, say: narration(s.command))
        }
        for (i, c) in heal.enumerated() {
            steps.append(Step(.after(0), c, say: i == 0 ? "Heal phase: every fault off, the app running, a user logged in." : nil))
        }
        return Scenario(title: "Explore finding: \(type.rawValue) under \(preset.rawValue)",
                        story: story(sim, type: type, preset: preset, origin: origin, steps: resolved.steps.count),
                        preset: preset, seed: seed, users: users, steps: steps,
                        expect: expectations(sim))
    }

    /// The first account (logged in at start) and every account a step logs in.
    static func usersNeeded(_ schedule: Schedule) -> [String] {
        var users = [schedule.users.first ?? "alice"]
        for s in schedule.steps {
            if case .login(let u) = s.command, !users.contains(u) { users.append(u) }
        }
        return users
    }

    /// What the verdict of this run is, as an `expect` block.
    public static func expectations(_ sim: Simulation) -> Expectations {
        var groups: [AnomalyExpectation] = []
        for a in sim.auditor.anomalies {
            if let i = groups.firstIndex(where: { $0.type == a.type && $0.status == a.status }) {
                groups[i].count! += 1
            } else {
                groups.append(AnomalyExpectation(type: a.type, status: a.status, count: 1))
            }
        }
        var credited: [String: Int] = [:]
        for u in sim.users { credited[u] = sim.server.balance(of: u) }
        return Expectations(charged: sim.auditor.charges.count, credited: credited,
                            anomalies: groups, unresolved: sim.auditor.unresolved.count,
                            queue: sim.store.queue.count)
    }

    static func story(_ sim: Simulation, type: AnomalyType, preset: PolicyPreset, origin: String,
                      steps: Int) -> String {
        let found = sim.auditor.anomalies.first { $0.type == type && $0.status.isUnresolved }
        var text = "Found by `\(origin)` and shrunk to \(steps) step(s).\n"
        text += "Under the \(preset.rawValue) policy this schedule ends, after healing every fault, "
        text += "with a \(type.rawValue) anomaly that is \(found?.status.rawValue ?? "unresolved")"
        if let found {
            text += ": \(found.summary)"
            if let m = found.mechanism { text += " (\(m))" }
        }
        return text + ".\n"
    }

    /// A line of narration for a generated step.
    public static func narration(_ c: Command) -> String {
        switch c {
        case .buy(let p): return "The logged-in user buys \(p)."
        case .crash: return "The app process dies."
        case .launch: return "The app is launched."
        case .uninstall: return "The app is deleted."
        case .login(let u): return "\(u) logs in."
        case .logout: return "The user logs out."
        case .network(let on): return on ? "The network is back." : "The device goes offline."
        case .dropNextRequest(let r): return "The next \(r.rawValue) request will be lost."
        case .dropNextResponse(let r): return "The next \(r.rawValue) response will be lost."
        case .replay: return "The attacker replays the newest accepted receipt on a fresh order."
        case .failNextPaymentUnfinished: return "The next payment fails and is never finished."
        case .interruptNextPayment: return "The next payment is interrupted."
        default: return c.scenarioText + "."
        }
    }
}
