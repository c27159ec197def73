import IAPSimCore
import IAPSimScenario
import Testing

/// The third truth pass's StoreKit rules (docs/world.md): `.pending` shows no transaction,
/// an unfinished consumable blocks a re-buy during an App Store outage too, and `delivered`
/// fires for every delivery to the app, a revoked transaction on `Transaction.updates`
/// included.
@Suite struct StoreKitTruthTests {
    func run(_ text: String) throws -> ScenarioResult {
        try ScenarioPlayer.run(ScenarioParser.parse(text: text, file: "s.yaml")).result
    }

    func failures(_ result: ScenarioResult) -> [String] {
        result.expectations.filter { !$0.holds }.map { "\($0.name): expected \($0.expected), got \($0.actual)" }
    }

    @Test func storeKit2PendingShowsNoTransactionStateBeforeATransactionExists() throws {
        let result = try run(
            "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [kim]\nsteps:\n  - do: ask-to-buy on\n"
                + "  - do: buy coins_100\n  - when: deferred\n    within: 1m\n    do: wait 1h\n  - do: approve\n"
                + "  - when: credited\n    within: 1m\n    do: wait 0s\nexpect:\n  charged: 1\n  credited: {kim: 100}\n"
        )
        #expect(result.timeout == nil)
        #expect(failures(result).isEmpty, "\(failures(result))")
        let pendingReturned = try #require(
            result.simulation.log.firstIndex { e in
                if case .purchaseReturned(_, _, .pending) = e.fact { return true }
                return false
            })
        let before = result.simulation.log[..<pendingReturned].contains { e in
            if case .transactionUpdated = e.fact { return true }
            return false
        }
        #expect(!before)
    }

    @Test func anUnansweredStoreKit2AskToBuyExpiresWithoutAnId() throws {
        let result = try run(
            "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [kim]\nsteps:\n  - do: ask-to-buy on\n"
                + "  - do: buy coins_100\n  - do: wait 25h\nexpect:\n  charged: 0\n")
        #expect(failures(result).isEmpty, "\(failures(result))")
        let shown = result.simulation.log.contains { e in
            switch e.fact {
            case .transactionUpdated, .deferredExpired: return true
            default: return e.fact.text.contains("1000000000001")
            }
        }
        #expect(!shown)
    }

    @Test func anUnfinishedConsumableBlocksAStoreKit1RebuyDuringAnOutage() throws {
        let result = try run(
            "format: 1\ntitle: t\npolicy: {preset: naive, finish: after-credit}\nusers: [alice]\nsteps:\n"
                + "  - do: drop-next-response recharge\n  - do: buy coins_100\n  - after: 1m\n    do: store-outage on\n"
                + "  - do: buy coins_100\n  - after: 30s\n    do: store-outage off\n  - do: wait 1m\n"
                + "expect:\n  charged: 1\n")
        #expect(failures(result).isEmpty, "\(failures(result))")
        let refused = result.simulation.log.contains { e in
            guard case .noted(let text) = e.fact else { return false }
            return text.contains("already been bought")
        }
        #expect(refused)
    }

    @Test func deliveredFiresForARevokedTransactionOnTransactionUpdates() throws {
        let result = try run(
            "format: 1\ntitle: t\npolicy: sk2-hardened\nusers: [alice]\nsteps:\n  - do: buy coins_100\n"
                + "  - when: credited\n    within: 1m\n    do: wait 1m\n  - do: refund newest\n"
                + "  - when: delivered\n    within: 1s\n    do: wait 0s\nexpect:\n  refunded: 1\n")
        #expect(result.timeout == nil)
        #expect(failures(result).isEmpty, "\(failures(result))")
        let emitted = result.simulation.log.contains { e in
            if case .revocationEmitted = e.fact { return e.fact.trigger == .delivered }
            return false
        }
        #expect(emitted)
    }
}
