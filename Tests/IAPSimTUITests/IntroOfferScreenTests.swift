import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// The free trial of `scenarios/dungeon.storekit`'s weekly pass in the terminal UI: the buy
/// picker names it, and `play` of the weekly-pass scenario shows the trial charged nothing.
@Suite struct IntroOfferScreenTests {
    @Test func theBuyPickerNamesTheWeeklyPassTrial() {
        let loaded = CatalogScreenTests.game
        let items = Picker.buy(loaded.catalog, in: .two).items
        let weekly = items.first { $0.label == "pass_weekly" }
        #expect(weekly?.detail.contains("first free trial for P3D if eligible") == true, "\(weekly?.detail ?? "none")")
        let yearly = items.first { $0.label == "pass_yearly" }
        #expect(yearly?.detail.contains("trial") == false, "\(yearly?.detail ?? "none")")
    }

    /// A promotional offer is a row of its own under its product, and choosing it buys with it.
    @Test func theBuyPickerListsEachPromotionalOfferAndBuysWithIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let loaded = try StoreKitFile.load(path: root.appendingPathComponent("scenarios/dungeon-offers.storekit").path)
        let items = Picker.buy(loaded.catalog, in: .two).items
        let k = try #require(items.firstIndex { $0.label == "pass_weekly offer comeback_half" })
        #expect(items[k - 1].label == "pass_weekly")
        #expect(items[k].detail.contains("£0.99  promotional offer, pay as you go, 2 x P1W"), "\(items[k].detail)")
        #expect(items[k].action == .run(.subscription(.buyOffer(product: "pass_weekly", offer: "comeback_half"))))
        // StoreKit 1 sells no subscription, so no offer either.
        #expect(!Picker.buy(loaded.catalog, in: .one).items.contains { $0.label.contains(" offer ") })
    }

    @Test func playingTheWeeklyPassShowsTheTrialFreeAndTheConversionCharged() throws {
        let file = "game-weekly-pass-renewal-hardened.yaml"
        var d = Driver(UIModel(play: try RenderGoldenTests.shipped(file), file: "scenarios/\(file)"))
        d.keys("G")
        d.wait(wallMs: 20_000)
        let charges = d.model.simulation.store.subscriptions.first?.periods.map(\.priceCents)
        #expect(charges == [0, 199], "\(charges ?? [])")
        let lines = d.model.simulation.log.map(\.fact.text)
        #expect(lines.contains { $0.contains("introductory offer of pass_weekly applied") })
        #expect(lines.contains { $0.contains("subscribed (1000000000001), 0.00") })
    }
}
