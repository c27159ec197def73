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
        #expect(picker.contains("£0.99  80 gems"), "\(picker)")
        #expect(picker.contains("remove_ads") && picker.contains("entitlement, non-consumable"))
        #expect(picker.contains("season_pass") && !picker.contains("coins_100"))
        d.key(.enter)
        d.wait(wallMs: 10_000)
        #expect(d.model.simulation.server.balance(of: "alice") == 80)
        #expect(d.screen().text.contains("80 gems"), "\(d.screen().text)")
    }

    static var dungeon: LoadedCatalog {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? StoreKitFile.load(path: root.appendingPathComponent("scenarios/dungeon.storekit").path))
            ?? .builtIn
    }

    /// Issue 52, item 5: the header names the catalog's file and currency at both sizes,
    /// prices carry the storefront's currency, a group shows by its name, and what is not
    /// modelled is said once at start (status line) and in help.
    @Test func theTeamsCatalogIsOnScreen() {
        var d = Driver(UIModel(users: ["alice"], preset: .sk2Naive, catalog: Self.dungeon))
        for (w, h) in [(120, 40), (80, 24)] {
            let header = d.screen(w, h).text.split(separator: "\n").first.map(String.init) ?? ""
            #expect(header.contains("dungeon.storekit GBP"), "\(w)x\(h): \(header)")
            #expect(header.contains("sk2-naive") && header.contains("? help"), "\(w)x\(h): \(header)")
        }
        #expect(d.screen(120, 40).text.split(separator: "\n")[0].contains("seed 1  sandbox"))
        let start = d.model.status ?? ""
        #expect(start.contains("catalog: ") && start.contains("prices in GBP; not modelled: "), "\(start)")
        #expect(start.contains("no grant named for gems_small, gems_chest"), "\(start)")
        #expect(d.screen().text.contains("£0.00"), "the money line in pounds:\n\(d.screen().text)")
        d.keys("b")
        let picker = d.screen().text
        #expect(picker.contains("£0.99  1 gems_small") && picker.contains("£49.99"), "\(picker)")
        #expect(picker.contains("group Dungeon Pass, level 1"), "\(picker)")
        #expect(!picker.contains("group 21480001"), "\(picker)")
        d.key(.escape)
        d.keys("?")
        let help = d.screen().text
        #expect(help.contains("Catalog") && help.contains("not modelled: "), "\(help)")
        #expect(d.model.status?.contains("not modelled") != true, "said once: the status line moved on")
    }

    /// The built-in catalog: no catalog in the header, dollars in the picker.
    @Test func theBuiltInCatalogKeepsItsHeaderAndShowsDollars() {
        var d = Driver(UIModel())
        let header = d.screen(120, 40).text.split(separator: "\n")[0]
        #expect(header.contains("seed 1  sandbox") && !header.contains("storekit"), "\(header)")
        #expect(d.model.status == nil)
        d.keys("b")
        #expect(d.screen().text.contains("$0.99  100 coins"), "\(d.screen().text)")
    }

    /// Issue 52, item 7: `C` switches a 16-day billing grace period on while the world runs
    /// (the purchase stays), a renewal that fails then keeps access, and `s` would save the step.
    @Test func theSubscriptionMenuSwitchesGraceOnAndKeepsTheWorld() {
        var d = Driver(UIModel(users: ["alice"], preset: .sk2Naive))
        d.keys("b4")
        d.wait(wallMs: 8_000)
        #expect(d.model.simulation.store.subscriptions.count == 1)
        let before = d.model.simulation.now
        d.keys("C")
        let menu = SubscriptionMenu.commands(for: d.model)
        let row = menu.firstIndex { $0.label == "grace period 16d" }
        #expect(row != nil, "\(menu.map(\.label))")
        d.keys(String((row ?? 0) + 1))
        #expect(d.model.simulation.store.gracePeriodMs == 16 * 86_400_000)
        #expect(d.model.simulation.store.subscriptions.count == 1 && d.model.simulation.now >= before)
        #expect(d.model.session.contains { $0.command == .gracePeriod(16 * 86_400_000) })
        d.keys("C")
        #expect(SubscriptionMenu.commands(for: d.model).contains { $0.label == "grace period off" })
        d.keys("1")  // billing fails
        for _ in 0..<40 where d.model.simulation.store.subscriptions.first?.status != .grace { d.keys(".") }
        #expect(d.model.simulation.store.subscriptions.first?.status == .grace)
    }

    @Test func theSandboxsGracePeriodWinsOverTheCatalogs() {
        #expect(
            UIModel(preset: .sk2Naive, gracePeriodMs: .some(3 * 86_400_000)).simulation.store.gracePeriodMs == 3
                * 86_400_000)
        #expect(UIModel(preset: .sk2Naive).simulation.store.gracePeriodMs == nil)
        var graceFile = Self.dungeon
        graceFile.catalog.settings.billingGracePeriod = true
        #expect(UIModel(preset: .sk2Naive, catalog: graceFile).simulation.store.gracePeriodMs == 16 * 86_400_000)
        #expect(
            UIModel(preset: .sk2Naive, catalog: graceFile, gracePeriodMs: .some(nil)).simulation.store.gracePeriodMs
                == nil)
    }
}
