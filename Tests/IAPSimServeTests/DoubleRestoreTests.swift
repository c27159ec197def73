import IAPSimCore
import Testing

@testable import IAPSimServe

/// A backend whose ledger gives one clawback back twice (the reference backend's old bug: a
/// clawback and a restore compared by row numbers of two tables): the world reports it as
/// `ledger-mismatch` and keeps its own records whole (a debug build asserts them after
/// every event: before the fix this run trapped).
final class DoubleRestoringBackend: ExternalMerchant, @unchecked Sendable {
    var ledger = LedgerSnapshot()

    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        switch request {
        case .order:
            return ExternalReply(.order(id: "o1", token: "00000000-0000-4000-8000-000000000001"), ledger: ledger)
        case .report(let r, _, _):
            let row = LedgerSnapshot.Row(transactionId: r.transactionId, account: r.uid, productId: r.productId)
            ledger.credits = [row]
            ledger.clawbacks = [row]
            ledger.restores = [row, row]
            ledger.accounts = [LedgerSnapshot.Account(id: r.uid, coins: 200)]
            return ExternalReply(.report(.credited([r.transactionId])), ledger: ledger)
        default:
            return ExternalReply(.done(nil), ledger: ledger)
        }
    }
}

@Suite struct DoubleRestoreTests {
    @Test func aSecondRestoreOfOneClawbackIsALedgerMismatchNotATrap() {
        var policy = PolicyPreset.sk2Hardened.policy
        policy.serverReconcileMs = nil
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: policy))
        sim.external = ExternalLink(merchant: DoubleRestoringBackend())
        _ = sim.apply(.buy(product: "coins_100"))
        sim.settle()
        sim.concludeVerdict()
        // Credited 100, clawed back 100, given back once: the records say 100, the backend 200.
        #expect(sim.server.balance(of: "alice") == 100)
        let mismatch = sim.auditor.anomalies.first { $0.type == .ledgerMismatch }
        #expect(mismatch != nil)
        #expect(mismatch?.status == .permanent)
    }
}
