import Testing

@testable import IAPSimCore

/// The StoreKit 2 world's rules that no shipped scenario pins down on its own.
@Suite struct StoreKit2Tests {
    static func ignored(_ sim: Simulation) -> String? {
        sim.log.last.flatMap { if case .commandIgnored(_, let why) = $0.fact { return why } else { return nil } }
    }

    @Test func theWorldIsChosenBeforeARunAndNeverSwitchedInIt() {
        var h = Harness(.hardened)
        h.run(.setPreset(.sk2Hardened))
        #expect(Self.ignored(h.sim) == World.worldIsFixed)
        h.run(.setPolicy(.storekit, "2"))
        #expect(Self.ignored(h.sim) == World.worldIsFixed && h.sim.policy.storekit == .one)
        var k = Harness(.sk2Naive)
        k.run(.setPreset(.sk2Hardened))
        #expect(k.sim.policy == PolicyPreset.sk2Hardened.policy)
        k.run(.setPreset(.naive))
        #expect(Self.ignored(k.sim) == World.worldIsFixed)
    }

    @Test func onlyStoreKit2HasASignedTransactionToForge() {
        var h = Harness(.hardened)
        h.run(.forge(product: "coins_100"))
        #expect(Self.ignored(h.sim)?.hasPrefix("StoreKit 1 has no signed transaction") == true)
    }

    @Test func everyDeliveryIsSignedAnewWithTheSamePayload() {
        var h = Harness(.sk2Hardened)
        h.run(.dropNextResponse(.recharge), .buy(product: "coins_100"))
        h.when("credited")
        h.run(.background, .wait(30_000), .foreground)
        h.settle()
        let signed = h.sim.log.compactMap { e -> SignedTransaction? in
            if case .transactionSigned(let s) = e.fact { return s } else { return nil }
        }
        #expect(signed.count == 2 && signed[0].signedDate < signed[1].signedDate)
        var same = signed[1]
        same.signedDate = signed[0].signedDate
        #expect(same == signed[0] && signed[0].price == 990 && signed[0].signer == .appStore)
        #expect(h.balance("alice") == 100 && h.queue == 0)
    }

    @Test func anOutageBlocksPurchasesNotCrediting() {
        var h = Harness(.sk2Hardened)
        h.run(.buy(product: "coins_100"))
        h.when("request recharge")
        h.run(.storeOutage(on: true))
        h.settle()
        #expect(h.balance("alice") == 100)
        #expect(!h.sim.network.history.contains { $0.route == .verify })
        h.run(.buy(product: "coins_100"))
        h.settle()
        #expect(h.charged == 1 && h.balance("alice") == 100)
    }
}
