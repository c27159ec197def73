/// One invariant of the world found not to hold: a value, not a thrown error. The engine
/// asserts there are none after every event in debug builds; the seed sweep asks for them.
package struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
    /// What must always be true of the world, whatever the faults.
    package enum Rule: String, Sendable, Hashable, CaseIterable {
        case balancesEqualCredits = "every balance equals the sum of its account's credits"
        case clawbacksWithinCredits = "no more is clawed back for a transaction than was credited for it"
        case debtOnlyFromClawbacks = "a balance is below zero only by what was clawed back"
        case finishedStaysFinished = "a finished transaction stays finished"
        case finishedIsSettled = "a finished transaction is purchased, failed or restored"
        case chargedIsPurchased = "a transaction is purchased exactly when it was charged"
        case transactionIdsUnique = "transaction ids are unique"
        case requestsHaveTimeouts = "every request in flight has its timeout queued"
        case creditedOnceUnderDedup = "under server-dedup no transaction is credited twice"
        case creditsWerePaid = "every credit names a transaction the App Store charged"
        case ordersMatchCredits = "a credited order names its transaction, a fresh one none"
        case nothingQueuedInThePast = "no event is queued before the clock"
        case auditorSawEveryCharge = "the auditor has a record of every charge, and only those"
    }

    package var rule: Rule
    /// What was seen, naming the transaction, account or exchange.
    package var detail: String
    package var at: VirtualTime

    package var description: String { "t=\(at)ms \(rule.rawValue): \(detail)" }
}
