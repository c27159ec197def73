import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// Keys with one meaning (q closes boxes, R asks, pickers grey what cannot happen, / and N
/// in Events), going off the script, and the clock that waits while nobody sees it.
@Suite struct OneMeaningKeyTests {
    @Test func qClosesEveryBoxAndQuitsOnlyFromTheMainScreen() {
        var d = Driver(UIModel())
        for opener in ["?", "p", "b", "w", "m", "R"] {
            d.keys(opener)
            #expect(d.model.overlay != nil, "\(opener) opens a box")
            d.keys("q")
            #expect(d.model.overlay == nil && d.effects.isEmpty, "q closes what \(opener) opened; it does not quit")
        }
        d.keys("q")
        #expect(d.effects == [.quit])
    }

    @Test func restartAsksFirstAndNKeepsTheWorld() {
        var d = Driver.bought(wallMs: 3_000)
        d.keys("Rn")
        #expect(d.model.simulation.now == 3_000 && d.model.status == "not restarted")
        d.keys("Ry")
        #expect(d.model.simulation.now == 0 && d.model.simulation.store.transactions.isEmpty)
        d.keys("un")
        #expect(d.model.simulation.app.process != .uninstalled && d.model.status == "not uninstalled")
        d.keys("uy")
        #expect(d.model.simulation.app.process == .uninstalled)
    }

    @Test func pickersGreyWhatTheWorldRefusesAndSayWhy() {
        var d = Driver(UIModel())
        d.keys("c1")  // crash now
        d.keys("a")
        guard case .picker(let accounts)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(accounts.items.allSatisfy { $0.refused == "the app is not running" }, "\(accounts.items)")
        d.keys("2")
        #expect(d.model.overlay != nil, "a greyed row is not chosen")
        #expect(d.model.status == "bob: the app is not running")
        d.key(.escape)
        d.keys("d")
        guard case .picker(let drops)? = d.model.overlay else { Issue.record("no picker"); return }
        let notify = drops.items.filter { $0.label.hasPrefix("notify") }
        #expect(!notify.isEmpty && notify.allSatisfy { $0.refused?.contains("server-notifications") == true })
        #expect(d.screen().lines[39].contains("1-9 0 pick"), "\(d.screen().lines[39])")
    }

    /// Refund, spend, forge and the server's outage from the keyboard, each through the core.
    @Test func theServerSidePickerRefundsSpendsAndTakesTheServerDown() {
        var d = Driver.bought(UIModel(preset: .hardened), wallMs: 20_000)
        #expect(d.model.simulation.server.balance(of: "alice") == 100)
        d.keys("m")
        d.keys("m3")  // spend 100
        #expect(d.model.simulation.server.balance(of: "alice") == 0)
        d.keys("m1")  // refund newest
        #expect(d.model.simulation.store.transactions.first?.refundedAt != nil)
        #expect(d.screen().text.contains("REFUNDED"), "the queue row says it: \(d.screen().text)")
        d.keys("m5")
        #expect(d.model.simulation.server.outage)
        d.keys("m")
        guard case .picker(let p)? = d.model.overlay else { Issue.record("no picker"); return }
        #expect(p.items[4].label == "server back")
        #expect(p.items[0].refused != nil, "nothing left to refund")
    }

    @Test func slashSearchesEventsAndNHidesNetworkLines() {
        var d = Driver.bought(wallMs: 5_000)
        d.keys("N")
        var events = DefectTests.panel(d.screen(), "Events")
        #expect(!events.contains { $0.contains(" Network ") }, "\(events)")
        #expect(d.screen().text.contains("Events: no Network"))
        d.keys("/charged")
        d.key(.enter)
        events = DefectTests.panel(d.screen(), "Events").filter { !$0.allSatisfy { $0 == " " } }
        #expect(!events.isEmpty && events.allSatisfy { $0.lowercased().contains("charged") }, "\(events)")
        d.keys("/")
        d.key(.enter)
        #expect(d.model.eventsView.search == nil)
    }

