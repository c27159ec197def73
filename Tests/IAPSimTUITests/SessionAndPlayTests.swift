import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimTUI

/// Saving a session as a scenario, and playing a scenario step by step.
@Suite struct SessionAndPlayTests {
    static func saved(_ d: inout Driver) throws -> Scenario {
        d.keys("s")
        guard case .save(let name, let text)? = d.effects.last else {
            Issue.record("no save effect; status: \(d.model.status ?? "-")")
            throw CancellationError()
        }
        #expect(name == "iapsim-session")
        return try ScenarioParser.parse(text: text, file: "session.yaml")
    }

    @Test func aSavedSessionReplaysToTheSameVerdictAndItsExpectationsHold() throws {
        var d = RenderGoldenTests.lostOrderSession()
        let scenario = try SessionAndPlayTests.saved(&d)
        #expect(
            scenario.steps.contains {
                if case .when(.charged, _) = $0.trigger { return $0.command == .crash } else { return false }
            })
        #expect(scenario.story?.contains("differs") == false, "the replay matches the live session")
        let (_, result) = ScenarioPlayer.run(scenario)
        #expect(result.passed)
        #expect(scenario.expect.anomalies == [AnomalyExpectation(type: .lostOrder, status: .resolved, count: 1)])
        #expect(scenario.expect.credited == ["alice": 100, "bob": 0])
    }

    @Test func aSessionWithFaultsAndPolicyChangesSavesToo() throws {
        var d = Driver(UIModel(preset: .naive))
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 3_500)  // charged and credited
        d.keys("r")  // replay under naive: fraud
        d.keys("p")
        d.key(.down, times: 13)  // server-dedup
        d.key(.right)
        d.key(.escape)
        d.wait(wallMs: 1_000)  // the replay is refused: already credited
        d.keys("d")
        d.key(.down)  // order response
        d.key(.enter)
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 15_000)
        let scenario = try SessionAndPlayTests.saved(&d)
        let (_, result) = ScenarioPlayer.run(scenario)
        #expect(result.passed)
        // Every action, then the time that passed after the last one (`at NOW: wait 0s`).
        #expect(scenario.steps.count == d.model.session.count + 1)
        #expect(scenario.steps.last?.command == .wait(0) && scenario.steps.last?.atTime == d.model.simulation.now)
        #expect(result.simulation.auditor.count(.replayFraud, .blocked) == 1, "\(ScenarioWriter.yaml(scenario))")
    }

    @Test func playingStepByStepEndsAsTheHeadlessRunDoes() throws {
        for file in [
            "lost-order-crash-at-charge-hardened.yaml", "double-credit-crash-before-finish-naive.yaml",
            "wrong-account-switch-before-delivery-naive.yaml", "ask-to-buy.yaml",
        ] {
            let scenario = try RenderGoldenTests.shipped(file)
            var d = Driver(UIModel(play: scenario, file: file))
            var presses = 0
            while d.model.result == nil && presses < 50 {
                d.key(.enter)
                d.wait(wallMs: 300)
                presses += 1
            }
            let (_, headless) = ScenarioPlayer.run(scenario)
            let live = try #require(d.model.result)
            #expect(live.passed, "\(file)")
            #expect(live.simulation.log == headless.simulation.log, "\(file): same events as `iapsim run`")
        }
    }

    @Test func enterWaitsForTheNextStepsTrigger() throws {
        let scenario = try RenderGoldenTests.shipped("lost-order-crash-at-charge-hardened.yaml")
        var d = Driver(UIModel(play: scenario, file: "x.yaml"))
        #expect(d.model.waitingForStep, "step 1 is due at once")
        d.key(.enter)  // buy
        #expect(!d.model.waitingForStep)
        d.wait(wallMs: 5_000)  // runs until the charge, then stops
        #expect(d.model.waitingForStep)
        #expect(d.model.simulation.now == 2_160)
        d.wait(wallMs: 5_000)
        #expect(d.model.simulation.now == 2_160, "the clock waits for Enter")
        d.key(.enter)  // crash right after the charge
        #expect(d.model.simulation.app.process == .crashed)
        let rows = d.screen().lines
        let charged = try #require(rows.firstIndex { $0.contains("charged $0.99") })
        let marker = try #require(rows.firstIndex { $0.contains("-- step 2 (line 14): when charged: crash") })
        let crash = try #require(rows.firstIndex { $0.contains("> crash") })
        #expect(charged < marker && marker < crash, "the step's marker stands where it began")
        #expect(d.model.narratedStep == 1)
    }

    @Test func aTrainersExtraFaultChangesTheEnding() throws {
        let scenario = try RenderGoldenTests.shipped("lost-order-crash-at-charge-hardened.yaml")
        var d = Driver(UIModel(play: scenario, file: "x.yaml"))
        d.key(.enter)
        d.keys("uy")  // uninstall instead of waiting (u asks first)
        d.keys("G")
        let result = try #require(d.model.result)
        #expect(result.simulation.log != ScenarioPlayer.run(scenario).result.simulation.log)
        #expect(d.model.session.contains { $0.command == .uninstall })
    }
    @Test func theFixChosenLiveRegistersTheObserverAndTheSessionReplaysTheSame() throws {
        var d = Driver(UIModel(preset: .naive))
        d.wait(wallMs: 1_000)
        d.keys("p")
        d.key(.right)  // preset hardened: the observer at launch, registered now
        d.key(.escape)
        #expect(d.model.simulation.app.observerRegistered)
        d.keys("b")
        d.key(.enter)
        d.wait(wallMs: 35_000)
        #expect(d.model.simulation.auditor.anomalies.isEmpty)
        #expect(d.model.simulation.server.balance(of: "alice") == 100)
        let scenario = try SessionAndPlayTests.saved(&d)
        let (_, result) = ScenarioPlayer.run(scenario)
        #expect(result.passed)
        #expect(result.simulation.auditor.anomalies.isEmpty)
    }

    @Test func aFileThatWaitsInVainAfterALiveChangeDiffersRatherThanFails() throws {
        let scenario = try RenderGoldenTests.shipped("missed-order-request-lost-naive.yaml")
        var d = Driver(UIModel(play: scenario, file: "x.yaml"))
        d.keys("p")
        d.key(.right)
        d.key(.escape)
        d.keys("G")
        let status = d.model.status ?? ""
        #expect(status.contains("differs from the file"), "\(status)")
        #expect(!status.contains("fail"), "\(status)")
        let screen = d.screen().text
        #expect(screen.contains("DIFFERS FROM THE FILE"), "\(screen)")
        #expect(!screen.contains("FAIL "), "\(screen)")
    }
}
