/// `merchant: external` (docs/serve.md): the messages on the routes `order`, `recharge` and
/// `notify` are not handled by the simulated merchant server but handed to the user's
/// backend through `external`; the world waits for each answer (virtual time stands still)
/// and turns the backend's ledger into the facts the verdict already reads.
extension World {
    /// True for a request the backend answers: orders, reports and notifications.
    static func goesToBackend(_ m: borrowing Message) -> Bool {
        guard m.direction == .request else { return false }
        switch m.payload {
        case .orderRequest, .rechargeRequest, .notification: return true
        case .orderResponse, .rechargeResponse, .verifyRequest, .verifyResponse, .notificationResponse,
            .historyRequest, .historyResponse, .unavailable, .appTransactionReport, .consumptionInfo, .apiError,
            .statusRequest, .statusResponse:
            return false
        }
    }

    /// The appTransactionId an app's login-time report carries, if `m` is one.
    static func appTransactionReport(_ m: borrowing Message) -> String? {
        guard m.direction == .request, case .appTransactionReport(_, let id) = m.payload else { return nil }
        return id
    }

    /// A report sent before the backend was attached (the launch at time 0): your backend
    /// has no such endpoint (it gets the id in `POST /orders`), so no one keeps it and no
    /// simulated server says it did.
    mutating func arriveUnserved(_ m: consuming Message, id: String) {
        let (message, sentAt) = (m.id, m.sentAt)
        network.arrived(m, receiverAlive: true, &outbox)
        network.setFate(message, .unheard, latency: outbox.now - sentAt)
        outbox.log(
            .network,
            .noted(
                "appTransactionId \(id) report: under serve no one receives it (your backend gets it in POST /orders)"))
    }

    /// Asks the backend; the world stands still meanwhile.
    mutating func askBackend(_ request: ExternalRequest) -> ExternalReply {
        guard let link = external else { return ExternalReply(.done("no backend")) }
        let reply = link.merchant.exchange(request, world: self)
        for call in reply.apiCalls { outbox.log(.appStore, .noted("App Store Server API: " + call)) }
        for change in reply.tokenChanges where store.setAppAccountToken(change) == nil {
            outbox.log(
                .appStore,
                .noted(
                    "Set App Account Token: \(change.original) and its renewals carry appAccountToken "
                        + change.token))
        }
        if let line = reply.line { outbox.log(.server, .noted("backend: " + line)) }
        if let ledger = reply.ledger { external?.ledger = ledger }
        if !reply.calls.isEmpty {
            let at = now
            external?.calls += reply.calls.map { (at, $0) }
            if let n = external?.calls.count, n > ExternalLink.callLimit {
                external?.calls.removeFirst(n - ExternalLink.callLimit)
            }
        }
        return reply
    }

    /// An order, a report or a notification reached the backend's door.
    mutating func arriveExternal(_ m: Message) {
        network.arrived(m, receiverAlive: true, &outbox)
        switch m.payload {
        case .orderRequest(let user, let product):
            let reply = askBackend(.order(user: user, loggedIn: app.loggedIn, product: product, sender: m.sender))
            applyLedger(reply.ledger, sender: m.sender, via: .firstDelivery)
            guard case .order(let id, let token) = reply.outcome else {
                if case .orderRefused(let why) = reply.outcome {
                    outbox.log(.server, .noted("no order for \(user) (\(product)): \(why)"))
                }
                return outbox.send(.order, .response, m.sender, exchange: m.exchange, .unavailable)
            }
            server.recordExternalOrder(id: id, user: user, product: product, token: token, sender: m.sender, &outbox)
            outbox.send(
                .order, .response, m.sender, exchange: m.exchange,
                .orderResponse(order: id, token: token, product: product))
        case .rechargeRequest(let r):
            let reply = askBackend(.report(r, loggedIn: app.loggedIn, sender: m.sender))
            var answer = RechargeAnswer.retryLater("the backend gave no answer")
            if case .report(let a) = reply.outcome { answer = a }
            let txn = r.transactionId
            switch answer {
            case .refused(let why):
                outbox.log(.server, .rechargeRefused(txn: txn, reason: why, sender: m.sender))
                if reply.refusedStatus != nil, isGenuine(r, sender: m.sender) {
                    external?.refusedReports.append((txn, why))
                }
            case .alreadyCredited: outbox.log(.server, .alreadyCredited(txn: txn, sender: m.sender))
            case .credited, .retryLater: break
            }
            applyLedger(reply.ledger, sender: m.sender, via: r.reason)
            if case .credited = answer { acknowledged(txn, user: r.uid, sender: m.sender, via: r.reason) }
            if case .alreadyCredited = answer { acknowledged(txn, user: r.uid, sender: m.sender, via: r.reason) }
            outbox.send(
                .recharge, .response, m.sender, exchange: m.exchange,
                .rechargeResponse(answer, transactionId: txn))
        case .notification(let n):
            let txn = n.transaction.transactionId
            let reply = askBackend(.notification(n))
            var status = 0
            if case .notification(let s) = reply.outcome { status = s }
            // Received means answered 200-206 (the trigger `notified`); else Apple retries.
            if (200...206).contains(status) {
                outbox.log(.server, .notificationReceived(uuid: n.uuid, type: n.type, txn: txn, attempt: n.attempt))
            }
            applyLedger(reply.ledger, sender: .app, via: .notification)
            if (200...206).contains(status), n.type == .oneTimeCharge {
                acknowledged(txn, user: nil, sender: .app, via: .notification)
            }
            if (200...206).contains(status), n.type == .refund || n.type == .refundReversed {
                outbox.notes.append((.newsAcknowledged(txn: txn, type: n.type, status: status), outbox.facts.count))
            }
            outbox.send(.notify, .response, .app, exchange: m.exchange, .notificationResponse(status: status))
        case .orderResponse, .rechargeResponse, .verifyRequest, .verifyResponse, .notificationResponse,
            .historyRequest, .historyResponse, .unavailable, .appTransactionReport, .consumptionInfo, .apiError,
            .statusRequest, .statusResponse:
            break
        }
    }

