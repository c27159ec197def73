import IAPSimCore
import IAPSimScenario

extension Step {
    /// The time of an `at` step.
    var atTime: VirtualTime? {
        if case .at(let t) = trigger { return t }
        return nil
    }
}

extension UIModel {
    /// `s`: the session so far as a scenario file. The `expect` block comes from replaying the
    /// file itself and settling, so `iapsim run` on it passes by construction; the replay is
    /// also compared with what happened live, and a difference is reported.
    mutating func saveSession() -> [UIEffect] {
        // The start's world as it is (catalog, StoreKit file, grace period, environment),
        // with the session's steps.
        var scenario = sessionScenario
        scenario.title =
            isPlay
            ? ScenarioVocabulary.title(player.scenario.title, adding: " (played, with extra actions)")
            : "Sandbox session"
        scenario.story = nil
        let (_, replay) = ScenarioPlayer.run(scenario)
        scenario.expect = Expectations.verdict(of: replay.simulation)
        scenario.story = story(actions: session.count, matchesLive: replayMatchesLive(scenario))
        let text = ScenarioWriter.yaml(scenario)
        do {
            _ = try ScenarioParser.parse(text: text, file: "session")
        } catch {
            status = "could not save: the session does not read back as a scenario (\(error))"
            return []
        }
        status = "saving…"
        return [.save(baseName: "iapsim-session", contents: text)]
    }

    /// Replays the steps up to the live clock and compares the event logs.
    func replayMatchesLive(_ scenario: Scenario) -> Bool {
        var replay = ScenarioPlayer(scenario, logLimit: options.logLimit)
        while !replay.stepsDone { _ = replay.playStep() }
        if replay.timeout != nil { return false }
        _ = replay.advance(until: simulation.now)
        let a = replay.simulation, b = simulation
        let n = min(a.log.count, b.log.count, 500)
        return a.logCount == b.logCount && a.log.suffix(n) == b.log.suffix(n)
    }

    func story(actions: Int, matchesLive: Bool) -> String {
        var text =
            "Recorded in the iapsim terminal UI: \(actions) action(s) over "
            + "\(DurationText.clock(simulation.now)) of virtual time, policy "
            + "\(player.scenario.policy.matchingPreset?.rawValue ?? player.scenario.preset.rawValue + " with changes"), "
            + "seed \(player.scenario.seed). "
            + "The expect block is the auditor's verdict once the world has settled."
        if !matchesLive {
            text +=
                " Note: replayed from this file, the run differs from the live session "
                + "(an action taken between two events of the same millisecond)."
        }
        return text + "\n"
    }
}
