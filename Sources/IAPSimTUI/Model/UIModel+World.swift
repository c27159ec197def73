import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// Applies a person's command now, records it for `s`, and says so if the world refused.
    mutating func act(_ command: Command, say: String? = nil) {
        if result != nil {
            status = "the run has ended; q quits"
            return
        }
        if let why = simulation.refusal(of: command) {
            status = "\(command.scenarioText): \(why)"
        }
        player.inject(command)
        twinInject(command)
        if isPlay { playState.addOffScript(command) }
        record(command, say: say)
    }

    mutating func record(_ command: Command, say: String? = nil) {
        // Cycling through presets (or one key's values) records only where it stopped, as
        // long as nothing but policy changes happened in between.
        if let last = session.last, UIModel.replaces(command, last.command),
            simulation.entries(since: lastRecordLogCount).allSatisfy(UIModel.isPolicyFact)
        {
            session.removeLast()
        }
        session.append(Step(.at(simulation.now), command, say: say))
        lastRecordLogCount = simulation.logCount
    }

    static func replaces(_ new: Command, _ old: Command) -> Bool {
        if case .setPreset = new, case .setPreset = old { return true }
        if case .setPolicy(let a) = new, case .setPolicy(let b) = old { return a.key == b.key }
        return false
    }

    static func isPolicyFact(_ e: LogEntry) -> Bool {
        switch e.fact {
        case .policyChanged: return true
        case .commandIssued(let c): return replaces(c, c)
        default: return false
        }
    }

    /// A command that ran right after an event: a marker step where it was armed, then a
    /// `when` step, so that a replay fires it after the same event, before any other.
    mutating func recordWhen(
        _ event: TriggerEvent, _ command: Command, armedAt: VirtualTime,
        say: String? = nil
    ) {
        if armedAt > (session.last.flatMap(\.atTime) ?? -1) {
            session.append(Step(.at(armedAt), .wait(0)))
        }
        let within = max(Trigger.defaultWithin, simulation.now - armedAt + 1_000)
        session.append(Step(.when(event, within: within), command, say: say))
    }

    /// Moves the clock `virtualMs` forward, firing armed commands and the autopilot on the way;
    /// in play mode it stops where the next step is due.
    mutating func advanceLive(by virtualMs: VirtualTime) {
        let target = simulation.now + virtualMs
        while simulation.now < target || virtualMs == 0 {
            var until = target
            if let pilot = autopilot { until = min(until, pilot.nextAt) }
            let moved = player.advance(until: until, watch: armed?.event)
            if moved.watchFired { fireArmed() }
            if moved.stepDue {
                playState.waitForStep()
                return
            }
            if var pilot = autopilot, simulation.now >= pilot.nextAt {
                if let command = pilot.act(simulation) {
                    player.inject(command)
                    twinInject(command)
                    record(command)
                }
                autopilot = pilot
            }
            if virtualMs == 0 { return }
        }
    }

    mutating func fireArmed() {
        guard let a = armed else { return }
        armed = nil
        player.inject(a.command)
        twinInject(a.command)
        if isPlay { playState.addOffScript(a.command) }
        recordWhen(a.event, a.command, armedAt: a.armedAt)
        status = "\(a.command.scenarioText) ran when \(a.event.rawValue)"
    }

    /// `.`: the next event alone, then paused.
    mutating func stepOneEvent() {
        paused = true
        guard result == nil else { return }
        if isPlay && player.nextStepIsDue {
            playState.waitForStep()
            status = "the next step is due: Enter runs it"
            return
        }
        guard simulation.nextEventTime != nil else {
            status = "nothing is scheduled"
            return
        }
        // Timers that find nothing to do and the auditor's empty checks log nothing: `.` runs
        // through them (at most 50) to the next event that shows, so no press is wasted.
        let before = simulation.logCount
        for _ in 0..<50 {
            let moved = player.advance(until: Int.max / 2, maxEvents: 1, watch: armed?.event)
            if moved.watchFired { fireArmed() }
            if moved.stepDue { playState.waitForStep() }
            if moved.watchFired || moved.stepDue || simulation.logCount != before || simulation.nextEventTime == nil {
                break
            }
        }
        if simulation.logCount == before {
            status = "ran the internal events due (timers, the auditor's checks); nothing to log yet"
        }
    }

    /// Enter in play mode: the next step now (its trigger reached at once if need be), then
    /// the clock runs on towards the following one.
    mutating func playNextStep() {
        if askIfDue() { return }
        guard result == nil else {
            status = "the run has ended: B steps back, R restarts" + (playlist.isEmpty ? "" : ", ] opens the next file")
            return
        }
        if player.stepsDone {
            playToEnd()
            return
        }
        let index = player.nextStep
        let before = simulation.logCount
        let records = player.playStep()
        if split.twin != nil { _ = split.twin!.playStep() }
        for (i, record) in records.enumerated() {
            guard case .stepStarted(_, let step, let startedAt) = record else { continue }
            // The marker stands where the step began, after what its trigger waited through,
            // with the time it began (not the time the step's own waiting ended).
            let waited = records[..<i].filter { if case .entry = $0 { return true } else { return false } }.count
            note(
                .step,
                "step \(index + 1) (line \(step.line)): " + UIModel.triggerText(step.trigger)
                    + step.command.scenarioText, position: before + waited, time: startedAt, started: record)
            break
        }
        playState.ran(step: index, nextIsDue: false)
        if let stop = player.timeout {
            status = offScript.isEmpty ? "\(stop)" : "differs from the file (you added: \(offScriptWords)): \(stop)"
            finishPlay()
            return
        }
        let step = player.scenario.steps[index]
        if case .when(let event, _) = step.trigger {
            let since = session.last.flatMap(\.atTime) ?? 0
            recordWhen(event, step.command, armedAt: since, say: step.say)
        } else {
            let issued = simulation.entries(since: before).first { entry in
                if case .commandIssued = entry.fact { return true }
                if case .commandIgnored = entry.fact { return true }
                return false
            }
            session.append(Step(.at(issued?.time ?? simulation.now), step.command, say: step.say))
        }
        playState.ran(step: index, nextIsDue: player.nextStepIsDue)
        paused = false
    }

    /// `G`: every step left, settle, expectations.
    mutating func playToEnd() {
        guard result == nil else { return }
        while !player.stepsDone {
            playNextStep()
            if result != nil { return }
        }
        finishPlay()
    }

    mutating func finishPlay() {
        let (_, outcome) = player.finish()
        if split.twin != nil { _ = split.twin!.finish() }
        playState.finished(outcome, lastStep: player.scenario.steps.isEmpty ? nil : player.nextStep - 1)
        let failing = outcome.expectations.filter { !$0.holds }.count
        if outcome.timeout == nil {
            status =
                failing == 0
                ? "settled: every expectation holds"
                : offScript.isEmpty
                    ? "settled: \(failing) of \(outcome.expectations.count) expectations fail"
                    : "settled: differs from the file in \(failing) of \(outcome.expectations.count); you added: "
                        + offScriptWords
        }
    }

    // MARK: the policy panel

    /// The keys the panel lists: those of the world the run is in.
    /// StoreKit 1 lists the server side's keys too, so that they can be turned on by hand,
    /// but not the ones only subscriptions read (StoreKit 2 only); under serve no `server-*`
    /// key is listed: the user's backend is the server, and it ignores them.
    var policyKeys: [PolicyKey] {
        PolicyKey.shown(in: simulation.policy.storekit, served: simulation.isExternal)
    }
}

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

