/// Read-only views of the world for UIs: what a panel shows, derived, never stored twice.
extension World {
    /// The log entries written since the log held `count` entries in all (`logCount`),
    /// oldest first. Correct with a bounded log as long as fewer than `logLimit` entries
    /// were written since.
    package func entries(since count: Int) -> ArraySlice<LogEntry> {
        let n = min(log.count, max(0, logCount - count))
        return log.suffix(n)
    }
}
