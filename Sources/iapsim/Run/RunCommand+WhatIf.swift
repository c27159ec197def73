import ArgumentParser
import IAPSimCore
import IAPSimScenario
import IAPSimSigned

/// `run --against PRESET` and `run --handout DIR`: the replays' answers beside the run.
extension RunCommand {
    /// `--against` names a preset of the file's own StoreKit world, or the run is refused
    /// (status 2) before anything runs.
    func refuseOtherWorld(_ scenario: Scenario) throws {
        guard let against, against.policy.storekit != scenario.policy.storekit else { return }
        let world = scenario.policy.storekit
        let accepted = PolicyPreset.presets(in: world).map(\.rawValue).joined(separator: ", ")
        Output.error(
            "Error: --against \(against.rawValue): a StoreKit \(against.policy.storekit.rawValue) preset, "
                + "but \(file) runs StoreKit \(world.rawValue) (the worlds do not mix); accepted: \(accepted)")
        throw ExitCode(2)
    }

    /// The same inputs under `preset`, both verdicts side by side, and what each avoided.
    func againstLines(
        _ scenario: Scenario, _ result: ScenarioResult, _ whatIf: WhatIfReport, _ preset: PolicyPreset
    ) -> [String] {
        var other = scenario
        other.policy = preset.policy
        other.preset = preset
        var player = ScenarioPlayer(other, logLimit: 0)
        player.collectsEntries = false
        let otherResult = player.finish().result
        let otherWhatIf = other.whatIf(otherResult.simulation, against: scenario.policy)
        let mine = "\(scenario.preset.rawValue)" + (scenario.policy == scenario.preset.policy ? "" : " (changed)")
        return AgainstColumns.lines(
            left: (title: "\(mine) (the file's policy)", sim: result.simulation, whatIf: whatIf),
            right: (title: preset.rawValue, sim: otherResult.simulation, whatIf: otherWhatIf))
    }

    /// One Markdown file per anomaly in `--handout DIR`, staged with the other outputs.
    func stageHandouts(
        _ records: [RunRecord], scenario: Scenario, result: ScenarioResult, whatIf: WhatIfReport?,
        in files: inout OutputFiles
    ) throws {
        guard let handoutDirectory else { return }
        try files.makeDirectory(handoutDirectory, flag: "--handout")
        let log = records.compactMap { record -> LogEntry? in
            if case .entry(let e) = record { return e }
            return nil
        }
        let source = Handout.Source(
            title: scenario.title, file: file, sim: result.simulation, log: log, records: records, whatIf: whatIf)
        for a in result.simulation.auditor.anomalies {
            try files.stage(
                Handout.markdown(a, from: source), to: RunExports.path(handoutDirectory, Handout.fileName(a)))
        }
    }
}
