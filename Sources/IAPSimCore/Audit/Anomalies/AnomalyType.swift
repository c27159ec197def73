/// The auditor's anomaly types, each with what it means (the one table that the transcript,
/// the `--log` export, the UI and the docs read). Which settings prevent an anomaly is not a
/// table: the replays find it for each one (`WhatIf`).
package enum AnomalyType: String, Sendable, Hashable, CaseIterable, Comparable {
    case lostOrder = "lost-order"
    case missedOrder = "missed-order"
    case replayFraud = "replay-fraud"
    case duplicateReceipt = "duplicate-receipt"
    case doubleCredit = "double-credit"
    case wrongAccount = "wrong-account"
    /// Coins credited for a charge that was refunded and not taken back (docs/world.md).
    case refundUnclawed = "refund-unclawed"
    /// The mirror of `refund-unclawed`: more taken back than the refund gave back.
    case refundOverclawed = "refund-overclawed"
    /// `iapsim serve`: the backend said success and no credit row followed (docs/serve.md, rule 19).
    case ackedNotCredited = "acked-not-credited"
    /// `iapsim serve`: a balance moved with no ledger row (docs/serve.md, rule 18).
    case ledgerMismatch = "ledger-mismatch"
    /// Subscriptions (docs/world.md, "The auditor"): the merchant server's access (G) and
    /// Apple's entitlement (E) differ for longer than the auditor's grace period.
    case accessAfterEnd = "access-after-end"
    case accessAfterRevoke = "access-after-revoke"
    case renewalUnserved = "renewal-unserved"
    case graceCut = "grace-cut"
    /// A promotional offer signed for an account that never subscribed in its group.
    case promoIneligible = "promo-ineligible"

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What an anomaly is about, and so who finds it: a charge and its credits, a refund,
    /// a subscriber's entitlement timeline, or the user's backend under `iapsim serve`.
    package enum Family: Sendable, Hashable {
        case charge, refund, subscription, served
    }

    /// The type's family: an exhaustive switch, so a new type must say which it is.
    package var family: Family {
        switch self {
        case .lostOrder, .missedOrder, .replayFraud, .duplicateReceipt, .doubleCredit, .wrongAccount: return .charge
        case .refundUnclawed, .refundOverclawed: return .refund
        // A promotional offer's misuse is about a subscriber and its paid periods, as these.
        case .accessAfterEnd, .accessAfterRevoke, .renewalUnserved, .graceCut, .promoIneligible: return .subscription
        case .ackedNotCredited, .ledgerMismatch: return .served
        }
    }

    /// The types of the entitlement timeline, about a subscriber rather than a charge.
    package var isSubscription: Bool { family == .subscription }
}

extension AnomalyType {
    /// The types only `iapsim serve` finds (the user's backend and its ledger).
    package var servedOnly: Bool { family == .served }

    /// The types of the simulated world: what explore, the matrix and the findings list.
    package static let simulatedWorld = allCases.filter { !$0.servedOnly }

    /// One line a trainee reads first.
    package var meaning: String {
        switch self {
        case .lostOrder:
            return
                "the App Store charged, but the app never handled the transaction (killed during the purchase, or no observer to receive the redelivery)"
        case .missedOrder:
            return
                "the app got `purchased`, but the server never credited it (request or answer lost, app quit, no retry left)"
        case .replayFraud:
            return
                "someone sent an old valid receipt with a fresh order; a server that checks only \"receipt valid, order exists\" credits again"
        case .duplicateReceipt:
            return
                "an under-credit by wrong pairing: the order was paired with another (stale) transaction, so the real payment went uncredited (not a double delivery: that is double-credit)"
        case .doubleCredit:
            return "one charge was credited more than once (a retransmission or a redelivery credited again)"
        case .wrongAccount:
            return
                "the purchase was credited to an account other than the buyer's (a subscription: its access granted to an account that never subscribed)"
        case .refundUnclawed:
            return
                "Apple refunded the charge, but the coins credited for it were not taken back (the server never heard of the refund, or kept the coins); before a refund, answering CONSUMPTION_REQUEST with consumption information is the lever"
        case .refundOverclawed:
            return
                "the customer lost more than the refund gave back: a full clawback on a prorated refund, or a clawback not restored after REFUND_REVERSED"
        case .ackedNotCredited:
            return
                "`iapsim serve`: the backend answered a notification or a report with success, and no credit row followed within the grace period (Apple will not send it again)"
        case .ledgerMismatch:
            return
                "`iapsim serve`: an account's balance in the backend's ledger moved with no credit, clawback or restore row"
        case .accessAfterEnd:
            return
                "the merchant server grants a subscriber access that Apple no longer entitles: past its expiry, past its grace period, or during billing retry without grace (to an account that never subscribed it is wrong-account)"
        case .accessAfterRevoke:
            return
                "the merchant server grants access to a subscription period Apple refunded (also when a late DID_RENEW grants it again), or to a family member after REVOKE (Family Sharing ended)"
        case .renewalUnserved:
            return
                "Apple charged a subscription (a renewal, a recovery from billing retry, a purchase) and entitles the customer, but the merchant server grants no access"
        case .graceCut:
            return
                "the subscription is in its billing grace period, so Apple still entitles the customer, but the merchant server cut access at expiresDate"
        case .promoIneligible:
            return
                "the merchant server signed a promotional offer for an account that never subscribed in the offer's group (promotional offers are for existing or lapsed subscribers; a new customer's discount is the introductory offer): the discount is revenue given away"
        }
    }

    /// `meaning` in the names of `world`: StoreKit 2 has `purchase()` and
    /// `Transaction.updates`, not an observer, and a signed transaction, not a receipt.
    package func meaning(in world: StoreKitWorld) -> String {
        guard world == .two else { return meaning }
        switch self {
        case .lostOrder:
            return
                "the App Store charged, but the app never handled the transaction (killed during purchase(), or no Transaction.updates listener when it was emitted)"
        case .missedOrder:
            return
                "purchase() returned .success, but the server never credited it (request or answer lost, app quit, no retry left)"
        case .replayFraud:
            return
                "someone sent a jwsRepresentation nobody paid for again (a genuine one replayed, or a forged one) with a fresh order; a server that checks only \"signature valid, order exists\" credits again"
        case .duplicateReceipt:
            return "StoreKit 1 only: an order paired with a stale transaction; StoreKit 2 has no pairing by position"
        case .doubleCredit, .wrongAccount, .refundUnclawed, .refundOverclawed, .ackedNotCredited, .ledgerMismatch,
            .accessAfterEnd, .accessAfterRevoke, .renewalUnserved, .graceCut, .promoIneligible:
            return meaning
        }
    }
}
