import IAPSimCore
import Testing

@testable import IAPSimScenario

/// Every schedule `iapsim explore` writes must replay, through the file format and the
/// scenario player, to the verdict it was written from.
@Suite struct ScheduleExportTests {
    /// Writes, parses back and plays an exported schedule; returns the failed expectations.
    func replay(_ schedule: Schedule, seed: UInt64, preset: PolicyPreset, type: AnomalyType) throws -> [String] {
        let scenario = ScheduleExport.scenario(schedule, seed: seed, preset: preset, type: type, origin: "test")
        let text = ScenarioWriter.yaml(scenario)
        let parsed = try ScenarioParser.parse(text: text, file: "export.yaml")
        let (_, result) = ScenarioPlayer.run(parsed)
        var failed = result.expectations.filter { !$0.holds }.map { "\($0)" }
        if let t = result.timeout { failed.append("timeout: \(t)") }
        return failed
    }

    @Test(arguments: [PolicyPreset.naive, .localTable, .retransmit, .retryFile])
    func shrunkFindingsReplayAsPassingScenarios(preset: PolicyPreset) throws {
        let explorer = Explorer(policy: preset.policy, seed: 3)
        var first: [AnomalyType: RunOutcome] = [:]
        for i in 0..<600 {
            let o = explorer.run(i)
            for t in o.failures where first[t] == nil { first[t] = o }
        }
        #expect(!first.isEmpty)
        for (type, o) in first {
            let original = explorer.schedule(o.index)
            let small = explorer.shrink(original, seed: o.seed, type: type)
            #expect(small.steps.count <= original.steps.count)
            let failed = try replay(small, seed: o.seed, preset: preset, type: type)
            #expect(failed.isEmpty, "\(preset.rawValue) \(type.rawValue) run \(o.index): \(failed)")
        }
    }

    /// Whole unshrunk schedules, with many `when` triggers, replay identically too: the
    /// player and the explorer agree on when a trigger fires.
    @Test func wholeSchedulesReplayIdentically() throws {
        for preset in [PolicyPreset.naive, .hardened, .retransmit] {
            let explorer = Explorer(policy: preset.policy, seed: 11)
            for i in 0..<150 {
                let o = explorer.run(i)
                let failed = try replay(explorer.schedule(i), seed: o.seed, preset: preset, type: .lostOrder)
                #expect(failed.isEmpty, "\(preset.rawValue) run \(i): \(failed)")
            }
        }
    }
}
