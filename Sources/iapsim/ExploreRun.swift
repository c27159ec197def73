import Foundation
import IAPSimCore
import IAPSimScenario

/// One explore invocation: runs, report, shrunk findings written as scenario files.
struct ExploreRun {
    var policy: PolicyPreset
    var runs: Int
    var seed: UInt64
    var jobs: Int
    var steps: Int
    var skip: Int
    var outDir: String
    var showProgress: Bool

    struct Finding {
        var type: AnomalyType
        var run: RunOutcome
        var file: String
        var originalSteps: Int
        var shrunkSteps: Int
    }

    struct Result {
        var run: ExploreRun
        var report: ExploreReport
        var findings: [Finding]
        var seconds: Double
        var exploreSeconds: Double
    }

    func execute() -> Result {
        let explorer = Explorer(policy: policy.policy, seed: seed, steps: steps)
        let started = Date()
        let total = runs
        var progress: (@Sendable (Int) -> Void)?
        if showProgress {
            progress = { @Sendable (done: Int) in
                let rate = Double(done) / max(Date().timeIntervalSince(started), 1e-9)
                FileHandle.standardError.write(Data("\r  \(done)/\(total) runs, \(Int(rate)) runs/s   ".utf8))
            }
        }
        let outcomes = ParallelRuns.run(explorer, range: skip..<(skip + runs), jobs: jobs, progress: progress)
        let exploreSeconds = Date().timeIntervalSince(started)
        if showProgress { FileHandle.standardError.write(Data("\r".utf8)) }
        let report = ExploreReport(outcomes)
        var findings: [Finding] = []
        for type in AnomalyType.allCases {
            guard let first = report.firstFailure[type] else { continue }
            findings.append(writeFinding(type, first, explorer))
        }
        return Result(run: self, report: report, findings: findings,
                      seconds: Date().timeIntervalSince(started), exploreSeconds: exploreSeconds)
    }

    func writeFinding(_ type: AnomalyType, _ o: RunOutcome, _ explorer: Explorer) -> Finding {
        let original = explorer.schedule(o.index)
        let small = explorer.shrink(original, seed: o.seed, type: type)
        let scenario = ScheduleExport.scenario(small, seed: o.seed, preset: policy, type: type,
                                               origin: "iapsim explore --policy \(policy.rawValue) --runs 1 --seed \(seed) --steps \(steps) --skip \(o.index)")
        let path = (outDir as NSString).appendingPathComponent("\(type.rawValue).yaml")
        try? FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        try? ScenarioWriter.yaml(scenario).write(toFile: path, atomically: true, encoding: .utf8)
        return Finding(type: type, run: o, file: path, originalSteps: original.steps.count,
                       shrunkSteps: small.steps.count)
    }
}
