extension Fact {
    /// One line in StoreKit's and the domain's own words, for logs and the Events panel.
    package var text: String {
        let bytes = FactTextBytes()
        writeText(to: bytes)
        return bytes.text
    }

    /// Appends `text` to `out`, piece by piece: the lines every run writes many times in
    /// pieces (the `--log` export escapes the bytes straight into its line), the rare ones
    /// as one string.
    package func writeText(to out: FactTextBytes) {
        switch self {
        case .commandIssued(let c):
            out.write("> ")
            out.write(string: c.scenarioText)
        case .commandIgnored(let c, let why): out.write(string: "> \(c.scenarioText) ignored: \(why)")
        case .faultArmed(let what): out.write(string: "fault armed: \(what)")
        case .faultFired(let what): out.write(string: "fault fired: \(what)")
        case .policyChanged(let change): out.write(string: change.text)
        case .noted(let what): out.write(string: what)
        case .appLaunched(let fresh): out.write(fresh ? "app launched (fresh install)" : "app launched")
        case .appCrashed: out.write("app process died: memory, timers and callbacks gone")
        case .appUninstalled: out.write("app uninstalled: files and login gone, keychain kept")
        case .appBackgrounded: out.write("app moved to the background: no code runs, timers wait")
        case .appForegrounded: out.write("app returned to the foreground")
        case .observerRegistered: out.write("SKPaymentQueue.default().add(observer)")
        case .storeScreenOpened: out.write("store screen opened")
        case .storeScreenClosed: out.write("store screen closed")
        case .userLoggedIn(let u): out.write(string: "\(u) logged in")
        case .userLoggedOut(let u): out.write(string: "\(u) logged out")
        case .networkWentOff: out.write("device offline")
        case .networkCameBack: out.write("device back online")
        case .purchaseAbandoned(let p, let why): out.write(string: "purchase of \(p) abandoned: \(why)")
        case .paymentAdded(let txn, let p, let name, let user, let order):
            out.write("SKPaymentQueue.add(SKPayment(", p, ", applicationUsername: ")
            out.write(short: name)
            out.write(")) -> ", txn, " [")
            writeBuyer(user, order, to: out)
        case .rechargeWaitingForLogin(let txn): out.write(string: "recharge for \(txn) waits for a login")
        case .rechargeWaitingForBuyer(let txn, let buyer, let user):
            out.write(string: "recharge for \(txn) waits for its buyer \(buyer) (\(user) is logged in)")
        case .rechargeSent(let txn, let order, let user, let reason, _):
            out.write("POST /recharge ", txn, " order ")
            out.write("", order ?? "-", " uid ")
            out.write("", user, " (")
            out.write("", reason.words, ")")
        case .rechargeAlreadyInFlight(let txn, let delivered):
            out.write(string: "recharge for \(delivered) not sent: its order was paired with \(txn), already in flight")
        case .receiptSaved(let txn, let tier):
            out.write("receipt for ", txn, " saved to ")
            out.write(string: tier.rawValue)
        case .receiptDeleted(let txn, let tier, let why):
            out.write("receipt for ", txn, " deleted from ")
            out.write("", tier.rawValue, ": ")
            out.write(string: why)
        case .retryScheduled(let txn, let ms, let n):
            out.write(string: "retry \(n) for \(txn) in \(DurationText.format(ms))")
        case .rechargeAnswered(let txn, let outcome):
            out.write("recharge ", txn, " answered: ")
            out.write(string: outcome.words)
        case .transactionFinished(let txn):
            out.write("finishTransaction(", txn, ")")
        case .finishFailedError(let txn, let why): out.write(string: "finishTransaction(\(txn)) error: \(why)")
        case .finishSkipped(let txn, let why): out.write(string: "\(txn) left unfinished: \(why)")
        case .transactionUpdated(let txn, let p, .failed):
            out.write(string: "\(txn) \(p) -> failed (transactionIdentifier \(StoreTransaction.noIdentifier))")
        case .transactionUpdated(let txn, let p, let state):
            out.write("", txn, " ")
            out.write("", p, " -> ")
            out.write(string: state.rawValue)
        case .paymentCharged(let txn, let p, let price):
            out.write("charged ", formatMoney(price), " for ")
            out.write("", p, " (")
            out.write("", txn, ")")
        case .ownedProductNotCharged(let txn, let p, let original):
            out.write(string: "\(p) already owned: \(txn) purchased at no charge (original \(original))")
        case .askToBuyMerged(let txn, let p):
            out.write(string: "Ask to Buy: request for \(p) merged into the pending \(txn)")
        case .transactionsDelivered(let txns, let again):
            out.write("paymentQueue(_:updatedTransactions:) [")
            out.write(ids: txns)
            out.write(again ? "] (redelivery)" : "]")
        case .deferredExpired(let txn): out.write(string: "Ask to Buy for \(txn) expired unanswered (no callback)")
        case .receiptVerified(let status, let n):
            out.write("verifyReceipt: ")
            out.write(number: status)
            out.write(" ")
            out.write(string: VerifyStatus.words(status))
            out.write(", ")
            out.write(number: n)
            out.write(" in_app")
        case .messageSent(let id, let route, let dir, let bytes, let sender):
            out.write(message: id, route, dir)
            out.write(" sent (")
            out.write(number: bytes)
            out.write(sender == .attacker ? " B, attacker)" : " B)")
        case .messageArrived(let id, let route, let dir, let ms):
            out.write(message: id, route, dir)
            out.write(" arrived after ")
            out.write(number: ms)
            out.write("ms")
        case .messageDropped(let id, let route, let dir):
            out.write(message: id, route, dir)
            out.write(" lost")
        case .messageUnclaimed(let id, let route, let dir, let ms):
            out.write(message: id, route, dir)
            out.write(" arrived after ")
            out.write(number: ms)
            out.write("ms to a receiver that is gone: lost")
        case .requestFailedOffline(let route): out.write(string: "\(route.rawValue) request failed: offline")
        case .requestTimedOut(let id, let route): out.write(string: "#\(id) \(route.rawValue) request timed out")
        case .orderCreated(let order, let user, let p, let token, _):
            out.write("order ", order, " for ")
            out.write("", user, ": ")
            out.write("", p, ", token ")
            out.write(short: token)
        case .coinsCredited(let user, let coins, let p, let txn, let order, let sender, _):
            if coins > 0 {
                out.write("+")
                out.write(number: coins)
                out.write(" coins to ")
            } else {
                out.write("", p, " unlocked to ")
            }
            out.write("", user, " for ")
            out.write("", txn, " (order ")
            out.write("", order ?? "-", sender == .attacker ? ") [attacker]" : ")")
        case .rechargeRefused(let txn, let why, _): out.write(string: "recharge \(txn) refused: \(why)")
        case .verifyRetriedInSandbox(let txn):
            out.write(string: "verifyReceipt for \(txn): 21007, retried against the sandbox")
        case .alreadyCredited(let txn, _):
            out.write("recharge ", txn, ": already credited")
        case .replayPrepared(let txn): out.write(string: "replaying the receipt of \(txn) on a fresh order")
        case .replayUnavailable: out.write("nothing to replay: the server has accepted no receipt yet")
        case .listenerStarted, .purchaseStarted, .purchaseReturned, .purchaseCompletedOutsideApp,
            .updatesEmitted, .revocationEmitted, .unfinishedSwept, .transactionSigned, .finishCalled, .jwsSaved,
            .jwsDeleted, .jwsChecked, .signedReplayPrepared, .forgeryPrepared:
            writeStoreKit2Text(to: out)
        case .refundIssued, .refundReversed, .reversalHeard, .coinsRestored, .notificationSent, .notificationUnanswered,
            .notificationDropped,
            .notificationReceived, .notificationUnbound, .serverUnavailable, .refundHeard,
            .coinsClawedBack, .coinsSpent, .historyChecked, .reconcileSkipped:
            writeServerSideText(to: out)
        case .subscriptionChanged, .accessChanged:
            out.write(string: subscriptionText)
        case .anomalyOpened(let id, let type, _, let status, let summary):
            out.write(string: "A\(id) \(type.rawValue) \(status.rawValue): \(summary)")
        case .anomalyStatusChanged(let id, let type, let status, let mechanism):
            out.write(string: "A\(id) \(type.rawValue) -> \(status.rawValue)\(mechanism.map { ": \($0)" } ?? "")")
        }
    }

    /// `alice]`, or `alice, order o1]`: who a purchase is for, and the bracket that closes it.
    func writeBuyer(_ user: String, _ order: String?, to out: FactTextBytes) {
        out.write(string: user)
        if let order {
            out.write(", order ")
            out.write(string: order)
        }
        out.write("]")
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
