import IAPSimCore

extension UIModel {
    /// The status line's words when nothing else is said: the next event, its time and
    /// what it is. A timer the world has made moot is not announced as if it would act.
    var idleStatus: String {
        guard let next = simulation.nextEvent else { return "no fault armed; nothing scheduled" }
        let inMs = max(0, next.time - simulation.now)
        let when = "\(DurationText.clock(next.time)) (in \(DurationText.age(inMs)))"
        if simulation.moot(next.action) != nil {
            return "no fault armed; nothing due changes the world (at \(when) an old timer runs out: it does nothing)"
        }
        if case .auditCheck = next.action,
            !simulation.auditor.charges.contains(where: {
                simulation.auditor.graceDeadline($0.txn).map { simulation.now < $0 } ?? false
            })
        {
            return "no fault armed; at \(when) the auditor looks again (no charge is waiting)"
        }
        return "no fault armed; next event at \(when): " + next.action.words(in: simulation.policy.storekit)
    }
}