    @Test func offTheScriptTheEndingSaysItDiffersNotFail() throws {
        var d = try DefectTests.play("lost-order-crash-at-charge-naive.yaml")
        d.keys("p")
        d.key(.right)  // preset: the next one
        d.key(.escape)
        d.keys("G")
        let text = d.screen().text
        #expect(text.contains("DIFFERS FROM THE FILE") && text.contains("you added: policy preset"), "\(text)")
        #expect(!text.contains("FAIL "), "\(text)")
    }

    @Test func theClockWaitsWhileTheScreenIsTooSmall() {
        var d = Driver(UIModel())
        d.effects += d.model.update(.resize(width: 60, height: 15))
        d.wait(wallMs: 5_000)
        #expect(d.model.simulation.now == 0)
        d.effects += d.model.update(.resize(width: 120, height: 40))
        d.wait(wallMs: 1_000)
        #expect(d.model.simulation.now == 1_000)
    }

    @Test func aResizeWhileRecordingIsAnAsciicastResizeEvent() {
        var cast = Asciicast(width: 120, height: 40, unixTime: 0)
        cast.add(UIModel().render(width: 120, height: 40), at: 0)
        cast.add(UIModel().render(width: 100, height: 30), at: 1.5)
        #expect(cast.text.contains("[1.500, \"r\", \"100x30\"]\n"), "\(cast.text.prefix(300))")
    }
}

/// The scenario browser, the glossary, the story page and the split screen.
@Suite struct TeachingScreenTests {
    @Test func bracketsAskTheEdgeForTheNextFileAndItPlaysFromStepZero() throws {
        var model = UIModel(play: try RenderGoldenTests.shipped("replay-fraud-naive.yaml"), file: "scenarios/b.yaml")
        model.playlist = ["scenarios/a.yaml", "scenarios/b.yaml", "scenarios/c.yaml"]
        var d = Driver(model)
        d.keys("]")
        #expect(d.effects.last == .openScenario(path: "scenarios/c.yaml"))
        d.keys("[")
        #expect(d.effects.last == .openScenario(path: "scenarios/a.yaml"))
        let next = try RenderGoldenTests.shipped("replay-fraud-blocked-hardened.yaml")
        d.effects += d.model.update(.scenarioOpened(ScenarioFile(path: "scenarios/c.yaml", scenario: next)))
        #expect(d.model.playFile == "scenarios/c.yaml" && d.model.player.nextStep == 0)
        #expect(d.model.playlist.count == 3, "the playlist is kept")
        d.keys("O")
        guard case .picker(let browser)? = d.model.overlay else { Issue.record("no browser"); return }
        #expect(browser.selected == 2 && browser.items[2].detail == "playing now")
    }

    /// Defect 17 of walkthrough 3: the browser lists the files under their failure modes,
    /// each with its title.
    @Test func theBrowserGroupsTheFilesUnderTheirFailureModesWithTitles() throws {
        var model = UIModel(play: try RenderGoldenTests.shipped("replay-fraud-naive.yaml"), file: "scenarios/b.yaml")
        model.playlist = ["scenarios/a.yaml", "scenarios/b.yaml", "scenarios/c.yaml"]
        model.playlistGroups = [
            "scenarios/a.yaml": "Lost order", "scenarios/b.yaml": "Lost order",
            "scenarios/c.yaml": "Replay fraud",
        ]
        model.playlistTitles = ["scenarios/a.yaml": "Killed at the charge", "scenarios/c.yaml": "A replay"]
        var d = Driver(model)
        d.keys("O")
        let rows = d.screen(120, 40).text.split(separator: "\n").map(String.init)
        let lost = try #require(rows.firstIndex { $0.contains("│Lost order") })
        #expect(rows[lost + 1].contains("a.yaml") && rows[lost + 1].contains("Killed at the charge"))
        #expect(rows[lost + 2].contains("b.yaml") && rows[lost + 2].contains("playing now"))
        #expect(rows[lost + 3].contains("│Replay fraud") && rows[lost + 4].contains("A replay"))
    }

