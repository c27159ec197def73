/// What a checker does with one kind of fact.
package enum FactUse: Sendable, Hashable {
    /// The checker reads facts of this kind: the engine must build and feed them.
    case read
    /// The checker ignores them: the engine may only count them.
    case unused
}

extension Auditor {
    /// The facts the auditor is fed, declared kind by kind. The engine builds, in runs that
    /// keep no log (explore), only the facts some checker reads; the rest are counted. A
    /// switch without `default`: a new kind of fact does not compile until it is declared
    /// here, and `AuditorTests` fails when a kind declared unused would change the auditor.
    package static func use(of kind: Fact.Kind) -> FactUse {
        switch kind {
        case .paymentAdded, .paymentCharged, .transactionsDelivered, .transactionFinished,
            .rechargeSent, .coinsCredited, .rechargeRefused, .alreadyCredited,
            .rechargeAlreadyInFlight, .appLaunched, .appCrashed, .appUninstalled,
            .appBackgrounded, .appForegrounded,
            .purchaseStarted, .purchaseCompletedOutsideApp, .purchaseReturned, .updatesEmitted,
            .unfinishedSwept, .finishCalled, .refundIssued, .coinsClawedBack, .refundReversed, .reversalHeard,
            .coinsRestored, .subscriptionChanged, .accessChanged:
            return .read
        case .listenerStarted, .revocationEmitted, .transactionSigned, .jwsSaved, .jwsDeleted, .jwsChecked,
            .signedReplayPrepared, .forgeryPrepared:
            return .unused
        case .notificationSent, .notificationUnanswered, .notificationDropped, .notificationReceived,
            .notificationUnbound, .serverUnavailable, .refundHeard, .coinsSpent, .historyChecked,
            .reconcileSkipped:
            return .unused
        case .commandIssued, .commandIgnored, .faultArmed, .faultFired, .policyChanged, .noted,
            .observerRegistered,
            .storeScreenOpened, .storeScreenClosed, .userLoggedIn, .userLoggedOut,
            .networkWentOff, .networkCameBack, .purchaseAbandoned, .rechargeWaitingForLogin,
            .receiptSaved, .receiptDeleted, .retryScheduled, .rechargeAnswered,
            .finishFailedError, .finishSkipped, .transactionUpdated, .deferredExpired,
            .receiptVerified, .messageSent, .messageArrived, .messageDropped, .messageUnclaimed,
            .requestFailedOffline, .requestTimedOut, .orderCreated, .replayPrepared,
            .replayUnavailable, .rechargeWaitingForBuyer,
            .ownedProductNotCharged, .askToBuyMerged, .verifyRetriedInSandbox:
            return .unused
        case .anomalyOpened, .anomalyStatusChanged:
            // The auditor's own words: it writes them, it is never fed them.
            return .unused
        }
    }

    /// The kinds `observe` reads: the auditor's subscription, part of its checkers'
    /// (`Checkers.subscription`), which the engine keeps as `Outbox.subscribed`.
    static let subscription = FactKindSet(Fact.Kind.allCases.filter { use(of: $0) == .read })
}
