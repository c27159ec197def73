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
            // The steps before; once the last has done what it started (the clock runs on),
            // the question.
            for _ in 0..<lesson.askBefore { d.key(.enter) }
            for _ in 0..<30 where d.model.overlay == nil { d.wait(wallMs: 1_000) }
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
        #expect(d.model.status?.hasPrefix("lesson 4 of 8: watch") == true, "\(d.model.status ?? "")")
        #expect(d.model.status?.contains("duplicate-receipt") == false, "the status names no anomaly before the reveal")
    }
    /// What a question may say only when its file does it: a phrase, and the commands one of
    /// which the file's steps must hold.
    static let claims: [(phrase: String, holds: @Sendable (Command) -> Bool)] = [
        ("died", { $0 == .crash }),
        (
            "lost",
            {
                if case .networkFault(.dropNextRequest) = $0 {
                    true
                } else if case .networkFault(.dropNextResponse) = $0 {
                    true
                } else {
                    false
                }
            }
        ),
        ("logs in", { if case .login = $0 { true } else { false } }),
        ("refund", { if case .refundLoop(.refund) = $0 { true } else { false } }),
        ("opens the app", { $0 == .launch }),
        ("opens the store", { $0 == .openStore }),
        ("card will fail", { $0 == .billingFail(on: true) }),
        ("subscribes", { if case .buy(let p) = $0 { p.hasPrefix("pro_") || p.hasPrefix("plus_") } else { false } }),
        (
            "payment failed",
            {
                if case .storeFault(.failNextPayment) = $0 {
                    true
                } else if case .storeFault(.failNextPaymentUnfinished) = $0 {
                    true
                } else {
                    false
                }
            }
        ),
        ("sends the same receipt", { $0 == .replay }),
        ("At launch StoreKit", { _ in false }),
    ]

    @Test func everyQuestionNamesOnlyItsFilesUsersAndStatesOnlyWhatItsFileDoes() throws {
        let names = ["Alice", "Bob", "Mallory", "Carol", "Dave", "Eve"]
        for lesson in try TourTests.tour().lessons {
            let scenario = lesson.naive.scenario
            for name in names where lesson.question.contains(name) {
                #expect(scenario.users.contains(name.lowercased()), "\(lesson.type): \(name) is not a user of the file")
            }
            #expect(
                scenario.users.contains { lesson.question.contains($0.capitalized) },
                "\(lesson.type): the question names none of the file's users")
            for claim in Self.claims where lesson.question.contains(claim.phrase) {
                #expect(
                    scenario.steps.contains { claim.holds($0.command) },
                    "\(lesson.type): '\(claim.phrase)' but the file has no such step")
            }
        }
    }

    @Test func theClockStopsBeforeTheDecidingStepAndRAsksAgain() throws {
        var d = Driver(UIModel(tour: try TourTests.tour()))
        d.key(.enter)  // buy
        d.wait(wallMs: 3_000)
        d.key(.enter)  // crash when charged
        guard case .page(.question, _)? = d.model.overlay else {
            Issue.record("no question right after the step before the deciding one")
            return
        }
        d.key(.escape)
        d.keys("+++")
        d.wait(wallMs: 60_000)
        #expect(d.model.player.nextStep == 2, "the deciding step has not run")
        #expect(d.model.tour?.stage == .asked, "no inspector before the deciding step")
        d.key(.enter)  // launch
        d.wait(wallMs: 60_000)
        #expect(d.model.tour?.stage == .inspecting)
        let screen = d.screen().text
        #expect(screen.contains("caused by: step 2: crash"), "\(screen)")
        #expect(screen.contains("prevented by: observer launch"), "\(screen)")
        d.key(.escape)
        d.keys("Ry")
        #expect(d.model.tour?.stage == .playing)
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.key(.enter)
        guard case .page(.question, _)? = d.model.overlay else {
            Issue.record("R did not re-arm the question")
            return
        }
    }

    @Test func theStoryTitleAndFileNameWaitForTheReveal() throws {
        let d = Driver(UIModel(tour: try TourTests.tour()))
        let screen = d.screen().text
        let lesson = try TourTests.tour().lessons[0]
        #expect(!screen.contains(lesson.naive.scenario.title))
        #expect(!screen.contains("lost-order-crash-at-charge-naive"))
        #expect(!screen.contains(String(lesson.naive.scenario.story?.prefix(30) ?? "-")))
    }
}
