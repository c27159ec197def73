import IAPSimCore
import IAPSimScenario

/// One lesson of `iapsim learn`: an anomaly type, the naive file that shows it, the
/// hardened file that fixes it, and the question asked before the step that decides it.
package struct Lesson: Sendable, Hashable {
    package var type: AnomalyType
    package var naive: ScenarioFile
    package var hardened: ScenarioFile
    /// The 0-based step before which the question is asked.
    package var askBefore: Int
    package var question: String

    package init(type: AnomalyType, naive: ScenarioFile, hardened: ScenarioFile, askBefore: Int, question: String) {
        self.type = type
        self.naive = naive
        self.hardened = hardened
        self.askBefore = askBefore
        self.question = question
    }

    /// The tour's plan: file names and questions, one row per anomaly type, in teaching order.
    package static let plan: [(type: AnomalyType, naive: String, hardened: String, askBefore: Int, question: String)] =
        [
            (
                .lostOrder, "lost-order-crash-at-charge-naive.yaml", "lost-order-crash-at-charge-hardened.yaml", 2,
                "The App Store charged Alice, and the app died before its observer heard of it. "
                    + "She opens the app again a minute later. Will her 100 coins arrive?"
            ),
            (
                .missedOrder, "missed-order-request-lost-naive.yaml", "missed-order-offline-hardened.yaml", 2,
                "Alice buys 100 coins. This app calls finishTransaction at once, and its POST /recharge is "
                    + "about to be lost in a tunnel. Will anything send that receipt again?"
            ),
            (
                .replayFraud, "replay-fraud-naive.yaml", "replay-fraud-blocked-hardened.yaml", 1,
                "Mallory bought 100 coins honestly. Now, through a proxy, she sends the same receipt again "
                    + "with a fresh order. The receipt is genuine: will the server credit it a second time?"
            ),
            (
                .duplicateReceipt, "duplicate-receipt-unfinished-failure-naive.yaml",
                "duplicate-receipt-token-match-hardened.yaml", 2,
                "Alice cancelled the purchase sheet: her payment failed, and this app never finishes a failed "
                    + "transaction, so it stays in the queue. She buys again. Which transaction will the app send "
                    + "with the new order?"
            ),
            (
                .doubleCredit, "double-credit-crash-before-finish-naive.yaml", "double-credit-prevented-hardened.yaml",
                2,
                "Alice's POST /recharge has left, and the app died before finishTransaction. She reopens the "
                    + "app and opens the store, where StoreKit delivers the unfinished transaction again. "
                    + "What will the server do with it?"
            ),
            (
                .wrongAccount, "wrong-account-switch-before-delivery-naive.yaml",
                "wrong-account-order-owner-hardened.yaml",
                4,
                "Alice paid, the app died, and now Bob logs in on the same phone before StoreKit redelivers. "
                    + "Who will get the coins Alice paid for?"
            ),
            (
                .refundUnclawed, "server-refund-unclawed-naive.yaml", "server-refund-clawed-back-hardened.yaml", 2,
                "Apple is about to refund Alice's purchase. Her coins are on the merchant server. "
                    + "Will anyone take them back?"
            ),
            (
                .graceCut, "sub-grace-cut-naive.yaml", "sub-grace-cut-hardened.yaml", 4,
                "Alice subscribes to Pro monthly, and her card will fail at the renewal. This app has a "
                    + "16-day billing grace period: Apple keeps retrying, and keeps her entitled meanwhile. "
                    + "Will the server let her in during those days?"
            ),
        ]
}

/// Where a lesson stands: played up to the question, asked, its anomaly inspected, or
/// shown beside the fix.
package enum LessonStage: Sendable, Hashable {
    case playing, asked, inspecting, comparing
}

/// The guided tour of `iapsim learn`.
package struct Tour: Sendable, Hashable {
    package var lessons: [Lesson]
    package var index = 0
    package var stage = LessonStage.playing

    package init(lessons: [Lesson]) { self.lessons = lessons }

    package var lesson: Lesson { lessons[index] }
}

extension UIModel {
    /// `iapsim learn`: the first lesson's naive file, played with its question.
    package init(tour: Tour, options: UIOptions = UIOptions()) {
        let first = tour.lesson.naive
        self.init(play: first.scenario, file: first.path, options: options)
        self.tour = tour
        playlist = tour.lessons.map(\.naive.path)
        status = lessonIntro
    }

    /// The status line as a lesson starts: its number only (its anomaly's name would answer
    /// the question; the reveal names it).
    var lessonIntro: String {
        guard let tour else { return "" }
        return "lesson \(tour.index + 1) of \(tour.lessons.count): watch; a question comes before the step "
            + "that decides it. Enter runs each step; ] next lesson"
    }