    @Test func theGlossaryComesFromTheCoresTables() {
        var d = Driver(UIModel())
        d.keys("w")
        let lines = PageBox.lines(.glossary, d.model).map { $0.map(\.text).joined() }
        for type in AnomalyType.allCases {
            #expect(
                lines.contains { $0.hasPrefix(type.rawValue) && $0.contains(UIModel.plain(type.meaning(in: .one))) })
        }
        for status in AnomalyStatus.allCases { #expect(lines.contains { $0.hasPrefix(status.rawValue + " ") }) }
        // The keys of the world, by the one rule (PolicyKey.shown): in StoreKit 1 the server
        // side's, but not those only a subscription reads.
        for key in PolicyKey.shown(in: .one) { #expect(lines.contains { $0.hasPrefix(key.rawValue + " ") }) }
        for key in PolicyKey.subscriptionServerKeys { #expect(!lines.contains { $0.hasPrefix(key.rawValue + " ") }) }
        #expect(lines.contains { $0.contains("掉单") })
    }

    @Test func theStoryPageShowsWhatTheNarrationCuts() throws {
        var d = try DefectTests.play("duplicate-receipt-unfinished-failure-naive.yaml", width: 80, height: 24)
        #expect(d.screen(80, 24).text.contains("S shows all"))
        d.keys("S")
        let text = d.screen(80, 24).text
        let story = try RenderGoldenTests.shipped("duplicate-receipt-unfinished-failure-naive.yaml").story ?? ""
        let lastWord = story.split(separator: " ").last.map(String.init) ?? ""
        #expect(text.contains(UIModel.plain(lastWord).trimmingCharacters(in: .whitespacesAndNewlines)), "\(text)")
        #expect(!text.contains("`"))
    }

    /// The split screen: the same steps under hardened; what hardened avoided is named, with
    /// the settings that saved it.
    /// Walkthrough 6, N2: a twin an hour further on (its reconciliation) says so, and its
    /// verdict is never cut for it.
    @Test func aTwinFurtherOnSaysItsClockAndKeepsItsVerdict() throws {
        var d = try DefectTests.play("server-refund-unclawed-naive.yaml")
        d.keys("VG")
        let wide = d.screen(120, 40).text
        #expect(wide.contains(" sk2-hardened at 1:00:00.000: 1 anomaly, 0 unresolved"), "\(wide)")
        #expect(wide.contains(" policy sk2-naive (this run): 1 anomaly, 1 unresolved"), "\(wide)")
        let narrow = d.screen(80, 24).text
        #expect(narrow.contains(" sk2-hardened: 1 anomaly, 0 unresolved"), "\(narrow)")
    }

    @Test func theSplitRunsTheSameInputsUnderThePairedPreset() throws {
        var d = try DefectTests.play("missed-order-request-lost-naive.yaml")
        d.keys("V")
        #expect(d.model.twin?.simulation.policy == PolicyPreset.hardened.policy)
        d.keys("G")
        let text = d.screen().text
        #expect(text.contains("policy naive (this run): 1 anomaly, 1 unresolved"), "\(text)")
        // The twin settled further on (its retry answered at 0:01:13.780): it says its clock, from
        // which its Auditor's ages run (walkthrough 6, N2).
        #expect(d.model.twin?.simulation.now != d.model.simulation.now)
        #expect(text.contains("policy hardened (same inputs, at 0:01:13.780): no anomaly"), "\(text)")
        // At 80 columns the clock stays and the verdict is whole.
        #expect(d.screen(80, 24).text.contains(" hardened at 0:01:13.780: no anomaly"), "\(d.screen(80, 24).text)")
        // Once both worlds are idle the replays say what saved it, as `run --against` does.
        #expect(text.contains("avoided: missed-order o1, prevented by: retry-immediate"), "\(text)")
        #expect(d.model.splitAvoided?.right.first?.hasPrefix("missed-order o1, prevented by: ") == true)
        #expect(d.model.splitAvoided?.left.isEmpty == true)
        #expect(d.model.twin?.simulation.server.balance(of: "alice") == 100)
        d.keys("V")
        #expect(d.model.twin == nil)
    }

    /// Walkthrough 5, F3: at 80x24 the split's Auditors show their money lines, which the
    /// halves are compared by, and each Merchant server its first account.
    @Test func theSplitAt80x24KeepsEachAuditorsMoneyLines() throws {
        var d = try DefectTests.play("lost-order-crash-at-charge-naive.yaml", width: 80, height: 24)
        d.keys("G")
        d.keys("V")
        let grid = d.screen(80, 24)
        let auditors = grid.lines.filter { $0.hasPrefix("│paid, not delivered") }
        #expect(auditors.count == 1, "\(grid.text)")
        #expect(auditors.first?.contains("│paid, not delivered $0.99") == true, "\(grid.text)")
        #expect(auditors.first?.contains("││paid, not delivered $0.00") == true, "\(grid.text)")
        #expect(
            grid.lines.contains { $0.contains("│alice    0 coins") && $0.contains("│alice    100 coins") },
            "\(grid.text)")
        #expect(grid.lines.contains { $0.contains("┌ Events ") }, "\(grid.text)")
    }

    @Test func theSplitStartedMidwayReplaysWhatCameBefore() {
        var d = Driver(UIModel(preset: .naive))
        d.keys("c2b")
        d.key(.enter)
        d.wait(wallMs: 40_000)
        d.keys("V")
        #expect(d.model.twin?.simulation.now == d.model.simulation.now)
        #expect(d.model.twin?.simulation.store.transactions.count == 1, "the purchase was replayed")
        d.keys("l")
        d.wait(wallMs: 5_000)
        #expect(d.model.twin?.simulation.app.isRunning == true, "keys drive both worlds")
        #expect(d.model.simulation.auditor.anomalies.first?.status == .open)
        #expect(d.model.twin?.simulation.auditor.unresolved.isEmpty == true)
    }
}

extension TeachingScreenTests {
    /// The chain of facts names what caused the anomaly, though it does not name the
    /// transaction: the crash, the lost request and its time-out, the other account's login.
    @Test(arguments: [
        ("lost-order-crash-at-charge-naive.yaml", AnomalyType.lostOrder, ["app process died", "> crash"]),
        (
            "missed-order-request-lost-naive.yaml", .missedOrder,
            ["recharge request lost", "recharge request timed out"]
        ),
        ("wrong-account-switch-before-delivery-naive.yaml", .wrongAccount, ["bob logged in", "alice logged out"]),
        ("double-credit-crash-before-finish-naive.yaml", .doubleCredit, ["app process died", "app launched"]),
    ])
    func theChainOfFactsHoldsTheCause(file: String, type: AnomalyType, causes: [String]) throws {
        let d = try InspectorTests.inspect(file, type)
        guard case .inspect(let target, _)? = d.model.overlay else { Issue.record("no inspector"); return }
        let lines = Inspector(sim: d.model.simulation, glyphs: .unicode).lines(target).map { $0.map(\.text).joined() }
        guard let chain = lines.firstIndex(where: { $0.hasPrefix("chain of facts") }) else {
            Issue.record("no chain")
            return
        }
        for cause in causes {
            #expect(
                lines[chain...].contains { $0.contains(cause) }, "\(file): \(cause)\n\(lines.joined(separator: "\n"))")
        }
    }
}

