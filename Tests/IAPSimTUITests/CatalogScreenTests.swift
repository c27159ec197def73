import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// The sandbox with a team's own StoreKit file: the buy picker offers the file's products
/// with their prices and grants, and the merchant server's balance is in the granted unit.
@Suite struct CatalogScreenTests {
    static let game: LoadedCatalog = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let loaded = try? StoreKitFile.load(path: root.appendingPathComponent("scenarios/dungeon.storekit").path)
        return (loaded ?? .builtIn).granting([
            Grant(product: "gems_small", amount: 80, unit: "gems"),
            Grant(product: "gems_chest", amount: 1000, unit: "gems"),
        ])
    }()

    @Test func theBuyPickerOffersTheFilesProductsAndTheBalanceIsInGems() {
        var d = Driver(UIModel(users: ["alice"], catalog: Self.game))
        #expect(d.model.status?.contains("dungeon.storekit, 7 products, prices in GBP; not modelled: ") == true)
        d.keys("b")
        let picker = d.screen().text
        #expect(picker.contains("gems_small"), "\(picker)")
        #expect(picker.contains("0.99  80 gems"), "\(picker)")
        #expect(picker.contains("remove_ads") && picker.contains("entitlement, non-consumable"))
        #expect(picker.contains("season_pass") && !picker.contains("coins_100"))
        d.key(.enter)
        d.wait(wallMs: 10_000)
        #expect(d.model.simulation.server.balance(of: "alice") == 80)
        #expect(d.screen().text.contains("80 gems"), "\(d.screen().text)")
    }
}
