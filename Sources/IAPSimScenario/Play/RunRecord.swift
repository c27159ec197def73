import IAPSimCore

/// One thing a scenario run reports, in the order it happened: the narration, the steps
/// as they start, the world's log entries, and how the run ended. Transcripts, JSON Lines
/// and diagrams are all written from a list of these.
package enum RunRecord: Sendable, Hashable {
    /// The scenario's `story`, before anything happens.
    case story(String)
    /// Step `number` (1-based) starts: its trigger has fired at `time`; its `say` follows.
    case stepStarted(number: Int, step: Step, time: VirtualTime)
    /// A fact the world logged.
    case entry(LogEntry)
    /// A `when` step whose event did not come in time; the run stops there.
    case stepTimedOut(StepTimeout)
    /// The run settled after the last step; `complete` is false when the 24h bound was hit
    /// with work still scheduled.
    case settled(time: VirtualTime, complete: Bool)
}

/// A `when` step whose event did not happen within its limit.
package struct StepTimeout: Sendable, Hashable, CustomStringConvertible {
    package var number: Int
    package var step: Step
    package var event: TriggerEvent
    package var within: VirtualTime
    /// The virtual time at which the run gave up.
    package var time: VirtualTime

    /// `step 2 (line 14): 'when: charged' did not happen within 10m; the run stops here`
    package var description: String {
        "step \(number) (line \(step.line)): 'when: \(event.rawValue)' did not happen within "
            + "\(DurationText.format(within)); the run stops here"
    }
}
