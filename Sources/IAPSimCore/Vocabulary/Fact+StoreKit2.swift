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
    /// Writes the lines of StoreKit 2's facts, in StoreKit 2's names (the ones every
    /// purchase writes in pieces, as `writeText` does).
    func writeStoreKit2Text(to out: FactTextBytes) {
        switch self {
        case .listenerStarted: out.write("Task { for await update in Transaction.updates } started")
        // No transaction exists until one arrives (Apple): the id the simulator keeps for a
        // purchase in progress is not shown before `.success` or `Transaction.updates`.
        case .purchaseStarted(_, let p, let token, let user, let order):
            out.write(string: p)
            if let token {
                out.write(".purchase(options: [.appAccountToken(")
                out.write(short: token)
                out.write(")]) [")
            } else {
                out.write(".purchase(options: []) [")
            }
            writeBuyer(user, order, to: out)
        case .purchaseReturned(let txn, let p, let result):
            switch result {
            case .success:
                out.write("purchase() of ", p, " returned ")
                out.write("", result.words, " (")
                out.write("", txn, ")")
            case .pending:
                out.write(
                    string:
                        "purchase() of \(p) returned .pending (no transaction: the outcome comes on Transaction.updates)"
                )
            // A failed purchase leaves no transaction behind, so no id is shown.
            case .userCancelled, .failed:
                out.write(string: "purchase() of \(p) \(result == .userCancelled ? "returned " : "")\(result.words)")
            }
        case .purchaseCompletedOutsideApp(let txn, let p, let user, _):
            out.write(string: "the interrupted purchase of \(p) completed outside the app: \(txn) [\(user)]")
        case .updatesEmitted(let txns, let replay):
            let list = txns.joined(separator: ", ")
            out.write(
                string: "Transaction.updates emitted [\(list)]\(replay ? " (unfinished, once after launch)" : "")")
        case .revocationEmitted(let txn):
            out.write(
                string:
                    "Transaction.updates emitted [\(txn)] (revoked: revocationDate set); the app revokes what it granted"
            )
        case .unfinishedSwept(let txns):
            out.write(string: "for await t in Transaction.unfinished: [\(txns.joined(separator: ", "))]")
        case .transactionSigned(let s):
            out.write("jwsRepresentation of ", s.transactionId, " signed at ")
            out.write(string: DurationText.clock(s.signedDate))
        case .finishCalled(let txn):
            out.write("transaction.finish() (", txn, ")")
        case .jwsSaved(let txn, let tier):
            out.write("jwsRepresentation of ", txn, " saved to ")
            out.write(string: tier.rawValue)
        case .jwsDeleted(let txn, let tier, let why):
            out.write("jwsRepresentation of ", txn, " deleted from ")
            out.write("", tier.rawValue, ": ")
            out.write(string: why)
        case .jwsChecked(let txn, let signer, let verified):
            out.write("JWS of ", txn)
            if !verified {
                out.write(" decoded without verifying (signed by ", signer.rawValue, ")")
            } else if signer == .appStore {
                out.write(" verified: signature, chain to Apple's root, bundleId, environment")
            } else {
                out.write(" checked: signed by ", signer.rawValue, ", its chain does not lead to Apple's root")
            }
        case .signedReplayPrepared(let txn):
            out.write(string: "replaying the jwsRepresentation of \(txn) on a fresh order")
        case .forgeryPrepared(let s):
            out.write(string: "forging a JWS for \(s.productId) (\(s.transactionId)) with a key outside Apple's chain")
        default: out.write(string: text)
        }
    }
}
