import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// What keys, ticks and resizes do to the model.
@Suite struct UpdateTests {
    @Test func theClockRunsAtTheChosenSpeedAndStopsWhenPaused() {
        var d = Driver(UIModel())
        d.wait(wallMs: 1_000)
        #expect(d.model.simulation.now == 1_000)
        d.keys("++")  // 4x
        d.wait(wallMs: 1_000)
        #expect(d.model.simulation.now == 5_000)
        d.keys(" ")
        #expect(d.model.paused && d.model.wakeDelayMs == nil)
        d.wait(wallMs: 5_000)
        #expect(d.model.simulation.now == 5_000)
        d.keys(" -----")  // resume, down to 0.25x
        #expect(d.model.speed == 0.25)
        d.keys("-")
        #expect(d.model.speed == 0.25, "0.25x is the floor")
        for _ in 0..<3 { d.wait(wallMs: 1) }  // quarter milliseconds carry over
        #expect(d.model.simulation.now == 5_000)
        d.wait(wallMs: 1)
        #expect(d.model.simulation.now == 5_001)
        d.keys(String(repeating: "+", count: 20))
        #expect(d.model.speed == 64, "64x is the ceiling")
    }

    @Test func buyingThroughThePickerAddsAPaymentAndRecordsIt() {
        var d = Driver(UIModel())
        d.keys("b")
        guard case .picker(let p)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(p.items.map(\.label) == ["coins_100", "coins_550", "no_ads"])
        d.key(.down)
        d.key(.enter)
        #expect(d.model.overlay == nil)
        d.wait(wallMs: 3_000)
        #expect(d.model.simulation.store.transactions.map(\.productId) == ["coins_550"])
        #expect(d.model.simulation.server.balance(of: "alice") == 550)
        #expect(d.model.session.map(\.command) == [.buy(product: "coins_550")])
        d.keys("b3")  // a digit picks directly
        #expect(d.model.session.last?.command == .buy(product: "no_ads"))
    }

