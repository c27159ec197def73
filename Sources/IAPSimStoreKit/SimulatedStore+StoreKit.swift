import Foundation
import IAPSimCore

/// What StoreKit's types ask of the store.
extension SimulatedStore {
    /// `product.purchase(options:)`: the payment is added at the current virtual time and
    /// the call waits for the App Store's answer.
    func purchase(product: String, token: UUID?) async throws -> Product.PurchaseResult {
        guard noteCall() else { throw CancellationError() }
        return try await withCheckedThrowingContinuation { c in
            let now: Result<Product.PurchaseResult, Error>? = locked {
                guard callerAlive else { return .failure(CancellationError()) }
                guard catalog.product(product) != nil else { return .failure(Product.PurchaseError.productUnavailable) }
                guard let (txn, pending) = sim.drivenPurchase(product: product, token: token?.uuidString.lowercased())
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
            case .all:
                ids = sim.store.transactions.filter { $0.chargedAt != nil }.map(\.id)
            case .entitlements:
                ids = sim.store.transactions.filter { t in
                    guard t.chargedAt != nil, t.refundedAt == nil, let p = catalog.product(t.productId) else {
                        return false
                    }
                    switch p.kind {
                    case .consumable: return false
                    case .nonConsumable, .nonRenewing: return true
                    case .autoRenewable: return (t.subscription?.expiresAt ?? 0) > sim.now
                    }
                }.map(\.id)
            }
            return ids.compactMap { verification(of: $0) }
        }
    }
}
