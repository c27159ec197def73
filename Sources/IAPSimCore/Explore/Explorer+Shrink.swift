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
        return normalized(dropIdleSteps(best, seed: seed, type: type), seed: seed)
    }

    /// The anomalies a schedule's run ends with, by type and status, in order: its verdict.
    func verdict(_ schedule: Schedule, seed: UInt64) -> [AnomalyKey] {
        simulate(schedule, seed: seed).auditor.anomalies.map { AnomalyKey(type: $0.type, status: $0.status) }
    }

    /// The last pass of the shrinker: a step whose removal leaves the same verdict changes
    /// nothing and is removed; so is a step that did nothing but say so ("nothing to replay:
    /// the server has accepted no receipt yet"), as long as the anomaly still appears, and
    /// when only the time it waited matters (a fault must fire before the heal), it becomes
    /// that wait (`wait 1s`). Last step first, so the indices of the steps still to try stay
    /// as they were.
    func dropIdleSteps(_ schedule: Schedule, seed: UInt64, type: AnomalyType) -> Schedule {
        var best = schedule
        var same = verdict(best, seed: seed)
        let idle = idleSteps(schedule, seed: seed)
        for i in schedule.steps.indices.reversed() where best.steps.count > 1 {
            var candidates = [best]
            candidates[0].steps.remove(at: i)
            if idle.contains(i) {
                var waiting = best
                if case .after(let ms) = best.steps[i].trigger {
                    waiting.steps[i] = ScheduleStep(.after(0), .wait(ms))
                } else {
                    waiting.steps[i].command = .wait(0)
                }
                candidates.append(waiting)
            }
            for candidate in candidates {
                let theirs = verdict(candidate, seed: seed)
                let stillThere = theirs.contains { $0.type == type && $0.status.isUnresolved }
                guard theirs == same || idle.contains(i) && stillThere else { continue }
                best = candidate
                same = theirs
                break
            }
        }
        return best
    }

    /// The indices of the steps whose command wrote nothing but that it had nothing to do
    /// (each fact's words say "nothing to ...").
    func idleSteps(_ schedule: Schedule, seed: UInt64) -> Set<Int> {
        var sim = Simulation(config(schedule, seed: seed, keepLog: true))
        var runner = StepRunner()
        var none: [LogEntry]?
        var idle: Set<Int> = []
        for (i, step) in schedule.steps.enumerated() {
            _ = runner.reach(step.trigger, in: &sim, into: &none)
            var written: [LogEntry]? = []
            runner.perform(step.command, in: &sim, into: &written)
            let said = (written ?? []).filter {
                if case .commandIssued = $0.fact { return false }
                return true
            }
            if !said.isEmpty && said.allSatisfy({ $0.fact.text.contains("nothing to ") }) { idle.insert(i) }
        }
        return idle
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
