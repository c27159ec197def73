import IAPSimCore

extension UIModel {
    /// What the next scheduled event is, named from what the log and the snapshots show.
    /// The core exposes only the time of its next event (`Simulation.nextEventTime`); a name
    /// the UI cannot derive is left out rather than guessed.
    func nextEventWords(at time: VirtualTime) -> String? {
        let sim = simulation
        for c in sim.auditor.charges {
            guard let due = sim.auditor.graceDeadline(c.txn) else { continue }
            if time == due || time == due + 1 {
                return "the auditor's grace check of \(c.txn) (charged, not credited)"
            }
        }
        for e in sim.log.suffix(400).reversed() {
            switch e.fact {
            case .retryScheduled(let txn, let inMs, let attempt) where e.time + inMs == time:
                return "retry \(attempt) for \(txn)"
            case .paymentAdded(let txn, let product, _, _, _) where e.time + AppStore.purchaseSheetMs == time:
                return "the App Store answers the purchase sheet of \(txn) (\(product))"
            default: continue
            }
        }
        return nil
    }

    /// The status line's words when nothing else is said: the next event, its time and,
    /// when the UI can tell, what it is.
    var idleStatus: String {
        guard let next = simulation.nextEventTime else { return "no fault armed; nothing scheduled" }
        let inMs = max(0, next - simulation.now)
        let name = nextEventWords(at: next).map { ": \($0)" } ?? ""
        return "no fault armed; next event at \(DurationText.clock(next)) (in \(DurationText.age(inMs)))\(name)"
    }
}
