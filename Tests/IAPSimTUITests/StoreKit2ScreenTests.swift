import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// A StoreKit 2 run speaks StoreKit 2 on every screen: `purchase()`, `Transaction.unfinished`,
/// `finish()`, signed transactions; no payment queue, no receipt, no `verify` route.
@Suite struct StoreKit2ScreenTests {
    /// StoreKit 1 words that have no place on a StoreKit 2 screen.
    static let storeKit1Words = [
        "SKPayment", "verifyReceipt", "receipt", "Payment queue", "paymentQueue",
        "finishTransaction", "applicationUsername", "in_app", "-> purchasing", "-> purchased", "-> deferred",
    ]

    /// The StoreKit 1 words `text` holds.
    static func storeKit2Free(_ text: String) -> [String] {
        storeKit1Words.filter { text.contains($0) }
    }

    /// The sk2-naive sandbox after one purchase of 100 coins, paused.
    static func purchasedOnce() -> Driver {
        var d = Driver(UIModel(seed: 7, users: ["alice", "bob"], preset: .sk2Naive))
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 4_000)
        d.keys(" ")
        return d
    }

    @Test func sandboxAfterAPurchase() {
        let d = StoreKit2ScreenTests.purchasedOnce()
        for (w, h) in [(120, 40), (80, 24)] {
            let text = d.screen(w, h).text
            #expect(StoreKit2ScreenTests.storeKit2Free(text).isEmpty, "\(text)")
            #expect(text.contains("┌ Transactions "), "\(text)")
            #expect(text.contains("coins_100 success"), "\(text)")
            #expect(!text.contains("verify "), "no verify route in StoreKit 2:\n\(text)")
        }
        #expect(d.screen(120, 40).text.contains("0 in Transaction.unfinished"))
        Golden.check(d.screen(120, 40), "sk2-sandbox-purchase-120x40")
        Golden.check(d.screen(80, 24), "sk2-sandbox-purchase-80x24")
    }

    @Test func playOfAReplayToItsVerdictAndTheTransactionInspector() throws {
        var d = try DefectTests.play("sk2-replay-fraud-naive.yaml")
        d.keys("G")
        Golden.check(d.screen(120, 40), "sk2-play-end-120x40")
        Golden.check(d.screen(80, 24), "sk2-play-end-80x24")
        #expect(StoreKit2ScreenTests.storeKit2Free(d.screen().text).isEmpty, "\(d.screen().text)")
        #expect(d.screen().text.contains("granted to a replayed JWS"))
        d.key(.backTab, times: 4)  // Events -> Transactions
        d.keys("i")
        let text = d.screen().text
        for field in [
            "transactionId: 1000000000001", "originalTransactionId: ", "productId: coins_100",
            "type: Consumable", "purchaseDate: ", "signedDate: ", "price: 990", "appAccountToken: absent",
            "signed by: the App Store",
        ] {
            #expect(text.contains(field), "\(field):\n\(text)")
        }
        #expect(!text.contains("the receipt the server would see now"), "\(text)")
        Golden.check(d.screen(120, 40), "sk2-inspect-transaction-120x40")
        Golden.check(d.screen(80, 24), "sk2-inspect-transaction-80x24")
    }

    @Test(arguments: [
        ("sk2-replay-fraud-naive.yaml", "a replayed JWS: the genuine jwsRepresentation of 1000000000001"),
        ("sk2-forged-jws-naive.yaml", "a forged JWS: 9000000000001"),
    ])
    func theAnomalyInspectorNamesTheJWS(file: String, words: String) throws {
        let d = try InspectorTests.inspect(file, .replayFraud)
        let text = d.screen().text
        #expect(text.contains(words), "\(text)")
        #expect(text.contains("signature valid, order exists"), "\(text)")
        #expect(!text.contains("receipt"), "\(text)")
    }

    @Test func aSignedTransactionDeliveredTwiceShowsBothCopies() throws {
        var d = try DefectTests.play("sk2-double-credit-no-dedup-naive.yaml")
        d.keys("G")
        d.key(.backTab, times: 4)
        d.keys("i")
        let text = d.screen().text
        #expect(
            text.contains("copies: 2, signed at 0:00:02.160, 0:01:02.160") && text.contains("new bytes each time"),
            "\(text)")
    }

    @Test func theNetworkPanelAndTheDropPickerListOnlyTheWorldsRoutes() {
        let two = Route.routes(in: .two), one = Route.routes(in: .one)
        #expect(!two.contains(.verify) && one.contains(.verify))
        #expect(Set(one).subtracting(two) == [.verify], "every route but verify exists in both worlds")
        var d = StoreKit2ScreenTests.purchasedOnce()
        let network = PanelContent(sim: d.model.simulation, glyphs: .unicode, ascii: false, width: 56)
        #expect(network.network.count == network.total(.network), "the panel's line count is derived, not fixed")
        d.keys("d")
        guard case .picker(let picker)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(picker.items.count == 2 * two.count)
        #expect(!picker.items.contains { $0.label.hasPrefix("verify") })
    }

    @Test func pickersHelpAndStatusSpeakStoreKit2() {
        var d = StoreKit2ScreenTests.purchasedOnce()
        for key in ["f", "c"] {
            d.keys(key)
            let text = d.screen().text
            #expect(StoreKit2ScreenTests.storeKit2Free(text).isEmpty, "\(key):\n\(text)")
            d.key(.escape)
        }
        d.keys("f")
        #expect(d.screen().text.contains("purchase() returns .userCancelled"))
        guard case .picker(let fail)? = d.model.overlay else { Issue.record("no fail picker"); return }
        #expect(
            !fail.items.contains { $0.label == "unfinished" }, "no fault that acts on a failed transaction left behind")
        d.key(.escape)
        d.keys("?")
        let help = d.screen().text
        let all = HelpBox.lines(d.model).map { $0.map(\.text).joined() }.joined(separator: "\n")
        #expect(all.contains("unfinished: in Transaction.unfinished") && all.contains("finish() called"), "\(all)")
        #expect(StoreKit2ScreenTests.storeKit2Free(help).isEmpty, "\(help)")
        d.key(.escape)
        d.keys("v")
        #expect(d.model.status?.contains("StoreKit 1 only") == true, "\(d.model.status ?? "")")
        #expect(d.model.overlay == nil)
    }

    @Test func aChargeNoPurchaseCallReturnedIsVerifiedNotSuccess() {
        var d = Driver(UIModel(seed: 7, users: ["alice", "bob"], preset: .sk2Naive))
        d.keys("f4")
        #expect(d.screen().text.contains("armed: next purchase() interrupted"), "\(d.screen().text)")
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        let cancelled = d.screen().text
        #expect(cancelled.contains("coins_100 userCancelled"), "\(cancelled)")
        d.keys("b")
        d.key(.enter)
        d.keys("c2")  // crash when charged: purchase() never returns
        d.wait(wallMs: 3_000)
        let text = d.screen().text
        #expect(text.contains("coins_100 verified"), "\(text)")
        #expect(!text.contains("coins_100 success"), "\(text)")
    }

    @Test func aFailedPurchaseLeavesNoTransactionButNamesItsOrder() {
        var d = Driver(UIModel(seed: 7, users: ["alice", "bob"], preset: .sk2Hardened))
        d.keys("f2b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.key(.backTab, times: 4)
        d.key(.enter)
        let text = d.screen().text
        #expect(text.contains("networkError  no transaction left behind"), "\(text)")
        #expect(text.contains("order: o1 by alice"), "\(text)")
        #expect(text.contains("none: a failed purchase() leaves no transaction to sign"), "\(text)")
    }

    @Test func aLongScenarioTitleIsCutWithAMarkAndTheStepCountStays() throws {
        let d = try DefectTests.play("sk2-interrupted-purchase-naive.yaml", width: 80, height: 24)
        let top = d.screen(80, 24).text.split(separator: "\n")[1]
        #expect(top.contains("Transaction.up… ") && top.contains(" step 0/3 "), "\(top)")
    }

    @Test func aPendingPurchaseIsNotInTransactionUnfinished() {
        var d = Driver(UIModel(seed: 7, users: ["alice", "bob"], preset: .sk2Hardened))
        d.keys("tb")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        let text = d.screen().text
        #expect(text.contains("0 in Transaction.unfinished"), "\(text)")
        #expect(text.contains("coins_100 pending        "), "no unfinished mark on a pending purchase:\n\(text)")
        d.keys("y")
        d.wait(wallMs: 300)
        #expect(
            d.screen().text.contains("coins_100 verified"),
            "approved: it came on Transaction.updates\n\(d.screen().text)")
    }

    @Test func theWordsSwitchWithTheWorldOnRestart() {
        var d = Driver(UIModel(preset: .retryFile))
        #expect(d.screen().text.contains("┌ Payment queue "))
        d.keys("p")
        d.key(.right)  // retry-file -> sk2-naive, waits for R
        d.key(.escape)
        #expect(d.screen().text.contains("┌ Payment queue "), "worlds switch only between runs")
        d.keys("Ry")
        let text = d.screen().text
        #expect(text.contains("┌ Transactions ") && text.contains("no purchase() yet"), "\(text)")
        #expect(!text.contains("verify "), "\(text)")
    }

    @Test func theStatusLineNamesTheNextEventInStoreKit2Words() {
        let action = Action.storeDeliver(txns: ["1"], redelivery: false, atForeground: false)
        #expect(action.words(in: .two).contains("Transaction.updates"))
        #expect(action.words(in: .one) == action.words)
        #expect(Action.appFinish(txn: "1", incarnation: 0).words(in: .two) == "transaction.finish() for 1")
    }
}
