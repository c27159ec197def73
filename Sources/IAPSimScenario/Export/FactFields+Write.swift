import IAPSimCore

/// A fact's `kind` and fields written straight into a log line: the same members, in the
/// same order and with the same values as `FactFields.of` reads by reflection (a switch
/// here costs a few hundred instructions a line, reflection about fifty thousand;
/// `FactFieldsWriterTests` holds the two equal for every fact of every shipped scenario).
/// A new case of `Fact` does not compile until it is written here.
extension JSONLineWriter {
    /// The case names of `Fact`, by `Fact.Kind` (the same names, in the same order).
    static let kindNames = Fact.Kind.allCases.map { String(describing: $0) }

    func add(_ fact: Fact) {
        append(members.kind(fact.kind))
        switch fact {
        case .appCrashed, .appUninstalled, .appBackgrounded, .appForegrounded, .observerRegistered,
            .storeScreenOpened, .storeScreenClosed, .networkWentOff, .networkCameBack, .replayUnavailable,
            .listenerStarted:
            return
        case .commandIssued(let command): add("command", command)
        case .commandIgnored(let command, let reason):
            add("command", command)
            add("reason", reason)
        case .faultArmed(let what), .faultFired(let what), .noted(let what): add("what", what)
        case .policyChanged(let change):
            add("key", change.keyWord)
            add("value", change.valueWord)
        case .appLaunched(let freshInstall): add("freshInstall", freshInstall)
        case .userLoggedIn(let user), .userLoggedOut(let user): add("user", user)
        case .purchaseAbandoned(let product, let reason):
            add("product", product)
            add("reason", reason)
        case .paymentAdded(let txn, let product, let applicationUsername, let user, let order):
            add("txn", txn)
            add("product", product)
            add("applicationUsername", applicationUsername)
            add("user", user)
            add("order", order)
        case .rechargeWaitingForLogin(let txn), .transactionFinished(let txn), .deferredExpired(let txn),
            .verifyRetriedInSandbox(let txn), .replayPrepared(let txn), .revocationEmitted(let txn),
            .finishCalled(let txn), .signedReplayPrepared(let txn), .refundReversed(let txn):
            add("txn", txn)
        case .rechargeWaitingForBuyer(let txn, let buyer, let loggedIn):
            add("txn", txn)
            add("buyer", buyer)
            add("loggedIn", loggedIn)
        case .rechargeSent(let txn, let order, let user, let reason, let forDelivered):
            add("txn", txn)
            add("order", order)
            add("user", user)
            add("reason", reason)
            add("forDelivered", forDelivered)
        case .rechargeAlreadyInFlight(let txn, let forDelivered):
            add("txn", txn)
            add("forDelivered", forDelivered)
        case .receiptSaved(let txn, let tier), .jwsSaved(let txn, let tier):
            add("txn", txn)
            add("tier", tier)
        case .receiptDeleted(let txn, let tier, let why), .jwsDeleted(let txn, let tier, let why):
            add("txn", txn)
            add("tier", tier)
            add("why", why)
        case .retryScheduled(let txn, let inMs, let attempt):
            add("txn", txn)
            add("inMs", inMs)
            add("attempt", attempt)
        case .rechargeAnswered(let txn, let outcome):
            add("txn", txn)
            add("outcome", outcome)
        case .finishFailedError(let txn, let reason), .finishSkipped(let txn, let reason),
            .notificationUnbound(let txn, let reason):
            add("txn", txn)
            add("reason", reason)
        case .transactionUpdated(let txn, let product, let state):
            add("txn", txn)
            add("product", product)
            add("state", state)
        case .paymentCharged(let txn, let product, let priceCents):
            add("txn", txn)
            add("product", product)
            add("priceCents", priceCents)
        case .ownedProductNotCharged(let txn, let product, let original):
            add("txn", txn)
            add("product", product)
            add("original", original)
        case .askToBuyMerged(let txn, let product):
            add("txn", txn)
            add("product", product)
        case .transactionsDelivered(let txns, let redelivery):
            add("txns", txns)
            add("redelivery", redelivery)
        case .receiptVerified(let status, let entries):
            add("status", status)
            add("entries", entries)
        case .messageSent(let id, let route, let direction, let bytes, let sender):
            addMessage(id, route, direction)
            add("bytes", bytes)
            add("sender", sender)
        case .messageArrived(let id, let route, let direction, let latencyMs),
            .messageUnclaimed(let id, let route, let direction, let latencyMs):
            addMessage(id, route, direction)
            add("latencyMs", latencyMs)
        case .messageDropped(let id, let route, let direction): addMessage(id, route, direction)
        case .requestFailedOffline(let route): add("route", route)
        case .serverUnavailable(let route): add("route", route)
        case .requestTimedOut(let id, let route):
            add("id", id)
            add("route", route)
        case .orderCreated(let order, let user, let product, let token, let sender):
            add("order", order)
            add("user", user)
            add("product", product)
            add("token", token)
            add("sender", sender)
        case .coinsCredited(let user, let coins, let product, let txn, let order, let sender, let via):
            add("user", user)
            add("coins", coins)
            add("product", product)
            add("txn", txn)
            add("order", order)
            add("sender", sender)
            add("via", via)
        case .rechargeRefused(let txn, let reason, let sender):
            add("txn", txn)
            add("reason", reason)
            add("sender", sender)
        case .alreadyCredited(let txn, let sender):
            add("txn", txn)
            add("sender", sender)
        case .purchaseStarted(let txn, let product, let appAccountToken, let user, let order):
            add("txn", txn)
            add("product", product)
            add("appAccountToken", appAccountToken)
            add("user", user)
            add("order", order)
        case .purchaseReturned(let txn, let product, let result):
            add("txn", txn)
            add("product", product)
            add("result", result)
        case .purchaseCompletedOutsideApp(let txn, let product, let user, let order):
            add("txn", txn)
            add("product", product)
            add("user", user)
            add("order", order)
        case .updatesEmitted(let txns, let launchReplay):
            add("txns", txns)
            add("launchReplay", launchReplay)
        case .unfinishedSwept(let txns): add("txns", txns)
        case .transactionSigned(let s), .forgeryPrepared(let s): add("transaction", FactFields.signed(s))
        case .jwsChecked(let txn, let signer, let verified):
            add("txn", txn)
            add("signer", signer)
            add("verified", verified)
        case .refundIssued(let txn, let product, let priceCents, let percent):
            add("txn", txn)
            add("product", product)
            add("priceCents", priceCents)
            add("percent", percent)
        case .reversalHeard(let txn, let outcome), .refundHeard(let txn, let outcome):
            add("txn", txn)
            add("outcome", outcome)
        case .coinsRestored(let user, let coins, let txn, let balance),
            .coinsClawedBack(let user, let coins, let txn, let balance):
            add("user", user)
            add("coins", coins)
            add("txn", txn)
            add("balance", balance)
        case .notificationSent(let n): add("notification", FactFields.notification(n))
        case .notificationUnanswered(let uuid, let type, let txn, let retryInMs):
            addNotification(uuid, type, txn)
            add("retryInMs", retryInMs)
        case .notificationDropped(let uuid, let type, let txn): addNotification(uuid, type, txn)
        case .notificationReceived(let uuid, let type, let txn, let attempt):
            addNotification(uuid, type, txn)
            add("attempt", attempt)
        case .coinsSpent(let user, let coins, let balance):
            add("user", user)
            add("coins", coins)
            add("balance", balance)
        case .historyChecked(let lookup, let transactions):
            add("lookup", lookup)
            add("transactions", transactions)
        case .reconcileSkipped(let reason): add("reason", reason)
        // A struct without labels of its own: reflection's `value` and its description.
        case .subscriptionChanged(let note): add("value", String(describing: note))
        case .accessChanged(let user, let productId, let until, let why):
            add("user", user)
            add("productId", productId)
            add("until", until)
            add("why", why)
        case .anomalyOpened(let id, let type, let txn, let status, let summary):
            add("id", id)
            add("type", type)
            add("txn", txn)
            add("status", status)
            add("summary", summary)
        case .anomalyStatusChanged(let id, let type, let status, let mechanism):
            add("id", id)
            add("type", type)
            add("status", status)
            add("mechanism", mechanism)
        }
    }

