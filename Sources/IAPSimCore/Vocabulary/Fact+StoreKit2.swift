/// What `product.purchase(options:)` returned to its caller (StoreKit 2).
package enum PurchaseResult: Sendable, Hashable, Worded {
    /// `.success(.verified(transaction))`.
    case success
    /// `.userCancelled`: also what an interrupted purchase returns first.
    case userCancelled
    /// `.pending`: Ask to Buy or strong customer authentication; the outcome comes on
    /// `Transaction.updates`.
    case pending
    /// A thrown `StoreKitError` / `Product.PurchaseError`.
    case failed(String)

    package var words: String {
        switch self {
        case .success: return ".success(.verified)"
        case .userCancelled: return ".userCancelled"
        case .pending: return ".pending"
        case .failed(let error): return "threw \(error)"
        }
    }
}

extension Fact {
    /// The lines of StoreKit 2's facts, in StoreKit 2's names.
    var storeKit2Text: String {
        switch self {
        case .listenerStarted: return "Task { for await update in Transaction.updates } started"
        // No transaction exists until one arrives (Apple): the id the simulator keeps for a
        // purchase in progress is not shown before `.success` or `Transaction.updates`.
        case .purchaseStarted(_, let p, let token, let user, let order):
            let options = token.map { "[.appAccountToken(\(short($0)))]" } ?? "[]"
            let who = order.map { "\(user), order \($0)" } ?? user
            return "\(p).purchase(options: \(options)) [\(who)]"
        case .purchaseReturned(let txn, let p, let result):
            switch result {
            case .success: return "purchase() of \(p) returned \(result.words) (\(txn))"
            case .pending:
                return "purchase() of \(p) returned .pending (no transaction: the outcome comes on Transaction.updates)"
            // A failed purchase leaves no transaction behind, so no id is shown.
            case .userCancelled, .failed:
                return "purchase() of \(p) \(result == .userCancelled ? "returned " : "")\(result.words)"
            }
        case .purchaseCompletedOutsideApp(let txn, let p, let user, _):
            return "the interrupted purchase of \(p) completed outside the app: \(txn) [\(user)]"
        case .updatesEmitted(let txns, let replay):
            let list = txns.joined(separator: ", ")
            return "Transaction.updates emitted [\(list)]\(replay ? " (unfinished, once after launch)" : "")"
        case .revocationEmitted(let txn):
            return "Transaction.updates emitted [\(txn)] (revoked: revocationDate set); the app revokes what it granted"
        case .unfinishedSwept(let txns):
            return "for await t in Transaction.unfinished: [\(txns.joined(separator: ", "))]"
        case .transactionSigned(let s):
            return "jwsRepresentation of \(s.transactionId) signed at \(DurationText.clock(s.signedDate))"
        case .finishCalled(let txn): return "transaction.finish() (\(txn))"
        case .jwsSaved(let txn, let tier): return "jwsRepresentation of \(txn) saved to \(tier.rawValue)"
        case .jwsDeleted(let txn, let tier, let why):
            return "jwsRepresentation of \(txn) deleted from \(tier.rawValue): \(why)"
        case .jwsChecked(let txn, let signer, let verified):
            if !verified { return "JWS of \(txn) decoded without verifying (signed by \(signer.rawValue))" }
            return signer == .appStore
                ? "JWS of \(txn) verified: signature, chain to Apple's root, bundleId, environment"
                : "JWS of \(txn) checked: signed by \(signer.rawValue), its chain does not lead to Apple's root"
        case .signedReplayPrepared(let txn):
            return "replaying the jwsRepresentation of \(txn) on a fresh order"
        case .forgeryPrepared(let s):
            return "forging a JWS for \(s.productId) (\(s.transactionId)) with a key outside Apple's chain"
        default: return text
        }
    }
}
