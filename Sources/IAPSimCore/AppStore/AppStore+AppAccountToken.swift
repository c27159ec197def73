/// Why Set App Account Token changed nothing.
package enum AppAccountTokenRefusal: Sendable, Hashable {
    /// No transaction has this id.
    case notFound
    /// The transaction is not an original transaction (a renewal, a plan change).
    case notOriginal
}

/// A Set App Account Token call the App Store accepted: the purchase whose original
/// transaction is `original` carries `token` from then on.
package struct AppAccountTokenChange: Sendable, Hashable {
    package var original: String
    package var token: String
    package init(original: String, token: String) {
        self.original = original
        self.token = token
    }
}

extension AppStore {
    /// Set App Account Token (App Store Server API 1.16, docs/server-api.md): the purchase
    /// whose original transaction is `original` takes `token`. The original transaction and
    /// every transaction of the same original (renewals, plan changes) are signed with it from
    /// now on, and a subscription's renewal info and later renewals carry it. Nil when done.
    package mutating func setAppAccountToken(_ change: AppAccountTokenChange) -> AppAccountTokenRefusal? {
        guard let t = transaction(change.original) else { return .notFound }
        guard Self.original(of: t) == change.original else {
            return .notOriginal
        }
        let ids = transactions.filter { Self.original(of: $0) == change.original }.map(\.id)
        for id in ids { update(id) { $0.setAppAccountToken(change.token) } }
        // The token index holds keys that never change: it is rebuilt at the next purchase.
        tokenPositions = KeyLists()
        if let k = subscriptionBook?.subscriptions.firstIndex(where: { $0.originalTransactionId == change.original }) {
            book.subscriptions[k].appAccountToken = change.token
        }
        return nil
    }

    /// The id of a transaction's original transaction (its own for an original).
    static func original(of t: StoreTransaction) -> String {
        t.subscription?.originalTransactionId ?? t.originalId ?? t.id
    }
}

extension Simulation {
    /// Set App Account Token in the world's App Store (the lookalike's `PUT
    /// /inApps/v1/transactions/{originalTransactionId}/appAccountToken`).
    package mutating func setAppAccountToken(_ change: AppAccountTokenChange) -> AppAccountTokenRefusal? {
        world.store.setAppAccountToken(change)
    }
}