    @Test func crashWhenChargedFiresRightAfterTheChargeBeforeTheCallback() {
        var d = Driver(UIModel())
        d.keys("b")
        d.key(.enter)
        d.keys("c2")
        #expect(d.model.armed?.event == .charged)
        #expect(
            d.screen().text.contains("fault armed: crash right after the next 'charged'"),
            "the Events panel shows the fault as it is armed")
        #expect(d.screen().text.contains("armed: crash when charged"))
        d.wait(wallMs: 3_000)
        let sim = d.model.simulation
        #expect(sim.app.process == .crashed)
        #expect(sim.store.queue.map(\.state) == [.purchased])
        #expect(!sim.log.contains { if case .transactionsDelivered = $0.fact { return true } else { return false } })
        #expect(d.model.armed == nil)
    }

    @Test func oneEventAtATimeWhilePaused() {
        var d = Driver(UIModel())
        d.keys(" ")
        let before = d.model.simulation.eventsProcessed
        d.keys("b")
        d.key(.enter)
        d.keys(".")
        #expect(d.model.simulation.eventsProcessed == before + 1)
        #expect(d.model.simulation.now == 80, "the order request arrives after 80ms")
        #expect(d.model.paused)
    }

    @Test func faultKeysToggleFromTheWorldsState() {
        var d = Driver(UIModel())
        d.keys("n")
        #expect(!d.model.simulation.network.deviceOnline)
        d.keys("n")
        #expect(d.model.simulation.network.deviceOnline)
        d.keys("o")
        #expect(d.model.simulation.store.outage)
        d.keys("t")
        #expect(d.model.simulation.store.askToBuy)
        d.keys("d")
        d.key(.down, times: 3)  // recharge response
        d.key(.enter)
        #expect(d.model.simulation.network.dropNextResponse == [.recharge])
        d.keys("f4")
        #expect(d.model.simulation.armedFaults.contains("next failure left unfinished"))
        d.keys("a2")
        #expect(d.model.simulation.app.loggedIn == "bob")
    }

    @Test func aRefusedCommandSaysWhy() {
        var d = Driver(UIModel())
        d.keys("l")
        #expect(d.model.status == "launch: the app is already running")
        d.keys("y")
        #expect(d.model.status == "approve: no payment is waiting for a parent")
    }

    @Test func thePolicyPanelChangesKeysLive() {
        var d = Driver(UIModel(preset: .hardened))
        d.keys("p")
        d.key(.down, times: 2)  // finish
        d.key(.right)
        #expect(d.model.simulation.policy.finish == .onPurchase)
        #expect(d.model.simulation.policy.displayName == "custom")
        d.key(.up, times: 2)  // preset
        d.key(.left, times: 3)  // sk2-naive waits; retry-file, retransmit apply
        #expect(d.model.simulation.policy == PolicyPreset.retransmit.policy)
        #expect(d.model.pendingPreset == nil)
        d.key(.escape)
        #expect(d.model.overlay == nil)
        #expect(d.model.session.count == 2)
    }

    /// The StoreKit world switches only between runs: a preset of the other world waits
    /// for `R`, and the panel and the status line say so.
    @Test func aPresetOfTheOtherStoreKitWorldStartsOnRestart() {
        var d = Driver(UIModel(preset: .hardened))
        d.keys("p")
        d.key(.right, times: 3)  // local-table, retransmit, retry-file apply now
        #expect(d.model.simulation.policy == PolicyPreset.retryFile.policy)
        d.key(.right)  // sk2-naive waits for R
        #expect(d.model.pendingPreset == .sk2Naive)
        #expect(d.model.simulation.policy.storekit == .one)
        #expect(d.model.status?.contains("press R (worlds switch only between runs)") == true)
        #expect(d.screen(80, 24).text.contains("retry-file, then sk2-naive on R"))
        d.key(.escape)
        d.keys("Ry")
        #expect(d.model.simulation.policy == PolicyPreset.sk2Naive.policy)
        #expect(d.model.pendingPreset == nil)
        d.keys("p")
        #expect(d.screen(80, 24).text.contains("sweep-unfinished"))
        #expect(!d.screen(80, 24).text.contains("finish-failed"))
    }

    @Test func helpOpensAndEscapeClosesIt() {
        var d = Driver(UIModel())
        d.keys("?")
        #expect(d.model.overlay == .help)
        d.keys("b")
        #expect(d.model.overlay == .help, "keys other than Esc do not act under help")
        d.key(.escape)
        #expect(d.model.overlay == nil)
    }

    @Test func quitFromAnywhereEvenWhenTooSmall() {
        var d = Driver(UIModel(), width: 40, height: 12)
        d.keys("b")
        #expect(d.model.overlay == nil, "only q works while the terminal is too small")
        #expect(d.model.update(.key(.char("q"))) == [.quit])
        #expect(d.model.update(.key(.ctrlC)) == [.quit])
        #expect(d.model.update(.interrupted) == [.quit])
        d.effects += d.model.update(.resize(width: 80, height: 24))
        #expect(!d.model.tooSmall)
    }

    @Test func eventsScrollBackAndEndFollows() {
        var d = Driver(UIModel())
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        d.key(.up, times: 5)
        #expect(d.model.scrollOffset(.events) == 5)
        d.key(.end)
        #expect(d.model.scrollOffset(.events) == 0)
        d.key(.tab)
        #expect(d.model.focus == .app)
        d.key(.backTab)
        #expect(d.model.focus == .events)
    }

    @Test func theSameMessagesGiveTheSameScreen() {
        let a = RenderGoldenTests.lostOrderSession()
        let b = RenderGoldenTests.lostOrderSession()
        #expect(a.screen().text == b.screen().text)
        #expect(a.model.simulation.log == b.model.simulation.log)
    }
}

extension UpdateTests {
    /// The scroll badges count lines without building them; the counts must be the truth.
    @Test func panelLineCountsMatchTheLinesAfterABusyAutopilotSession() {
        var d = Driver(UIModel(seed: 5, options: UIOptions(autopilot: true, speed: 64)))
        d.wait(wallMs: 20_000)  // about 21 minutes of virtual time
        let sim = d.model.simulation
        #expect(sim.auditor.charges.count > 10)
        for width in [22, 38, 48] {
            let content = PanelContent(sim: sim, glyphs: .unicode, ascii: false, width: width)
            #expect(content.total(.app) == content.app.count)
            #expect(content.total(.queue) == content.queue.count, "width \(width)")
            #expect(content.total(.server) == content.server.count, "width \(width)")
            #expect(content.total(.network) == content.network.count, "width \(width)")
            #expect(content.total(.auditor) == content.auditor.count, "width \(width)")
        }
    }
}
