extension AppStore {
    /// `SKPaymentQueue.finishTransaction(_:)`. Finishing a purchasing (or deferred)
    /// transaction is an error; finishing cannot be undone.
    mutating func finish(_ id: String, _ out: inout Outbox) {
        guard let t = transaction(id), !t.finished else { return }
        guard t.state != .purchasing, t.state != .deferred else {
            out.log(
                .storeKit,
                .finishFailedError(
                    txn: id, reason: "cannot finish a \(t.state.rawValue) transaction"))
            return
        }
        update(id) { $0.finished = true }
        let storeKit2 = out.policy.storekit == .two
        out.log(.storeKit, storeKit2 ? .finishCalled(txn: id) : .transactionFinished(txn: id))
    }

    /// An observer was registered: StoreKit delivers every unfinished purchased, failed
    /// or restored transaction again (Apple).
    func observerAdded(_ out: inout Outbox) {
        let due = redeliverable
        if !due.isEmpty { out.after(0, .storeDeliver(txns: due, redelivery: true, atForeground: false)) }
    }

    /// Unfinished transactions StoreKit delivers again: purchased, failed or restored.
    var redeliverable: [String] {
        var due: [String] = []
        for i in openIndices where !transactions[i].finished {
            switch transactions[i].state {
            case .purchased, .failed, .restored: due.append(transactions[i].id)
            case .purchasing, .deferred: break
            }
        }
        return due
    }

    /// The transactions of a delivery that are still worth delivering.
    func deliverable(_ ids: [String]) -> [StoreTransaction] {
        // One loop, one array: `compactMap(transaction)` copied the whole store per call.
        var due: [StoreTransaction] = []
        due.reserveCapacity(ids.count)
        for id in ids {
            guard let i = index(of: id), !transactions[i].finished,
                transactions[i].state != .purchasing
            else { continue }
            due.append(transactions[i])
        }
        return due
    }

    /// The receipt's `in_app` list as it stands now, in charge order: consumables from charge
    /// until finished, non-consumables forever. A view: reading it changes nothing.
    package var receiptNow: [ReceiptEntry] {
        var entries: [ReceiptEntry] = []
        let candidates = openIndices
        entries.reserveCapacity(candidates.count)
        for i in candidates where transactions[i].state == .purchased || transactions[i].state == .restored {
            let t = transactions[i]
            let kind = catalog.kind(of: t.productId) ?? .consumable
            guard !t.finished || kind == .nonConsumable || kind == .nonRenewing else { continue }
            entries.append(ReceiptEntry(t))
        }
        return entries
    }

    /// Reads the app receipt now, as the app does before a send: `receiptNow` in no fixed
    /// order (drawn from the store's generator), under a new serial and signature.
    mutating func readReceipt() -> Receipt {
        var entries = receiptNow
        entries.shuffle(using: &rng)
        receiptSerial += 1
        return Receipt(
            serial: receiptSerial, entries: entries,
            signature: Receipt.sign(serial: receiptSerial, entries: entries))
    }

    /// `verifyReceipt`: one status for the whole receipt; the snapshot's entries when valid.
    mutating func verify(_ receipt: Receipt?) -> Int {
        if outage { return VerifyStatus.unavailable }
        if let status = nextStatus {
            nextStatus = nil
            return status
        }
        guard let receipt else { return VerifyStatus.malformed }
        return receipt.isAuthentic ? VerifyStatus.valid : VerifyStatus.notAuthentic
    }

    /// The parent answers the newest deferred payment (Apple: the request they see).
    mutating func answerAskToBuy(approve: Bool, _ out: inout Outbox) -> Bool {
        guard let t = transactions.last(where: { !$0.finished && $0.state == .deferred }) else { return false }
        update(t.id) { $0.state = .purchasing }
        if !approve {
            let storeKit2 = out.policy.storekit == .two
            out.log(
                .appStore,
                .noted(
                    storeKit2
                        ? "the parent declined the request for \(t.productId): nothing arrives on Transaction.updates"
                        : "the parent declined \(t.id): StoreKit makes it failed (the simulator's assumption:"
                            + " Apple documents no state after a decline)"))
        }
        resolve(t.id, as: approve ? .charge : .fail(.cancelled), out: &out)
        return true
    }

    /// An unanswered Ask to Buy vanishes after 24h with no callback (Apple).
    mutating func expireDeferred(_ id: String, _ out: inout Outbox) {
        guard let t = transaction(id), t.state == .deferred, !t.finished else { return }
        update(id) {
            $0.finished = true; $0.state = .failed
        }
        guard out.policy.storekit == .one else {
            // StoreKit 2: no Transaction ever existed for the request, so no id to show.
            return out.log(
                .storeKit, .noted("the Ask to Buy request for \(t.productId) expired unanswered: nothing arrives"))
        }
        out.log(.storeKit, .deferredExpired(txn: id))
    }
}
