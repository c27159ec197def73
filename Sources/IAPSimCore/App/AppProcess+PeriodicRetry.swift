/// The periodic retry (`retry-interval`) and its back-off (`retry-max-interval`): while no
/// round gets a definite answer, each round waits twice as long as the one before, up to the
/// cap; a definite answer, or a launch, brings it back to `retry-interval`.
///
/// The timer always ticks at `retry-interval`; a tick that comes before a backed-off round
/// is due waits out the rest. So a definite answer in the first `retry-interval` after a
/// round brings the next one back at once, and a timer left when nothing is pending fires
/// as soon as it would without a back-off.
extension AppProcess {
    mutating func armPeriodic(_ out: inout Outbox) {
        guard isRunning, !periodicArmed, let interval = out.policy.retryIntervalMs,
            hasReachablePending
        else { return }
        periodicArmed = true
        out.after(interval, .appPeriodicRetry(incarnation: incarnation))
    }

    mutating func periodicDue(store: inout AppStore, _ out: inout Outbox) {
        periodicArmed = false
        guard hasReachablePending, let base = out.policy.retryIntervalMs else { return }
        let cap = out.policy.retryMaxIntervalMs
        let interval = Self.periodicInterval(base, cap: cap, doublings: periodicDoublings)
        let due = periodicLastRoundAt + interval
        if interval > base && out.now < due {
            periodicArmed = true
            periodicBackedOffMs = UInt32(clamping: interval)
            out.after(due - out.now, .appPeriodicRetry(incarnation: incarnation))
            return
        }
        // The previous round has had `retry-interval` to be answered (a request times out
        // after 10 s): when nothing got a definite answer since, the next round waits twice
        // as long, up to the cap.
        if periodicUnanswered, let cap, interval < cap { periodicDoublings += 1 }
        periodicUnanswered = true
        periodicLastRoundAt = out.now
        periodicCount += 1
        let reason = SendReason.periodicRetry(periodicCount, backedOffMs: periodicBackedOffMs)
        periodicBackedOffMs = 0
        resendAll(reason, store: &store, &out)
        armPeriodic(&out)
    }

    /// `retry-interval` doubled `doublings` times, never above `cap` (nor below `base`).
    static func periodicInterval(_ base: VirtualTime, cap: VirtualTime?, doublings: Int) -> VirtualTime {
        guard let cap, cap > base else { return base }
        var interval = base
        for _ in 0..<doublings where interval < cap { interval *= 2 }
        return min(interval, cap)
    }

    /// A recharge got a definite answer, or the process is new: the next round comes
    /// `retry-interval` after the last.
    mutating func resetPeriodicBackOff() {
        periodicDoublings = 0
        periodicUnanswered = false
    }
}
