/// `iapsim serve --explore`: explore's random schedules, each played against the user's
/// backend through `link` in a world of its own (the edge gives each run its own user names
/// and ids). Nothing is shrunk: a real backend is too slow, and cannot be copied.
extension Explorer {
    /// Run `index`'s schedule against the backend, with the heal phase; the world is
    /// returned with its whole log (the runner's transcript and `--log`).
    package func served(_ index: Int, link: ExternalLink) -> (world: Simulation, outcome: RunOutcome) {
        let s = runSeed(index)
        var schedule = schedule(seed: s)
        // `spend` needs the backend's `spend` call.
        if !link.canSpend {
            schedule.steps.removeAll {
                if case .spend = $0.command { return true }
                return false
            }
        }
        var sim = Simulation(
            WorldConfig(
                seed: s, users: schedule.users, policy: policy, catalog: catalog, logLimit: nil,
                gracePeriodMs: schedule.gracePeriodMs ?? catalogGracePeriodMs))
        sim.attachExternal(link)
        sim.run(schedule)
        return (sim, Explorer.outcome(of: sim, index: index, seed: s))
    }

    /// The schedule `served(index, link:)` plays (its steps, for a finding's reproduction).
    package func servedSchedule(_ index: Int) -> Schedule { schedule(index) }
}
