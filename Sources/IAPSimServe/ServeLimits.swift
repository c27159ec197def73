// The bounds of every exchange with the user's backend (docs/server-api.md): wall-clock limits, so
// that a slow, silent or hostile backend can never hang or flood iapsim.
package enum ServeLimits {
    /// A notification V2 counts as delivered only when answered 200-206 within this (wall) time.
    package static let notificationAnswerSeconds: Int64 = 10
    /// `--spawn`: how long `GET /healthz` may take to answer before exit 3.
    package static let healthzWaitSeconds: Int64 = 30
    /// A tick's answer is awaited this long (wall time).
    package static let tickAnswerSeconds: Int64 = 60
    /// `--spawn`: SIGTERM to the group, then SIGKILL after this long.
    package static let spawnKillGraceSeconds: Int64 = 5
}
