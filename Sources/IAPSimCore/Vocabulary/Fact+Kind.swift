extension Fact {
    /// A fact's case without its payload: one per case of `Fact`, in the same order. What
    /// checkers declare they read, and what a bit set of facts holds.
    package enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        case commandIssued, commandIgnored, faultArmed, faultFired, policyChanged, noted, appLaunched
        case appCrashed, appUninstalled, appBackgrounded, appForegrounded, observerRegistered
        case storeScreenOpened, storeScreenClosed
        case userLoggedIn, userLoggedOut, networkWentOff, networkCameBack, purchaseAbandoned
        case paymentAdded, rechargeWaitingForLogin, rechargeWaitingForBuyer, rechargeSent
        case rechargeAlreadyInFlight
        case receiptSaved, receiptDeleted
        case retryScheduled, rechargeAnswered, transactionFinished, finishFailedError
        case finishSkipped, transactionUpdated, paymentCharged, ownedProductNotCharged
        case askToBuyMerged, transactionsDelivered
        case deferredExpired, receiptVerified, messageSent, messageArrived, messageDropped
        case messageUnclaimed
        case requestFailedOffline, requestTimedOut, orderCreated, coinsCredited, rechargeRefused
        case verifyRetriedInSandbox, alreadyCredited, replayPrepared, replayUnavailable
        case listenerStarted, purchaseStarted, purchaseReturned, purchaseCompletedOutsideApp
        case updatesEmitted, revocationEmitted, unfinishedSwept, transactionSigned, finishCalled, jwsSaved, jwsDeleted
        case jwsChecked, signedReplayPrepared, forgeryPrepared
        case refundIssued, refundReversed, reversalHeard, coinsRestored, notificationSent, notificationUnanswered,
            notificationDropped
        case notificationReceived, notificationUnbound, serverUnavailable, refundHeard
        case coinsClawedBack, coinsSpent, historyChecked, reconcileSkipped
        case subscriptionChanged, accessChanged
        case anomalyOpened, anomalyStatusChanged
    }

    /// This fact's kind. A switch without `default`: a new case of `Fact` does not compile
    /// until it has its kind.
    @inline(__always)
    package var kind: Kind {
        switch self {
        case .commandIssued: return .commandIssued
        case .commandIgnored: return .commandIgnored
        case .faultArmed: return .faultArmed
        case .faultFired: return .faultFired
        case .policyChanged: return .policyChanged
        case .noted: return .noted
        case .appLaunched: return .appLaunched
        case .appCrashed: return .appCrashed
        case .appUninstalled: return .appUninstalled
        case .appBackgrounded: return .appBackgrounded
        case .appForegrounded: return .appForegrounded
        case .observerRegistered: return .observerRegistered
        case .storeScreenOpened: return .storeScreenOpened
        case .storeScreenClosed: return .storeScreenClosed
        case .userLoggedIn: return .userLoggedIn
        case .userLoggedOut: return .userLoggedOut
        case .networkWentOff: return .networkWentOff
        case .networkCameBack: return .networkCameBack
        case .purchaseAbandoned: return .purchaseAbandoned
        case .paymentAdded: return .paymentAdded
        case .rechargeWaitingForLogin: return .rechargeWaitingForLogin
        case .rechargeWaitingForBuyer: return .rechargeWaitingForBuyer
        case .rechargeSent: return .rechargeSent
        case .rechargeAlreadyInFlight: return .rechargeAlreadyInFlight
        case .receiptSaved: return .receiptSaved
        case .receiptDeleted: return .receiptDeleted
        case .retryScheduled: return .retryScheduled
        case .rechargeAnswered: return .rechargeAnswered
        case .transactionFinished: return .transactionFinished
        case .finishFailedError: return .finishFailedError
        case .finishSkipped: return .finishSkipped
        case .transactionUpdated: return .transactionUpdated
        case .paymentCharged: return .paymentCharged
        case .ownedProductNotCharged: return .ownedProductNotCharged
        case .askToBuyMerged: return .askToBuyMerged
        case .transactionsDelivered: return .transactionsDelivered
        case .deferredExpired: return .deferredExpired
        case .receiptVerified: return .receiptVerified
        case .messageSent: return .messageSent
        case .messageArrived: return .messageArrived
        case .messageDropped: return .messageDropped
        case .messageUnclaimed: return .messageUnclaimed
        case .requestFailedOffline: return .requestFailedOffline
        case .requestTimedOut: return .requestTimedOut
        case .orderCreated: return .orderCreated
        case .coinsCredited: return .coinsCredited
        case .rechargeRefused: return .rechargeRefused
        case .verifyRetriedInSandbox: return .verifyRetriedInSandbox
        case .alreadyCredited: return .alreadyCredited
        case .replayPrepared: return .replayPrepared
        case .replayUnavailable: return .replayUnavailable
        case .listenerStarted: return .listenerStarted
        case .purchaseStarted: return .purchaseStarted
        case .purchaseReturned: return .purchaseReturned
        case .purchaseCompletedOutsideApp: return .purchaseCompletedOutsideApp
        case .updatesEmitted: return .updatesEmitted
        case .revocationEmitted: return .revocationEmitted
        case .unfinishedSwept: return .unfinishedSwept
        case .transactionSigned: return .transactionSigned
        case .finishCalled: return .finishCalled
        case .jwsSaved: return .jwsSaved
        case .jwsDeleted: return .jwsDeleted
        case .jwsChecked: return .jwsChecked
        case .signedReplayPrepared: return .signedReplayPrepared
        case .forgeryPrepared: return .forgeryPrepared
        case .refundIssued: return .refundIssued
        case .refundReversed: return .refundReversed
        case .reversalHeard: return .reversalHeard
        case .coinsRestored: return .coinsRestored
        case .notificationSent: return .notificationSent
        case .notificationUnanswered: return .notificationUnanswered
        case .notificationDropped: return .notificationDropped
        case .notificationReceived: return .notificationReceived
        case .notificationUnbound: return .notificationUnbound
        case .serverUnavailable: return .serverUnavailable
        case .refundHeard: return .refundHeard
        case .coinsClawedBack: return .coinsClawedBack
        case .coinsSpent: return .coinsSpent
        case .historyChecked: return .historyChecked
        case .reconcileSkipped: return .reconcileSkipped
        case .subscriptionChanged: return .subscriptionChanged
        case .accessChanged: return .accessChanged
        case .anomalyOpened: return .anomalyOpened
        case .anomalyStatusChanged: return .anomalyStatusChanged
        }
    }
}
