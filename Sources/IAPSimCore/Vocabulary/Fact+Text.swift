extension Fact {
    /// One line in StoreKit's and the domain's own words, for logs and the Events panel.
    package var text: String {
        switch self {
        case .commandIssued(let c): return "> \(c.scenarioText)"
        case .commandIgnored(let c, let why): return "> \(c.scenarioText) ignored: \(why)"
        case .faultArmed(let what): return "fault armed: \(what)"
        case .faultFired(let what): return "fault fired: \(what)"
        case .policyChanged(let change): return change.text
        case .noted(let what): return what
        case .appLaunched(let fresh): return fresh ? "app launched (fresh install)" : "app launched"
        case .appCrashed: return "app process died: memory, timers and callbacks gone"
        case .appUninstalled: return "app uninstalled: files and login gone, keychain kept"
        case .appBackgrounded: return "app moved to the background: no code runs, timers wait"
        case .appForegrounded: return "app returned to the foreground"
        case .observerRegistered: return "SKPaymentQueue.default().add(observer)"
        case .storeScreenOpened: return "store screen opened"
        case .storeScreenClosed: return "store screen closed"
        case .userLoggedIn(let u): return "\(u) logged in"
        case .userLoggedOut(let u): return "\(u) logged out"
        case .networkWentOff: return "device offline"
        case .networkCameBack: return "device back online"
        case .purchaseAbandoned(let p, let why): return "purchase of \(p) abandoned: \(why)"
        case .paymentAdded(let txn, let p, let name, let user, let order):
            let who = order.map { "\(user), order \($0)" } ?? user
            return "SKPaymentQueue.add(SKPayment(\(p), applicationUsername: \(short(name)))) -> \(txn) [\(who)]"
        case .rechargeWaitingForLogin(let txn): return "recharge for \(txn) waits for a login"
        case .rechargeWaitingForBuyer(let txn, let buyer, let user):
            return "recharge for \(txn) waits for its buyer \(buyer) (\(user) is logged in)"
        case .rechargeSent(let txn, let order, let user, let reason, _):
            return "POST /recharge \(txn) order \(order ?? "-") uid \(user) (\(reason.words))"
        case .rechargeAlreadyInFlight(let txn, let delivered):
            return "recharge for \(delivered) not sent: its order was paired with \(txn), already in flight"
        case .receiptSaved(let txn, let tier): return "receipt for \(txn) saved to \(tier.rawValue)"
        case .receiptDeleted(let txn, let tier, let why):
            return "receipt for \(txn) deleted from \(tier.rawValue): \(why)"
        case .retryScheduled(let txn, let ms, let n):
            return "retry \(n) for \(txn) in \(DurationText.format(ms))"
        case .rechargeAnswered(let txn, let outcome): return "recharge \(txn) answered: \(outcome.words)"
        case .transactionFinished(let txn): return "finishTransaction(\(txn))"
        case .finishFailedError(let txn, let why): return "finishTransaction(\(txn)) error: \(why)"
        case .finishSkipped(let txn, let why): return "\(txn) left unfinished: \(why)"
        case .transactionUpdated(let txn, let p, .failed):
            return "\(txn) \(p) -> failed (transactionIdentifier \(StoreTransaction.noIdentifier))"
        case .transactionUpdated(let txn, let p, let state): return "\(txn) \(p) -> \(state.rawValue)"
        case .paymentCharged(let txn, let p, let price): return "charged \(formatMoney(price)) for \(p) (\(txn))"
        case .ownedProductNotCharged(let txn, let p, let original):
            return "\(p) already owned: \(txn) purchased at no charge (original \(original))"
        case .askToBuyMerged(let txn, let p):
            return "Ask to Buy: request for \(p) merged into the pending \(txn)"
        case .transactionsDelivered(let txns, let again):
            return
                "paymentQueue(_:updatedTransactions:) [\(IdList.text(txns))]\(again ? " (redelivery)" : "")"
        case .deferredExpired(let txn): return "Ask to Buy for \(txn) expired unanswered (no callback)"
        case .receiptVerified(let status, let n):
            return "verifyReceipt: \(status) \(VerifyStatus.words(status)), \(n) in_app"
        case .messageSent(let id, let route, let dir, let bytes, let sender):
            return
                "#\(id) \(route.rawValue) \(dir.rawValue) sent (\(bytes) B\(sender == .attacker ? ", attacker" : ""))"
        case .messageArrived(let id, let route, let dir, let ms):
            return "#\(id) \(route.rawValue) \(dir.rawValue) arrived after \(ms)ms"
        case .messageDropped(let id, let route, let dir): return "#\(id) \(route.rawValue) \(dir.rawValue) lost"
        case .messageUnclaimed(let id, let route, let dir, let ms):
            return "#\(id) \(route.rawValue) \(dir.rawValue) arrived after \(ms)ms to a receiver that is gone: lost"
        case .requestFailedOffline(let route): return "\(route.rawValue) request failed: offline"
        case .requestTimedOut(let id, let route): return "#\(id) \(route.rawValue) request timed out"
        case .orderCreated(let order, let user, let p, let token, _):
            return "order \(order) for \(user): \(p), token \(short(token))"
        case .coinsCredited(let user, let coins, let p, let txn, let order, let sender, _):
            let what = coins > 0 ? "+\(coins) coins" : "\(p) unlocked"
            return "\(what) to \(user) for \(txn) (order \(order ?? "-"))\(sender == .attacker ? " [attacker]" : "")"
        case .rechargeRefused(let txn, let why, _): return "recharge \(txn) refused: \(why)"
        case .verifyRetriedInSandbox(let txn):
            return "verifyReceipt for \(txn): 21007, retried against the sandbox"
        case .alreadyCredited(let txn, _): return "recharge \(txn): already credited"
        case .replayPrepared(let txn): return "replaying the receipt of \(txn) on a fresh order"
        case .replayUnavailable: return "nothing to replay: the server has accepted no receipt yet"
        case .listenerStarted, .purchaseStarted, .purchaseReturned, .purchaseCompletedOutsideApp,
            .updatesEmitted, .revocationEmitted, .unfinishedSwept, .transactionSigned, .finishCalled, .jwsSaved,
            .jwsDeleted, .jwsChecked, .signedReplayPrepared, .forgeryPrepared:
            return storeKit2Text
        case .refundIssued, .refundReversed, .reversalHeard, .coinsRestored, .notificationSent, .notificationUnanswered,
            .notificationDropped,
            .notificationReceived, .notificationUnbound, .serverUnavailable, .refundHeard,
            .coinsClawedBack, .coinsSpent, .historyChecked, .reconcileSkipped:
            return serverSideText
        case .subscriptionChanged, .accessChanged:
            return subscriptionText
        case .anomalyOpened(let id, let type, _, let status, let summary):
            return "A\(id) \(type.rawValue) \(status.rawValue): \(summary)"
        case .anomalyStatusChanged(let id, let type, let status, let mechanism):
            return "A\(id) \(type.rawValue) -> \(status.rawValue)\(mechanism.map { ": \($0)" } ?? "")"
        }
    }

    func short(_ token: String?) -> String {
        guard let token else { return "nil" }
        return token.count > 8 ? String(token.prefix(8)) + "…" : token
    }
}

extension LogEntry {
    /// `0:00:02.080  StoreKit         1000000000001 coins_100 -> purchased`
    package var line: String {
        let partName = part.rawValue
        let text = fact.text
        var line = DurationText.clock(time)
        line.reserveCapacity(line.utf8.count + 20 + text.utf8.count)
        line += "  "
        line += partName
        for _ in partName.count..<max(partName.count, 16) { line += " " }
        line += " "
        line += text
        return line
    }
}

/// A list of transaction ids as the transcript writes it: whole while it is short (every
/// shipped scenario's lists are), else its count, its first and its last id, so that a
/// flood of purchases waiting at once does not make each line as long as the flood.
package enum IdList {
    /// The longest list written whole.
    package static let shownWhole = 100

    package static func text(_ ids: [String]) -> String {
        guard ids.count > shownWhole, let first = ids.first, let last = ids.last else {
            return ids.joined(separator: ", ")
        }
        return "\(ids.count) ids: \(first), ..., \(last)"
    }
}
