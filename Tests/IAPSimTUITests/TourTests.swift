import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// `iapsim learn`: every lesson asks its question before the decisive step, opens the
/// inspector on its own anomaly, then puts the fix beside it.
@Suite struct TourTests {
    static func tour() throws -> Tour {
        Tour(
            lessons: try Lesson.plan.map { row in
                Lesson(
                    type: row.type,
                    naive: ScenarioFile(
                        path: "scenarios/" + row.naive, scenario: try RenderGoldenTests.shipped(row.naive)),
                    hardened: ScenarioFile(
                        path: "scenarios/" + row.hardened, scenario: try RenderGoldenTests.shipped(row.hardened)),
                    askBefore: row.askBefore, question: row.question)
            })
    }

    @Test func everyLessonAsksThenInspectsItsAnomalyThenShowsTheFix() throws {
        let tour = try TourTests.tour()
        var d = Driver(UIModel(tour: tour))
        for (i, lesson) in tour.lessons.enumerated() {
            #expect(d.model.tour?.index == i && d.model.playFile == lesson.naive.path)
            for _ in 0...lesson.askBefore { d.key(.enter) }  // the steps before, then the one that asks
            guard case .page(.question(let text), _)? = d.model.overlay else {
                Issue.record("\(lesson.type): no question before step \(lesson.askBefore + 1)")
                return
            }
            #expect(text == lesson.question)
            #expect(d.model.player.nextStep == lesson.askBefore, "\(lesson.type): asked before the step runs")
            #expect(d.model.simulation.auditor.anomalies.allSatisfy { $0.type != lesson.type })
            d.key(.enter)  // runs the step
            var presses = 0
            while d.model.tour?.stage != .inspecting && presses < 20 {
                d.key(.enter)
                d.wait(wallMs: 2_000)
                presses += 1
            }
            guard case .inspect(.anomaly(let id), _)? = d.model.overlay,
                let found = d.model.simulation.auditor.anomalies.first(where: { $0.id == id })
            else {
                Issue.record("\(lesson.type): no inspector opened")
                return
            }
            #expect(found.type == lesson.type)
            d.keys("q")
            #expect(d.model.tour?.stage == .comparing && d.model.twin != nil, "\(lesson.type)")
            #expect(d.model.twin?.scenario.policy == lesson.hardened.scenario.policy)
            d.keys("]")
        }
        #expect(d.model.tour?.index == 0, "] after the last lesson comes back to the first")
    }
}

extension TourTests {
    /// `O` in the tour lists the lessons; choosing one starts it (no file is read again).
    @Test func theBrowserInTheTourOpensALesson() throws {
        var d = Driver(UIModel(tour: try TourTests.tour()))
        d.keys("O4")
        #expect(d.effects.isEmpty, "no file to read: \(d.effects)")
        #expect(d.model.tour?.index == 3 && d.model.tour?.stage == .playing)
        #expect(d.model.status?.hasPrefix("lesson 4 of 7: duplicate-receipt") == true, "\(d.model.status ?? "")")
    }
}
