import IAPSimCore
import Testing

@testable import IAPSimTUI

/// Issue 52 (review N6, N8): a lesson's question comes once the steps before it have done
/// what they started, never after the step it asks about; while it waits, nothing on the
/// screen answers it and the header says the clock waits.
@Suite struct LessonQuestionTests {
    /// Lesson 3 (replay fraud), its first step played: the question is about Mallory's
    /// honest purchase, so it comes once that purchase is charged and credited, and before
    /// the replay.
    static func lessonThreeAsked(enterAgain: Bool) throws -> Driver {
        var d = Driver(UIModel(tour: try TourTests.tour()))
        d.keys("]]")
        d.key(.enter)  // buy coins_100
        if enterAgain {
            d.key(.enter)  // the class does not wait for the clock
        } else {
            #expect(d.model.overlay == nil, "no question while the purchase is on its way")
            #expect(d.model.clockRunning, "the clock runs the purchase on")
            for _ in 0..<30 where d.model.overlay == nil { d.wait(wallMs: 1_000) }
        }
        return d
    }

    @Test(arguments: [false, true])
    func lessonThreeAsksOnceTheHonestPurchaseIsCredited(_ enterAgain: Bool) throws {
        let d = try Self.lessonThreeAsked(enterAgain: enterAgain)
        guard case .page(.question(let text), _)? = d.model.overlay else {
            Issue.record("no question")
            return
        }
        #expect(text.hasPrefix("Mallory bought 100 coins honestly"))
        let sim = d.model.simulation
        #expect(sim.server.balance(of: "mallory") == 100, "credited before the question")
        #expect(sim.store.transactions.count == 1 && sim.store.transactions[0].chargedAt != nil, "charged")
        #expect(d.model.player.nextStep == 1, "the replay has not run")
        #expect(!sim.log.contains { if case .commandIssued(.replay) = $0.fact { true } else { false } })
        #expect(sim.auditor.anomalies.isEmpty)
        let screen = d.screen().text
        #expect(screen.contains("WAITING: answer"), "\(screen)")
    }

    /// Lesson 6 (wrong account): the auditor has found the lost order before the question;
    /// Events hold its lines back as the Auditor panel does. After Esc the header says the
    /// clock waits, and the clock does not move whatever the speed.
    @Test func whileTheQuestionWaitsEventsHoldTheAuditorBackAndTheHeaderSaysSo() throws {
        var d = Driver(UIModel(tour: try TourTests.tour()))
        d.keys("]]]]]")
        for _ in 0..<4 { d.key(.enter) }
        guard case .page(.question, _)? = d.model.overlay else {
            Issue.record("no question after 4 steps")
            return
        }
        #expect(!d.model.simulation.auditor.anomalies.isEmpty, "the auditor has found something to hold back")
        d.key(.escape)
        let now = d.model.simulation.now
        d.keys("+++")
        d.wait(wallMs: 5_000)
        #expect(d.model.simulation.now == now, "the clock waits for the question's step")
        for (w, h) in [(120, 40), (80, 24)] {
            let screen = d.screen(w, h).text
            #expect(screen.contains("WAITING: answer") && !screen.contains("RUNNING"), "\(w)x\(h): \(screen)")
            #expect(screen.contains("held back until you have answered"), "\(w)x\(h): \(screen)")
            #expect(!screen.contains("lost-order") && !screen.contains("wrong-account"), "\(w)x\(h): \(screen)")
        }
        // Walkthrough 5, F2: once the step asked about has run, the Auditor waits for the
        // finding, no longer for an answer.
        d.key(.enter)
        #expect(d.model.tour?.stage == .asked, "the wrong account opens later than the step asked about")
        let answered = d.screen().text
        #expect(!answered.contains("until you have answered"), "\(answered)")
        #expect(answered.contains("held back until the auditor finds what the question was about"), "\(answered)")
        // The steps: once the lesson's anomaly opens its inspector, Events show the auditor's lines.
        for _ in 0..<20 where d.model.tour?.stage != .inspecting {
            d.key(.enter)
            d.wait(wallMs: 2_000)
        }
        #expect(d.model.tour?.stage == .inspecting)
        let content = PanelContent(sim: d.model.simulation, glyphs: d.model.glyphs, ascii: false, width: 118)
        let rows = d.model.eventRows(content)
        #expect(!rows.contains { if case .heldBack = $0 { true } else { false } })
        let lines = content.events(rows, notes: d.model.notes, count: 500, offsetFromBottom: 0)
        #expect(lines.contains { $0.map(\.text).joined().contains("lost-order") })
    }

    /// Walkthrough 5: in `learn` the footer's `]` is the next lesson, as its status line
    /// says, not the next file.
    @Test func theFootersBracketIsTheNextLessonInLearn() throws {
        let learn = Driver(UIModel(tour: try TourTests.tour())).model.footerEntries
        #expect(learn.contains { $0.keys == ["]"] && $0.word == "next lesson" }, "\(learn)")
        #expect(!learn.contains { $0.word == "next file" }, "\(learn)")
    }

    /// Lesson 1: the crash leaves StoreKit's delivery due at once, to an app that is not
    /// running. The status line says it delivers nothing, not that it delivers.
    @Test func aDeliveryToACrashedAppIsNotAnnouncedAsOne() throws {
        var d = Driver(UIModel(tour: try TourTests.tour()))
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.key(.enter)  // crash when charged: the question
        let sim = d.model.simulation
        guard let next = sim.nextEvent, case .storeDeliver = next.action else {
            Issue.record("expected StoreKit's delivery next: \(String(describing: sim.nextEvent))")
            return
        }
        #expect(
            sim.moot(next.action) == "the app is not running: nothing is delivered, the transaction stays unfinished")
        d.key(.escape)
        let status = d.screen().text
        #expect(status.contains("the clock waits for the step") && !status.contains("to the observer"), "\(status)")
    }
}