    /// Before the decisive step: the question, once, with the clock stopped. True when asked.
    /// Enter does not wait for the clock: what the steps before still have to do (a
    /// purchase's charge and credit) runs first, so that the question is about what the
    /// screen shows.
    mutating func askIfDue() -> Bool {
        guard var t = tour, t.stage == .playing, player.nextStep >= t.lesson.askBefore else { return false }
        runToQuestion()
        t.stage = .asked
        tour = t
        paused = true
        overlay = .page(.question(t.lesson.question), scroll: 0)
        return true
    }

    /// What the Auditor panel shows until the lesson's question is answered.
    static let auditorHeldBack: [Line] = [
        [Span("held back until you have answered the lesson's question", Style(.dim))],
        [Span("(its money and findings would answer it)", Style(.dim))],
    ]

    /// The lesson before its question is answered: its title, story and file name would give
    /// the answer away, so they are held back.
    var lessonHoldsBack: Tour? {
        guard let t = tour, t.stage == .playing || t.stage == .asked else { return nil }
        return t
    }

    /// A lesson whose next step decides it: once its question is due, the clock waits for
    /// Enter, whatever its speed, so that nothing decides the question before that step runs.
    var lessonWaitsForDecidingStep: Bool {
        guard let t = tour, player.nextStep == t.lesson.askBefore else { return false }
        return t.stage == .asked || (t.stage == .playing && lessonReadyToAsk)
    }

    /// The deciding step is next and the steps before have done what they started: it is
    /// due; or it waits for an event (`when`: the clock may not run towards it); or nothing
    /// the world has scheduled before its time changes anything (the first event is after
    /// it, or moot: a delivery with no observer, a dead process's timer).
    var lessonReadyToAsk: Bool {
        guard let t = tour, player.nextStep >= t.lesson.askBefore else { return false }
        guard result == nil, !player.nextStepIsDue, let time = player.nextStepTime else { return true }
        guard let next = simulation.nextEvent, next.time < time else { return true }
        return simulation.moot(next.action) != nil
    }

    /// Runs the world, event by event, as its clock would, to where the lesson's question is
    /// due; never into the deciding step (the player stops before a step's trigger).
    mutating func runToQuestion() {
        var events = 0
        while !lessonReadyToAsk, simulation.nextEventTime != nil, events < 10_000 {
            let moved = player.advance(until: Int.max / 2, maxEvents: 1, watch: armed?.event)
            events += 1
            if moved.watchFired { fireArmed() }
            if moved.stepDue { playState.waitForStep() }
        }
    }

    /// After each message: once the step before the decisive one has run, the question, with
    /// the clock stopped whatever its speed (nothing may happen before it is asked); once it
    /// is asked and the lesson's anomaly appears, the clock stops and its inspector opens,
    /// with what caused it and what prevents it worked out by replay.
    mutating func watchLesson() {
        guard var t = tour, overlay == nil else { return }
        if t.stage == .playing, result == nil, lessonReadyToAsk {
            _ = askIfDue()
            return
        }
        guard t.stage == .asked, player.nextStep > t.lesson.askBefore || result != nil,
            let found = simulation.auditor.anomalies.first(where: { $0.type == t.lesson.type })
        else { return }
        t.stage = .inspecting
        tour = t
        paused = true
        workOutWhatIf()
        overlay = .inspect(.anomaly(id: found.id), scroll: 0)
        status = "the auditor found \(t.lesson.type.rawValue): read why, then Esc shows the fix beside it"
    }

    /// The inspector closed: the same steps under the hardened file's policy, beside this run.
    mutating func lessonInspectorClosed() {
        guard var t = tour, t.stage == .inspecting else { return }
        t.stage = .comparing
        tour = t
        startTwin(policy: t.lesson.hardened.scenario.policy)
        paused = false
        let name = t.lesson.hardened.path.split(separator: "/").last.map(String.init) ?? t.lesson.hardened.path
        status = "the fix beside it: the same steps under \(name)'s policy (right); G to the end, ] next lesson"
    }

    /// `]` / `[` during the tour: the next or previous lesson, from the files already read.
    mutating func openLesson(by delta: Int) {
        guard var t = tour else { return }
        t.index = ((t.index + delta) % t.lessons.count + t.lessons.count) % t.lessons.count
        t.stage = .playing
        let file = t.lesson.naive
        var fresh = UIModel(play: file.scenario, file: file.path, options: options)
        fresh.keepView(of: self)
        fresh.split.close()
        fresh.tour = t
        self = fresh
        status = lessonIntro
    }
}
