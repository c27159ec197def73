import IAPSimCore
import Testing

@testable import IAPSimScenario
@testable import IAPSimTUI

/// The session's world is the start's world: the replays behind the inspector, a saved
/// session and `R` keep the file's grace period (and catalog), so that what they say is
/// about the world on screen.
@Suite struct SessionWorldTests {
    static func played(_ file: String, steps: Int, toEnd: Bool = true) throws -> Driver {
        var d = Driver(UIModel(play: try RenderGoldenTests.shipped(file), file: "scenarios/\(file)"))
        for _ in 0..<steps { d.key(.enter) }
        if toEnd { d.keys("G") }
        return d
    }

    @Test func theInspectorsReplaysKeepTheFilesGracePeriod() throws {
        var d = try Self.played("sub-grace-cut-naive.yaml", steps: 0)
        #expect(d.model.sessionScenario.gracePeriodMs == 16 * 86_400_000)
        d.model.workOutWhatIf()
        let anomaly = try #require(d.model.simulation.auditor.anomalies.first { $0.type == .graceCut })
        let x = try #require(d.model.whatIf?.explanation(of: anomaly.id))
        // Without the grace period no replay makes a grace cut, and every change seemed to prevent it.
        #expect(
            !x.preventedBy.contains { $0.contains { $0.key == .observer } }, "\(x.preventedBy.map { $0.map(\.words) })")
    }

    @Test func aSavedSessionKeepsTheGracePeriod() throws {
        var d = try Self.played("sub-grace-cut-naive.yaml", steps: 2, toEnd: false)
        d.keys("s")
        let saved = d.effects.compactMap { effect -> String? in
            if case .save(_, let contents) = effect { return contents }
            return nil
        }
        let text = try #require(saved.last, "\(d.model.status ?? "")")
        #expect(text.contains("grace-period: 16d"), "\(text)")
    }
}