extension UIModel {
    /// The session so far (the file's or the sandbox's start, and every action since) as
    /// the replays' inputs.
    /// Everything else is the start's: its catalog (a StoreKit file's), its grace period, its
    /// environment (a replay without the grace period can make no grace-cut, and so every
    /// candidate change seemed to prevent one).
    /// The time that passed after the last action (`.`, `+`, a lesson's run) is a last step,
    /// `at NOW: wait 0s`: without it the replays (and a saved session) stop where the last
    /// action was taken, before the renewal or the grace period the world has since reached,
    /// and every candidate change seemed to prevent what had not happened yet.
    var sessionScenario: Scenario {
        var scenario = player.scenario
        scenario.steps = session
        let last = session.compactMap(\.atTime).max() ?? 0
        if simulation.now > last {
            scenario.steps.append(Step(.at(simulation.now), .wait(0)))
        }
        scenario.expect = Expectations()
        return scenario
    }

    /// Works out caused by / prevented by / saved by for the world as it is now, by
    /// replaying the session's actions on copies (the live world is not touched).
    mutating func workOutWhatIf() {
        whatIfWorking = false
        // Under serve a real backend cannot be copied: nothing is replayed.
        guard !simulation.isExternal else { return }
        whatIf = sessionScenario.whatIf(simulation)
    }

    /// An anomaly's inspector opened: its replays run after the frame that shows the
    /// inspector saying they are under way (under serve nothing is replayed).
    mutating func workOutWhatIfAfterAFrame() -> [UIEffect] {
        guard !simulation.isExternal else { return [] }
        whatIfWorking = true
        return [.afterFrame(.workOutWhatIf)]
    }

    /// `H`: the selected anomaly's handout (or `id`'s, from its inspector), as Markdown.
    mutating func writeHandout(_ id: Int? = nil) -> [UIEffect] {
        let list = inspectableAnomalies
        guard let id = id ?? (list.isEmpty ? nil : list[selectedIndex(.auditor)].id),
            simulation.auditor.anomalies.contains(where: { $0.id == id })
        else {
            status = "no anomaly yet: no handout to write"
            return []
        }
        // A frame that says so first: the replays take a while on a long session.
        status = "writing the handout of A\(id)… (replaying the session without each input, under each key)"
        return [.afterFrame(.writeHandout(id: id))]
    }

    /// The handout of anomaly `id`, once the frame that announces it is drawn.
    mutating func writeHandoutNow(_ id: Int) -> [UIEffect] {
        guard let anomaly = simulation.auditor.anomalies.first(where: { $0.id == id }) else { return [] }
        workOutWhatIf()  // the world may have moved since the inspector opened
        let file: String
        switch mode {
        case .sandbox: file = Handout.sandbox
        case .play(let path): file = path
        }
        let source = Handout.Source(
            title: player.scenario.title, file: file, sim: simulation, log: simulation.log,
            records: recordsWithSteps(),
            whatIf: whatIf)
        return [
            .saveHandout(
                baseName: "iapsim-A\(id)-\(anomaly.type.rawValue)", contents: Handout.markdown(anomaly, from: source))
        ]
    }
}

extension UIModel {
    /// The world's log as records, with the steps played (from their notes) where they began.
    func recordsWithSteps() -> [RunRecord] {
        let log = simulation.log
        let base = simulation.logCount - log.count
        let steps = notes.compactMap { note in note.started.map { (note.position - base, $0) } }
        var records: [RunRecord] = []
        var next = 0
        for (i, entry) in log.enumerated() {
            while next < steps.count, steps[next].0 <= i {
                records.append(steps[next].1)
                next += 1
            }
            records.append(.entry(entry))
        }
        return records
    }
}