extension TeachingScreenTests {
    /// A refund shows on the row, in the payload (revocationDate) and under money.
    @Test func aRefundShowsOnTheRowThePayloadAndTheMoney() throws {
        var d = try DefectTests.play("server-refund-clawed-back-hardened.yaml")
        d.keys("G")
        #expect(d.screen().text.contains("REFUNDED"), "\(d.screen().text)")
        d.key(.backTab, times: 4)  // Events -> the queue
        d.keys("i")
        let text = d.screen().text
        #expect(text.contains("refunded: by Apple at"), "\(text)")
        #expect(text.contains("clawed back: 100 coins from alice"), "\(text)")
        if d.model.simulation.policy.storekit == .two { #expect(text.contains("revocationDate: "), "\(text)") }
    }
}

extension OneMeaningKeyTests {
    /// `L` stops where the longest line ends; ':' is named as a key; the header names the
    /// nearest preset instead of "custom".
    @Test func smallThingsOfTheWalkthrough() {
        var d = Driver.bought(wallMs: 5_000)
        for _ in 0..<60 { d.keys("L") }
        let widest = d.model.widestLine(.events)
        #expect(d.model.panels.hscroll[.events] == widest, "L stops at the longest line (\(widest))")
        #expect(!DefectTests.panel(d.screen(), "Events").allSatisfy { $0.allSatisfy { $0 == " " } })
        d.keys(":")
        #expect(d.model.status == "key ':' is not bound; ? lists every key")
        d.keys("p")
        d.key(.down)
        d.key(.right)  // one key off hardened
        d.key(.escape)
        #expect(d.screen().lines[0].contains("policy hardened +1"), "\(d.screen().lines[0])")
    }
}

extension TeachingScreenTests {
    /// 9: after a preset change and R, a saved session names the preset in use.
    @Test func aSavedSessionNamesThePresetInUse() throws {
        var d = Driver(UIModel(preset: .naive))
        d.keys("p")
        d.key(.right)  // preset: the next one after naive
        let preset = d.model.simulation.policy.matchingPreset
        d.key(.escape)
        d.keys("Ry")
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_000)
        let saved = try SessionAndPlayTests.saved(&d)
        #expect(preset != nil && saved.preset == preset && saved.policy == preset?.policy, "\(saved.preset)")
        #expect(saved.story?.contains("policy \(preset?.rawValue ?? "?"),") == true, "\(saved.story ?? "")")
    }

