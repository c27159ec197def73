import IAPSimCore

extension UIModel {
    /// The status line's words when nothing else is said: the next event, its time and
    /// what it is.
    var idleStatus: String {
        guard let next = simulation.nextEvent else { return "no fault armed; nothing scheduled" }
        let inMs = max(0, next.time - simulation.now)
        return "no fault armed; next event at \(DurationText.clock(next.time)) (in \(DurationText.age(inMs))): "
            + (simulation.moot(next.action) ?? next.action.words(in: simulation.policy.storekit))
    }
}
