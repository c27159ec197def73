extension Explorer {
    /// True when the schedule, healed and settled, still ends with an unresolved anomaly
    /// of `type`.
    func reproduces(_ schedule: Schedule, seed: UInt64, type: AnomalyType) -> Bool {
        simulate(schedule, seed: seed).auditor.anomalies.contains {
            $0.type == type && $0.status.isUnresolved
        }
    }

    /// Shrinks a failing schedule while the same anomaly type still appears: drop chunks of
    /// steps, then single steps, then simplify triggers, times and products. Deterministic.
    /// The result never has more steps than the input, and every `when` in it fires.
    package func shrink(_ schedule: Schedule, seed: UInt64, type: AnomalyType) -> Schedule {
        var best = normalized(schedule, seed: seed)
        guard reproduces(best, seed: seed, type: type) else { return best }
        for _ in 0..<4 {
            let before = best
            best = dropSteps(best, seed: seed, type: type)
            best = simplifySteps(best, seed: seed, type: type)
            if best == before { break }
        }
        return normalized(best, seed: seed)
    }

    /// Rewrites `when` steps that never fire as `after: 10m` (same behaviour).
    func normalized(_ schedule: Schedule, seed: UInt64) -> Schedule {
        var sim = Simulation(config(schedule, seed: seed))
        return schedule.resolvingTriggers(sim.run(schedule))
    }

    func dropSteps(_ schedule: Schedule, seed: UInt64, type: AnomalyType) -> Schedule {
        var best = schedule
        var chunk = max(1, best.steps.count / 2)
        while chunk >= 1 {
            var start = 0
            while start < best.steps.count {
                var candidate = best
                candidate.steps.removeSubrange(start..<min(start + chunk, best.steps.count))
                if reproduces(candidate, seed: seed, type: type) {
                    best = candidate
                } else {
                    start += chunk
                }
            }
            if chunk == 1 { break }
            chunk /= 2
        }
        return best
    }

    func simplifySteps(_ schedule: Schedule, seed: UInt64, type: AnomalyType) -> Schedule {
        var best = schedule
        for i in best.steps.indices {
            for candidateStep in simpler(best.steps[i]) {
                var candidate = best
                candidate.steps[i] = candidateStep
                if reproduces(candidate, seed: seed, type: type) {
                    best = candidate
                    break
                }
            }
        }
        return best
    }

    /// Simpler versions of a step, simplest first.
    func simpler(_ step: ScheduleStep) -> [ScheduleStep] {
        var out: [ScheduleStep] = []
        switch step.trigger {
        case .when: out.append(ScheduleStep(.after(0), step.command))
        case .after(let ms) where ms > 0:
            for shorter in [0, 1_000, 10_000, 60_000] where shorter < ms {
                out.append(ScheduleStep(.after(shorter), step.command))
            }
        // At once already, or at a fixed time (explore draws none): nothing simpler.
        case .after, .at: break
        }
        // A simpler purchase is one of this catalog's (a StoreKit file may sell no `coins_100`):
        // the finding must read back as a scenario of it.
        for command in step.command.spec.simpler(step.command) {
            if case .buy(let product) = command, catalog.product(product) == nil { continue }
            out.append(ScheduleStep(step.trigger, command))
        }
        return out
    }
}
