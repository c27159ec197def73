import IAPSimCore

/// Turns a generated fault schedule (from `iapsim explore`) into a scenario file of format 1:
/// its steps, the heal phase written out as commands, a generated story, and an `expect`
/// block taken from the verdict of the very run the file replays, so `iapsim run` passes.
package enum ScheduleExport {
    package static func scenario(
        _ schedule: Schedule, seed: UInt64, preset: PolicyPreset,
        type: AnomalyType, origin: String, catalog: LoadedCatalog = .builtIn
    ) -> Scenario {
        let users = usersNeeded(schedule)
        let grace =
            schedule.gracePeriodMs
            ?? (catalog.catalog.settings.billingGracePeriod ? CatalogOptions.fileGracePeriodMs : nil)
        var sim = Simulation(
            WorldConfig(
                seed: seed, users: users, policy: preset.policy, catalog: catalog.catalog, gracePeriodMs: grace))
        let fired = sim.runSteps(schedule)
        let heal = sim.heal()
        sim.settle()
        sim.concludeVerdict()
        let resolved = schedule.resolvingTriggers(fired)
        var steps = resolved.steps.map { s in
            Step(s.trigger, s.command, say: s.command.narration)
        }
        for (i, c) in heal.enumerated() {
            steps.append(
                Step(
                    .after(0), c, say: i == 0 ? "Heal phase: every fault off, the app running, a user logged in." : nil)
            )
        }
        var scenario = Scenario(
            title: "Explore finding: \(type.rawValue) under \(preset.rawValue)",
            story: story(sim, type: type, preset: preset, origin: origin, steps: resolved.steps.count),
            preset: preset, seed: seed, users: users, steps: steps,
            expect: Expectations.verdict(of: sim))
        scenario.gracePeriodMs = grace
        scenario.catalog = catalog
        return scenario
    }

    /// The first account (logged in at start) and every account a step logs in.
    static func usersNeeded(_ schedule: Schedule) -> [String] {
        var users = [schedule.users.first ?? "alice"]
        for s in schedule.steps {
            if case .login(let u) = s.command, !users.contains(u) { users.append(u) }
        }
        return users
    }

    static func story(
        _ sim: Simulation, type: AnomalyType, preset: PolicyPreset, origin: String,
        steps: Int
    ) -> String {
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
}