    /// True for a report the backend has no reason to refuse: the app's own, of a transaction
    /// the App Store charged and signed and has not refunded.
    func isGenuine(_ r: RechargeRequest, sender: Sender) -> Bool {
        guard sender == .app, let signed = r.signed, signed.signer == .appStore,
            let t = store.transaction(r.transactionId)
        else { return false }
        return t.chargedAt != nil && t.refundedAt == nil
    }

    /// The backend said it credited `txn` (a report answered credited or already-credited,
    /// a `ONE_TIME_CHARGE` answered 200-206): the verdict waits for its row (rule 19), told by a
    /// note (`OnlookerNote.acknowledged`). Blind,
    /// there is no row to wait for: the answer is taken as the credit.
    mutating func acknowledged(_ txn: String, user: String?, sender: Sender, via: SendReason) {
        // A re-purchase of an owned non-consumable carries the original's id and took no money;
        // a subscription's access is not a credit row (its timeline is not judged under serve).
        guard let link = external, let t = store.transaction(txn), t.chargedAt != nil, t.refundedAt == nil,
            t.originalId == nil, t.subscription == nil
        else { return }
        if link.blind {
            guard !server.isCredited(txn), let product = config.catalog.product(t.productId) else { return }
            let buyer = link.buyers[txn] ?? user ?? "?"
            return server.credit(
                user: buyer, product: product, txn: txn, order: nil, sender: sender, via: via, receipt: nil,
                out: &outbox)
        }
        outbox.notes.append((.acknowledged(txn: txn), outbox.facts.count))
    }

    /// A blind backend keeps no ledger: the world notes who paid for each charge of the
    /// event's facts, to credit what the backend acknowledges (`acknowledged`).
    mutating func notePayers() {
        guard var link = external, link.blind else { return }
        link.notePayers(outbox.facts)
        external = link
    }

    /// Turns the rows that appeared since the last snapshot into facts, and finds balances
    /// that moved with no row (`ledger-mismatch`).
    mutating func applyLedger(_ snapshot: LedgerSnapshot?, sender: Sender, via: SendReason) {
        guard var link = external, let snapshot, !link.blind else { return }
        for row in snapshot.credits.dropFirst(link.seenCredits) {
            let productId = row.productId ?? store.transaction(row.transactionId)?.productId
            guard let product = productId.flatMap(config.catalog.product) else {
                outbox.log(.server, .noted("ledger: credit row of \(row.transactionId) names no known product"))
                continue
            }
            // The signed transaction the backend credited, as the attacker may later replay it.
            let signed = store.transaction(row.transactionId).flatMap { store.signedForAPI($0, now: now) }
            // The order its token names (the backend's own, `ord-1`): credited now, as the
            // Events and the inspector say.
            let order = store.transaction(row.transactionId)?.appAccountToken.flatMap { server.order(token: $0)?.id }
            server.credit(
                user: row.account, product: product, txn: row.transactionId, order: order, sender: sender, via: via,
                receipt: nil, signed: signed, out: &outbox)
        }
        for row in snapshot.clawbacks.dropFirst(link.seenClawbacks) {
            let coins = row.coins ?? coinsOf(row)
            server.debit(row.account, coins, for: row.transactionId, now)
            server.noteRefundHeard(row.transactionId)
            outbox.log(
                .server,
                .coinsClawedBack(
                    user: row.account, coins: coins, txn: row.transactionId, balance: server.balance(of: row.account)))
        }
        for row in snapshot.restores.dropFirst(link.seenRestores) {
            let coins = row.coins ?? coinsOf(row)
            server.restore(row.account, coins, txn: row.transactionId)
            outbox.log(
                .server,
                .coinsRestored(
                    user: row.account, coins: coins, txn: row.transactionId, balance: server.balance(of: row.account)))
        }
        link.seenCredits = max(link.seenCredits, snapshot.credits.count)
        link.seenClawbacks = max(link.seenClawbacks, snapshot.clawbacks.count)
        link.seenRestores = max(link.seenRestores, snapshot.restores.count)
        var mismatched: [OnlookerNote] = []
        for account in snapshot.accounts {
            let expected = server.balance(of: account.id)
            guard account.coins != expected,
                !link.mismatches.contains(where: { $0.account == account.id && $0.coins == account.coins })
            else { continue }
            link.mismatches.append((account.id, account.coins))
            mismatched.append(.ledgerMismatch(account: account.id, coins: account.coins, expected: expected))
        }
        external = link
        // The verdict's anomalies follow the rows' facts (`World.tell`).
        for note in mismatched { outbox.notes.append((note, outbox.facts.count)) }
    }

    func coinsOf(_ row: LedgerSnapshot.Row) -> Int {
        let productId = row.productId ?? store.transaction(row.transactionId)?.productId
        return productId.flatMap(config.catalog.product)?.coins ?? 0
    }

    /// `spend USER COINS` under serve: the backend's `spend` call, then its ledger.
    mutating func spendExternally(_ user: String, _ coins: Int) {
        let reply = askBackend(.spend(user: user, coins: coins))
        if case .done(nil) = reply.outcome { server.spend(user, coins, &outbox) }
        applyLedger(reply.ledger, sender: .app, via: .firstDelivery)
    }
}
