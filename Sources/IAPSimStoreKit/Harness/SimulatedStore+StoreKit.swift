import Foundation
import IAPSimCore

/// What StoreKit's types ask of the store.
extension SimulatedStore {
    /// `product.purchase(options:)`: the payment is added at the current virtual time and
    /// the call waits for the App Store's answer.
    func purchase(
        product: String, token: UUID?, promotional: PromotionalSignature? = nil, winBack: String? = nil
    ) async throws -> Product.PurchaseResult {
        guard noteCall() else { throw CancellationError() }
        return try await withCheckedThrowingContinuation { c in
            let now: Result<Product.PurchaseResult, Error>? = locked {
                guard callerAlive else { return .failure(CancellationError()) }
                guard catalog.product(product) != nil else { return .failure(Product.PurchaseError.productUnavailable) }
                let account = token?.uuidString.lowercased()
                var offer: IntroductoryOffer?
                if let promotional {
                    guard sim.app.loggedIn != nil else { return .failure(StoreKitError.notEntitled) }
                    switch sim.drivenRedeem(
                        offerSignature(promotional, product: product, account: account), product: product,
                        token: account)
                    {
                    case .success(let accepted): offer = accepted
                    case .failure(let refusal): return .failure(Product.PurchaseError(refusal))
                    }
                }
                if let winBack {
                    guard sim.app.loggedIn != nil else { return .failure(StoreKitError.notEntitled) }
                    switch sim.drivenWinBack(winBack, product: product) {
                    case .success(let accepted): offer = accepted
                    case .failure(let refusal): return .failure(Product.PurchaseError(refusal))
                    }
                }
                guard let (txn, pending) = sim.drivenPurchase(product: product, token: account, promotional: offer)
                else { return .failure(StoreKitError.notEntitled) }
                if pending { return .success(.pending) }
                let task = currentTaskID()
                app.purchases.append(AppState.Purchase(txn: txn, task: task, continuation: c))
                blocked(task)
                return nil
            }
            if let now { c.resume(with: now) }
        }
    }

    /// What a purchase call returns or throws for the App Store's answer.
    func purchaseOutcome(txn: String, _ result: PurchaseResult) -> Result<Product.PurchaseResult, Error> {
        switch result {
        case .success:
            guard let v = verification(of: txn) else { return .failure(StoreKitError.unknown) }
            return .success(.success(v))
        case .userCancelled: return .success(.userCancelled)
        case .pending: return .success(.pending)
        case .failed(let error):
            // The file's `_storeKitErrors` Purchase error, exactly as chosen.
            if let configured = configuredError(.purchase) { return .failure(configured) }
            if error.hasPrefix("StoreKitError.networkError") {
                return .failure(StoreKitError.networkError(URLError(.notConnectedToInternet)))
            }
            if error.hasPrefix("Product.PurchaseError") { return .failure(Product.PurchaseError.productUnavailable) }
            return .failure(StoreKitError.unknown)
        }
    }

    /// `txn` signed anew, checked as your app's StoreKit checks it (under the lock).
    func verification(of txn: String) -> VerificationResult<Transaction>? {
        guard let s = sim.drivenSign(txn) else { return nil }
        let jws = signing.sign(s)
        signedByJWS[jws] = s
        let t = Transaction(s, jws: jws)
        if let failure = signing.failure(of: jws) { return .unverified(t, failure) }
        if let configured = configuredVerificationError(.verification, as: Transaction.self) {
            return .unverified(t, configured)
        }
        return .verified(t)
    }

    /// A listener of `Transaction.updates` starts; nil when the caller's process is dead.
    func listen() -> Int? {
        guard noteCall() else { return nil }
        return locked {
            guard callerAlive else { return nil }
            let id = app.nextListener
            app.nextListener += 1
            app.listeners[id] = AppState.Listener()
            app.listenerOrder.append(id)
            sim.drivenListen(atLaunch: launching)
            return id
        }
    }

    /// The listener's next transaction, when one comes; nil once its process died.
    func nextUpdate(listener: Int) async -> VerificationResult<Transaction>? {
        guard noteCall() else { return nil }
        return await withCheckedContinuation { c in
            let ready: VerificationResult<Transaction>?? = locked {
                guard callerAlive, var l = app.listeners[listener] else { return .some(nil) }
                if !l.buffer.isEmpty {
                    let first = l.buffer.removeFirst()
                    app.listeners[listener] = l
                    return .some(first)
                }
                l.waiter = c
                l.waiterTask = currentTaskID()
                blocked(l.waiterTask)
                app.listeners[listener] = l
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }

    /// The transactions of `Transaction.unfinished`, `.currentEntitlements` or `.all`.
    func snapshot(_ source: Transaction.Transactions.Source) -> [VerificationResult<Transaction>] {
        locked {
            let ids: [String]
            switch source {
            case .updates: ids = []
            case .unfinished: ids = sim.drivenUnfinished()
            case .all: ids = history()
            case .entitlements: ids = entitlements()
            }
            return ids.compactMap { verification(of: $0) }
        }
    }

    /// `Transaction.all` (under the lock): every charged transaction, oldest first, without the
    /// finished consumables unless refunded (StoreKit's history), or with them when
    /// `includeConsumableInAppPurchaseHistory` says so (`SKIncludeConsumableInAppPurchaseHistory`).
    func history() -> [String] {
        sim.store.transactions.filter { t in
            guard t.chargedAt != nil else { return false }
            guard !includeConsumables, t.finished, t.refundedAt == nil,
                catalog.product(t.productId)?.kind == .consumable
            else { return true }
            return false
        }.map(\.id)
    }

    /// `Transaction.currentEntitlements` as Apple documents it (under the lock): the latest
    /// transaction of each subscription subscribed or in its grace period, each non-consumable
    /// owned, each non-renewing subscription; never a revoked, upgraded-away or superseded one.
    func entitlements() -> [String] {
        let subscribed = Set(sim.store.subscriptions.filter { $0.status.entitled }.map(\.latestTransactionId))
        var owned: [String: String] = [:]
        for t in sim.store.transactions where t.chargedAt != nil && t.refundedAt == nil {
            guard t.subscription?.isUpgraded != true, let p = catalog.product(t.productId) else { continue }
            switch p.kind {
            case .consumable: continue
            case .nonConsumable: if owned[p.id] == nil { owned[p.id] = t.id }
            case .nonRenewing: owned[t.id] = t.id
            case .autoRenewable: if subscribed.contains(t.id) { owned[t.id] = t.id }
            }
        }
        let kept = Set(owned.values)
        return sim.store.transactions.map(\.id).filter { kept.contains($0) }
    }

    /// The revoked transactions not yet on `Transaction.updates`, emitted to the running
    /// process's listeners (under the lock): StoreKit sends a refunded or revoked transaction
    /// there, signed with its `revocationDate`.
    func revocations() -> AppState.Dropped? {
        guard app.running, !app.listenerOrder.isEmpty else { return nil }
        let news = sim.store.transactions.filter { $0.refundedAt != nil && !revokedEmitted.contains($0.id) }
        guard !news.isEmpty else { return nil }
        for t in news { revokedEmitted.insert(t.id) }
        return app.emit(news.compactMap { verification(of: $0.id) })
    }
}
