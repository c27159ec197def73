import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// The session so far (the file's or the sandbox's start, and every action since) as
    /// the replays' inputs.
    /// Everything else is the start's: its catalog (a StoreKit file's), its grace period, its
    /// environment (a replay without the grace period can make no grace-cut, and so every
    /// candidate change seemed to prevent one).
    /// The time that passed after the last action (`.`, `+`, a lesson's run) is a last step,
    /// `at NOW: wait 0s`: without it the replays (and a saved session) stop where the last
    /// action was taken, before the renewal or the grace period the world has since reached,
    /// and every candidate change seemed to prevent what had not happened yet.
    var sessionScenario: Scenario {
        var scenario = player.scenario
        scenario.steps = session
        let last = session.compactMap(\.atTime).max() ?? 0
        if simulation.now > last {
            scenario.steps.append(Step(.at(simulation.now), .wait(0)))
        }
        scenario.expect = Expectations()
        return scenario
    }

    /// Works out caused by / prevented by / saved by for the world as it is now, by
    /// replaying the session's actions on copies (the live world is not touched).
    mutating func workOutWhatIf() {
        // Under serve a real backend cannot be copied: nothing is replayed.
        guard !simulation.isExternal else { return }
        whatIf = sessionScenario.whatIf(simulation)
    }

    /// `H`: the selected anomaly's handout (or `id`'s, from its inspector), as Markdown.
    mutating func writeHandout(_ id: Int? = nil) -> [UIEffect] {
        let list = inspectableAnomalies
        guard let id = id ?? (list.isEmpty ? nil : list[selectedIndex(.auditor)].id),
            let anomaly = simulation.auditor.anomalies.first(where: { $0.id == id })
        else {
            status = "no anomaly yet: no handout to write"
            return []
        }
        workOutWhatIf()  // the world may have moved since the inspector opened
        let file: String
        switch mode {
        case .sandbox: file = "the sandbox"
        case .play(let path): file = path
        }
        let source = Handout.Source(
            title: player.scenario.title, file: file, sim: simulation, log: simulation.log,
            records: recordsWithSteps(),
            whatIf: whatIf)
        status = "writing the handout of A\(id)…"
        return [
            .saveHandout(
                baseName: "iapsim-A\(id)-\(anomaly.type.rawValue)", contents: Handout.markdown(anomaly, from: source))
        ]
    }
}

extension UIModel {
    /// The world's log as records, with the steps played (from their notes) where they began.
    func recordsWithSteps() -> [RunRecord] {
        let log = simulation.log
        let base = simulation.logCount - log.count
        let steps = notes.compactMap { note in note.started.map { (note.position - base, $0) } }
        var records: [RunRecord] = []
        var next = 0
        for (i, entry) in log.enumerated() {
            while next < steps.count, steps[next].0 <= i {
                records.append(steps[next].1)
                next += 1
            }
            records.append(.entry(entry))
        }
        return records
    }
}
