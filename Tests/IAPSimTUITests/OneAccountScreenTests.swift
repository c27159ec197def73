import Testing

@testable import IAPSimTUI

/// Issue 52 (review N1, N2): at the end of lesson 8's file the inspector says what `run` and
/// the handout say: the grace cut's fix by name, and the paid periods behind it.
@Suite struct OneAccountScreenTests {
    @Test func theGraceCutInspectorNamesItsFixAndItsCharge() throws {
        for (width, height) in [(120, 40), (80, 24)] {
            var d = try DefectTests.play("sub-grace-cut-naive.yaml")
            d.keys("Gi")
            var text = d.screen(width, height).text
            // The inspector scrolls: read every page of it.
            for _ in 0..<6 {
                d.key(.pageDown)
                text += d.screen(width, height).text
            }
            let flat = text.replacingOccurrences(of: "│", with: "").split(whereSeparator: \.isWhitespace).joined(
                separator: " ")
            #expect(!flat.contains("no charge behind it"), "\(text)")
            #expect(flat.contains("paid: $4.99 for pro_monthly"), "\(text)")
            #expect(flat.contains("prevented by: server-notifications true + server-grace honor"), "\(text)")
        }
    }

    /// Walkthrough 5, M4: a cut line keeps its mark within the width, after its last whole
    /// alternative.
    @Test func aCutKeyLineEndsWithItsMarkAfterAWholeAlternative() {
        let line =
            " prevented by: server-notifications true + server-grace honor | server-grace honor + server-status-poll 1h"
        let cut = UIModel.cutMarked(line, width: 70, mark: "…")
        #expect(cut == " prevented by: server-notifications true + server-grace honor | …", "\(cut)")
        let tight = UIModel.cutMarked(line, width: 40, mark: "…")
        #expect(tight.hasSuffix(" …") && TextWidth.of(tight) <= 40, "\(tight)")
    }

    /// Walkthrough 5, M1: in the sandbox the replays run to the live clock. A grace cut
    /// reached by `.` (time passed after the last action) is prevented by the grace keys, as
    /// `play` of the same inputs says, not by nearly every key (replays that stopped at the
    /// last action, where no grace cut had happened yet).
    @Test func theSandboxGraceCutIsWorkedOutToTheLiveClock() throws {
        var d = Driver(UIModel(preset: .sk2Naive, gracePeriodMs: .some(16 * 86_400_000)))
        d.keys("b4")
        d.wait(wallMs: 4_000)
        d.keys("C1")
        for _ in 0..<12 where !d.model.simulation.auditor.anomalies.contains(where: { $0.type == .graceCut }) {
            d.keys(".")
        }
        let cut = try #require(d.model.simulation.auditor.anomalies.first { $0.type == .graceCut })
        #expect(d.model.sessionScenario.steps.last?.atTime == d.model.simulation.now)
        d.model.workOutWhatIf()
        let line = try #require(d.model.whatIf?.explanation(of: cut.id)).account.line
        #expect(line.hasPrefix("prevented by: server-notifications true + server-grace honor"), "\(line)")
        #expect(!line.contains("observer launch"), "\(line)")
    }

    /// Walkthrough 6: while a step waits (the clock held), the split names the keys of what
    /// the other side avoided, not only at the end ("avoided: grace-cut …0001 prevented" with no
    /// key, for as long as the step waited).
    @Test func theSplitNamesTheKeysWhileAStepWaits() throws {
        var d = try DefectTests.play("sub-grace-cut-naive.yaml")
        d.keys("V")
        var steps = 0
        while d.model.simulation.auditor.anomalies.isEmpty, d.model.result == nil, steps < 10 {
            d.key(.enter)
            steps += 1
        }
        #expect(d.model.result == nil && d.model.waitingForStep, "steps: \(steps)")
        #expect(!d.model.simulation.auditor.anomalies.isEmpty)
        let right = d.model.splitAvoided?.right ?? []
        // At this moment (the cut open, not yet recovered) the grace rule alone keeps it away.
        #expect(right.first == "grace-cut 1000000000001, prevented by: server-grace honor", "\(right)")
        #expect(d.screen(120, 40).text.contains("avoided: grace-cut …0001, prevented by: server-grace honor"))
    }

    /// Lesson 8's end: the side that never had the grace cut counts it avoided, with the keys
    /// (a subscription world is never idle, so the ended file's split works it out).
    @Test func theSplitAtTheEndOfTheGraceFileCountsTheCutAvoidedWithItsKeys() throws {
        for (width, height) in [(120, 40), (80, 24)] {
            var d = try DefectTests.play("sub-grace-cut-naive.yaml")
            d.keys("VG")
            let right = d.model.splitAvoided?.right ?? []
            #expect(
                right.first?.hasPrefix(
                    "grace-cut 1000000000001, prevented by: server-notifications true + server-grace honor") == true,
                "\(right)")
            let text = d.screen(width, height).text
            #expect(text.contains("avoided: grace-cut"), "\(text)")
            // M4: at 80x24 the keys are cut only with a mark, never silently; walkthrough 6: the
            // first whole alternative, with the key the lesson teaches, is on screen at both sizes.
            let keys = d.model.keyLines(prevented: [], saved: right, width: width / 2)
            let joined = keys.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(joined.contains("server-notifications true + server-grace honor"), "\(keys)")
            #expect(keys.allSatisfy { TextWidth.of($0) <= width / 2 }, "\(keys)")
            #expect(keys.joined().contains("grace-cut …0001"), "\(keys)")
        }
    }
}