    /// 14, 15, 16: a blocked replay names the attacker's order; 'when opened' is the opening
    /// text; the order credited to another account names who got the coins.
    @Test func theInspectorNamesTheAttackersOrderAndTheOpeningWords() throws {
        var d = Driver.bought(UIModel(preset: .hardened), wallMs: 20_000)
        d.keys("r")
        d.wait(wallMs: 10_000)
        d.key(.backTab)  // Auditor
        d.keys("i")
        let replay = d.screen().text
        let attacker = d.model.simulation.server.orders.last { $0.createdBy == .attacker }
        #expect(attacker != nil && replay.contains("\(attacker!.id) by"), "\(replay)")
        let wrong = try InspectorTests.inspect("wrong-account-switch-before-delivery-naive.yaml", .wrongAccount)
        let text = wrong.screen().text
        #expect(text.contains("when opened: coins_100 paid by alice"), "\(text)")
        #expect(!text.contains("when opened: coins_100 paid by alice (1000000000001, order o1) credited to bob"))
        var closed = wrong
        closed.key(.escape)
        let server = DefectTests.panel(closed.screen(), "Merchant server")
        #expect(server.contains { $0.contains("→bob") }, "\(server)")
    }
}

extension OneMeaningKeyTests {
    /// The refund loop and the environment are reachable from `m` too: a prorated refund, a
    /// request, a decline, a reversal, a forged JWS that claims Xcode, and the environment of
    /// the next run (it starts on R, as a world's environment is chosen before its run).
    @Test func theServerSidePickerReachesTheRefundLoopAndTheEnvironment() throws {
        var d = Driver.bought(UIModel(preset: .sk2Hardened), wallMs: 20_000)
        d.keys("m")
        guard case .picker(let p)? = d.model.overlay else {
            Issue.record("no picker")
            return
        }
        let labels = p.items.map(\.label)
        for label in ["refund 40%", "refund request", "refund decline", "refund reverse", "forge (Xcode)"] {
            #expect(labels.contains(label), "\(labels)")
        }
        let refund = try #require(p.items.firstIndex { $0.label == "refund 40%" })
        d.keys(String(refund + 1))
        #expect(d.model.simulation.store.transactions.first?.refundedAt != nil)
        d.keys("m")
        guard case .picker(let again)? = d.model.overlay else {
            Issue.record("no picker")
            return
        }
        let environment = try #require(again.items.firstIndex { $0.label == "environment sandbox" })
        for _ in 0..<environment { d.key(.down) }
        d.key(.enter)
        #expect(d.model.status?.contains("starts on restart") == true, "\(d.model.status ?? "")")
        #expect(d.model.simulation.config.environment == .production)
        d.keys("Ry")
        #expect(d.model.simulation.config.environment == .sandbox)
    }
}
