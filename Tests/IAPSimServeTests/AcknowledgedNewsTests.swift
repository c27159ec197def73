import IAPSimCore
import Testing

@testable import IAPSimServe

/// A backend that credits each report and answers every notification 200, and acts on the
/// refund news only as told: it takes back what a `REFUND` refunded when `clawsBack`, and
/// gives it back at `REFUND_REVERSED` when `restores`.
final class RefundNewsBackend: ExternalMerchant, @unchecked Sendable {
    var clawsBack = true
    var restores = false
    var credits: [LedgerSnapshot.Row] = []
    var clawbacks: [LedgerSnapshot.Row] = []
    var restored: [LedgerSnapshot.Row] = []
    var coins: [String: Int] = [:]

    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        switch request {
        case .order:
            return ExternalReply(.order(id: "o1", token: "00000000-0000-4000-8000-000000000001"), ledger: ledger)
        case .report(let r, _, _):
            if !credits.contains(where: { $0.transactionId == r.transactionId }) {
                credits.append(
                    LedgerSnapshot.Row(transactionId: r.transactionId, account: r.uid, productId: r.productId))
                coins[r.uid, default: 0] += Catalog.standard.product(r.productId)?.coins ?? 0
            }
            return ExternalReply(.report(.credited([r.transactionId])), ledger: ledger)
        case .notification(let n):
            let txn = n.transaction.transactionId
            for row in credits where row.transactionId == txn {
                let amount = Catalog.standard.product(row.productId ?? "")?.coins ?? 0
                if n.type == .refund, clawsBack {
                    clawbacks.append(
                        LedgerSnapshot.Row(
                            transactionId: txn, account: row.account, productId: row.productId, coins: amount))
                    coins[row.account, default: 0] -= amount
                }
                if n.type == .refundReversed, restores {
                    restored.append(
                        LedgerSnapshot.Row(
                            transactionId: txn, account: row.account, productId: row.productId, coins: amount))
                    coins[row.account, default: 0] += amount
                }
            }
            return ExternalReply(.notification(status: 200), ledger: ledger)
        default:
            return ExternalReply(.done(nil), ledger: ledger)
        }
    }

    var ledger: LedgerSnapshot {
        LedgerSnapshot(
            accounts: coins.keys.sorted().map { LedgerSnapshot.Account(id: $0, coins: coins[$0]!) },
            credits: credits, clawbacks: clawbacks, restores: restored)
    }
}

/// Issue 49: a notification the backend acknowledged (answered 200) and then did not act on
/// is named as such, not as news that never reached it.
@Suite struct AcknowledgedNewsTests {
    /// A purchase, a full refund, then (`reverse`) Apple's reversal of it, under serve.
    func run(_ backend: RefundNewsBackend, reverse: Bool) -> Simulation {
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: PolicyPreset.sk2Hardened.policy))
        sim.attachExternal(ExternalLink(merchant: backend))
        _ = sim.apply(.buy(product: "coins_100"))
        sim.settle()
        _ = sim.apply(.refund(txn: nil))
        sim.settle()
        if reverse {
            _ = sim.apply(.refundLoop(.reverse(txn: nil)))
            sim.settle()
        }
        sim.concludeVerdict()
        return sim
    }

    func mechanism(_ sim: Simulation, _ type: AnomalyType) -> String? {
        sim.auditor.anomalies.first { $0.type == type }?.mechanism
    }

    @Test func aReversalAcknowledgedAndIgnoredIsNamedSo() throws {
        let sim = run(RefundNewsBackend(), reverse: true)
        let a = try #require(sim.auditor.anomalies.first { $0.type == .refundOverclawed })
        #expect(a.status == .permanent)
        let words = try #require(a.mechanism)
        #expect(!words.contains("nothing will tell the server"), "\(words)")
        #expect(!words.contains("no REFUND_REVERSED notification"), "\(words)")
        #expect(words.contains("REFUND_REVERSED was delivered and acknowledged"), "\(words)")
        #expect(words.contains("answered 200"), "\(words)")
        #expect(words.contains("did not act on it"), "\(words)")
    }

    /// A backend that restores at `REFUND_REVERSED`: its restore row undoes the clawback row in
    /// the world's records too, so the balance is still its credits less its debits (a debug
    /// build asserts it after every event; before, the clawback stayed and it stopped there) and
    /// nothing is over-clawed.
    @Test func aRestoreRowUndoesTheClawbackItReverses() throws {
        let backend = RefundNewsBackend()
        backend.restores = true
        let sim = run(backend, reverse: true)
        #expect(backend.restored.count == 1)
        #expect(sim.world.server.balance(of: "alice") == 100)
        // The clawback happened (its fact is in the log) and was undone.
        #expect(sim.log.contains { if case .coinsClawedBack = $0.fact { true } else { false } })
        #expect(sim.log.contains { if case .coinsRestored = $0.fact { true } else { false } })
        #expect(sim.auditor.anomalies.filter { $0.status.isUnresolved }.isEmpty, "\(sim.auditor.anomalies)")
    }

    @Test func aRefundAcknowledgedAndIgnoredIsNamedSo() throws {
        let backend = RefundNewsBackend()
        backend.clawsBack = false
        let sim = run(backend, reverse: false)
        let a = try #require(sim.auditor.anomalies.first { $0.type == .refundUnclawed })
        #expect(a.status == .permanent)
        let words = try #require(a.mechanism)
        #expect(!words.contains("nothing will tell the server"), "\(words)")
        #expect(words.contains("REFUND was delivered and acknowledged (the server answered 200)"), "\(words)")
        #expect(words.contains("did not act on it"), "\(words)")
    }
}
