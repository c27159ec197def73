import IAPSimCore

extension UIModel {
    /// The status line's words when nothing else is said: the next event, its time and
    /// what it is. A timer the world has made moot is not announced as if it would act.
    var idleStatus: String {
        // A lesson's question is due: the clock holds (the header says WAITING: answer).
        if lessonWaitsForDecidingStep, result == nil {
            return "the clock waits for the step the question asks about: Enter runs it"
        }
        let next = simulation.nextEvent
        if let end = simulation.auditor.nextGraceEnd, end < next?.time ?? .max {
            // The auditor's own clock: a look, not an event of the world.
            let inMs = max(0, end - simulation.now)
            return
                "no fault armed; the auditor's next look at \(DurationText.clock(end)) (in \(DurationText.age(inMs))): "
                + "a grace period ends" + (next == nil ? "; the world has nothing scheduled" : "")
        }
        guard let next else { return "no fault armed; nothing scheduled" }
        let inMs = max(0, next.time - simulation.now)
        let when = "\(DurationText.clock(next.time)) (in \(DurationText.age(inMs)))"
        if let moot = simulation.moot(next.action) {
            guard case .storeDeliver = next.action else {
                // A timer of a request already answered or of a process gone: nothing to say of it.
                return "no fault armed; nothing due changes the world"
            }
            return "no fault armed; at \(when) StoreKit would deliver, but \(moot)"
        }
        return "no fault armed; next event at \(when): " + next.action.words(in: simulation.policy.storekit)
    }
}