    /// `,"text":"…"`: the fact's words (`Fact.text`), written as bytes into memory the
    /// writer reuses (no string per fact), then escaped into the line.
    func addText(_ fact: Fact) {
        factText.removeAll()
        fact.writeText(to: factText)
        key("text")
        append(0x22)
        escaped(factText.bytes)
        append(0x22)
    }

    private func addMessage(_ id: Int, _ route: Route, _ direction: Direction) {
        add("id", id)
        add("route", route)
        add("direction", direction)
    }

    private func addNotification(_ uuid: String, _ type: NotificationType, _ txn: String) {
        add("uuid", uuid)
        add("type", type)
        add("txn", txn)
    }

    // The payload values as `FactFields.value` writes them.

    func add(_ name: StaticString, _ value: String?) {
        guard let value else { return addNull(name) }
        add(name, value)
    }

    func add(_ name: StaticString, _ value: Int?) {
        guard let value else { return addNull(name) }
        add(name, value)
    }

    func add(_ name: StaticString, _ values: [String]) {
        key(name)
        append(0x5B)  // [
        for (k, value) in values.enumerated() {
            if k > 0 { append(0x2C) }
            quote(value)
        }
        append(0x5D)  // ]
    }

    /// A string enum as its raw value.
    func add<Value: RawRepresentable<String>>(_ name: StaticString, _ value: Value) {
        add(name, value.rawValue)
    }

    /// Send reasons, recharge answers, purchase results: in words.
    func add(_ name: StaticString, _ value: some Worded) { add(name, value.words) }

    /// A command as its scenario text.
    func add(_ name: StaticString, _ command: Command) { add(name, command.scenarioText) }

    func add(_ name: StaticString, _ value: JSONValue) {
        key(name)
        value.write(to: self)
    }

    private func addNull(_ name: StaticString) {
        key(name)
        append("null")
    }
}
