/// What a request's sender saw of the outcome of one network exchange.
package enum MessageFate: String, Sendable, Hashable {
    case inFlight = "in flight"
    case delivered
    case dropped
    case timedOut = "timed out"
    case offline = "failed: offline"
    case lost = "lost (receiver gone)"
    /// Arrived where no part listens: under serve, the launch-time appTransactionId report
    /// (your backend gets the id in `POST /orders`).
    case unheard = "no receiver"
}
