#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The bounds of every exchange with the user's backend and of the API it calls
// (docs/serve.md, "Limits"): wall-clock limits and sizes, so that a slow, silent or hostile
// backend or client can never hang, spin or flood iapsim.
package enum ServeLimits {
    /// A notification V2 counts as delivered only when answered 200-206 within this (wall) time.
    package static var notificationAnswerSeconds: Int64 { capped(10) }
    /// `--spawn`: how long `GET /healthz` may take to answer before exit 3.
    package static var healthzWaitSeconds: Int64 { capped(30) }
    /// A tick's answer is awaited this long (wall time).
    package static var tickAnswerSeconds: Int64 { capped(60) }
    /// `--spawn`: SIGTERM to the group, then SIGKILL after this long.
    package static var spawnKillGraceSeconds: Int64 { capped(5) }
    /// `--api-listen`: the API must listen within this long, else exit 3.
    package static var apiListenSeconds: Int64 { capped(10) }
    /// An API connection that carries no request for this long is closed (a client's pool
    /// opens a new one): idle connections never hold the API.
    package static var apiIdleSeconds: Int64 { capped(30) }

    /// The API accepts at most this many connections at once; more wait in the listen
    /// queue until one closes.
    package static let apiMaxConnections = 512
    /// The App Store Server API lookalike: a request body larger than this is answered 413.
    package static let maxAPIRequestBytes = 1 << 20
    /// The largest number of coins, either sign, a ledger answer may state in one place (an
    /// account's balance, a clawback's or restore's coins): a 1 MB answer holds at most some
    /// 30,000 rows, so every sum the world makes of them stays far inside 64 bits.
    package static let maxLedgerCoins = 1_000_000_000_000

    /// For tests only: `IAPSIM_SERVE_TEST_SECONDS=N` caps every wall-clock bound above at N
    /// seconds, so that a test of a bound takes seconds, not minutes (the defaults are the
    /// ones docs/serve.md states).
    static let testCap: Int64? = getenv("IAPSIM_SERVE_TEST_SECONDS").flatMap { Int64(String(cString: $0)) }

    static func capped(_ seconds: Int64) -> Int64 {
        guard let cap = testCap, cap > 0 else { return seconds }
        return min(cap, seconds)
    }
}
