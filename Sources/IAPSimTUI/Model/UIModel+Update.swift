import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// The only way the model changes. Returns what the edge must do.
    package mutating func update(_ message: UIMessage) -> [UIEffect] {
        switch message {
        case .resize(let w, let h):
            width = max(0, w)
            height = max(0, h)
        case .tick(let wallMs):
            // Nobody can see the world while the screen is too small: its clock waits.
            guard clockRunning, wallMs > 0, !tooSmall else { return [] }
            let quarters = wallMs * Int(speed * 4) + carryQuarters
            carryQuarters = quarters % 4
            advanceLive(by: quarters / 4)
        case .interrupted:
            return [.quit]
        case .saved(let path):
            status = "saved the session to \(path); `iapsim run \(ShellWord.quoted(path))` replays it"
        case .handoutSaved(let path):
            status = "wrote the handout to \(path) (Markdown with a Mermaid diagram)"
        case .saveFailed(let reason):
            status = "could not save: \(reason)"
        case .recordingStarted(let path):
            recording = path
            status = "recording the screen to \(path); W stops"
        case .recordingStopped(let path):
            recording = nil
            status = "recorded \(path); `asciinema play \(path)` shows it"
        case .recordingFailed(let reason):
            recording = nil
            status = "could not record: \(reason)"
        case .key(let key):
            let effects = handle(key)
            syncTwin()
            watchLesson()
            return effects
        case .scenarioOpened(let file):
            opened(file)
        case .scenarioFailed(let path, let reason):
            // A refusal that names the file (`FILE:LINE:COL: ...`) names it once.
            status = reason.hasPrefix(path + ":") ? "could not open \(reason)" : "could not open \(path): \(reason)"
        case .writeHandout(let id):
            return writeHandoutNow(id)
        case .workOutWhatIf:
            // The inspector may have closed meanwhile (a key in the same burst).
            if whatIfWorking { workOutWhatIf() }
        }
        syncTwin()
        watchLesson()
        return []
    }

    mutating func handle(_ key: Key) -> [UIEffect] {
        if key == .ctrlC { return [.quit] }
        if tooSmall { return key == .char("q") ? [.quit] : [] }
        // An open box takes every key, through its own table (its `keys`, in `Boxes/`): `q` closes it
        // as in less and htop; only the search box takes it as a letter.
        if let overlay { return handleOverlay(overlay, key) }
        status = nil
        return handleMain(key)
    }

    /// A key on the main screen: whatever the binding table says it does now.
    mutating func handleMain(_ key: Key) -> [UIEffect] {
        // Esc with nothing open only clears the status line (`handle` did): the reflex of
        // closing what is not there is no mistake to report.
        if key == .escape { return [] }
        guard let binding = KeyBinding.binding(for: key, in: self) else {
            status = whyNotNow(key)
            return []
        }
        return perform(binding.action)
    }

    /// Why `key` does nothing now: the key is bound, but not in this state (the run has
    /// ended, the focused panel has no rows to inspect, ...), or not bound at all.
    func whyNotNow(_ key: Key) -> String {
        let unbound = "\(key.name): key not bound; ? lists every key"
        guard let other = KeyBinding.all.first(where: { $0.keys.contains(key) }) else {
            return key.name.count == 1 ? "key '\(key.name)' is not bound; ? lists every key" : unbound
        }
        let name = other.written.replacingOccurrences(of: "`", with: "")
        switch other.context {
        case .storeKit1:
            // Only `v` (verifyReceipt's status) is StoreKit 1's alone.
            if simulation.policy.storekit == .two {
                return "\(name) is StoreKit 1 only: no verifyReceipt, a StoreKit 2 server verifies the JWS itself"
            }
            return "\(name) works while the run is live; R restarts it"
        case .storeKit2, .storeKit2Live:
            if simulation.policy.storekit == .one {
                return "\(name) is StoreKit 2 only: auto-renewable subscriptions exist in the storekit: 2 world"
            }
            return "\(name) works while the run is live; R restarts it"
        case .browse: return "\(name) moves between scenario files: iapsim play FILE or iapsim learn"
        case .live: return "\(name) works while the run is live; R restarts it"
        case .sandbox: return "\(name) works in the sandbox (iapsim with no file), not in play"
        case .play: return "\(name) works while a scenario plays"
        case .always: return unbound
        }
    }

    mutating func perform(_ action: UIAction) -> [UIEffect] {
        switch action {
        case .quit: return [.quit]
        case .save: return saveSession()
        case .record: return [.toggleRecording(baseName: "iapsim-demo")]
        case .help: overlay = .help; helpScroll = 0
        case .restart: overlay = .confirm(.restart)
        case .story: overlay = .page(.story, scroll: 0)
        case .glossary: overlay = .page(.glossary, scroll: 0)
        case .searchEvents: overlay = .search("")
        case .hideNetwork: toggleNetworkLines()
        case .serverSide: overlay = .picker(vetted(ServerSideMenu.picker(for: self)))
        case .subscriptions: toggleSubscriptions()
        case .subscription: overlay = .picker(vetted(SubscriptionMenu.picker(for: self)))
        case .browse: overlay = asksBeforeLeaving ? .confirm(.browse) : .picker(browser)
        case .nextFile: return asksBeforeLeaving ? ask(.leave(by: 1)) : openFile(by: 1)
        case .previousFile: return asksBeforeLeaving ? ask(.leave(by: -1)) : openFile(by: -1)
        case .split: toggleSplit()
        case .pause: paused.toggle()
        case .stepEvent: stepOneEvent()
        case .faster: speedIndex = min(UIModel.speeds.count - 1, speedIndex + 1)
        case .slower: speedIndex = max(0, speedIndex - 1)
        case .policy: overlay = .policy(selected: 0)
        case .autopilot: toggleAutopilot()
        case .nextStep: playNextStep()
        case .toEnd: playToEnd()
        case .stepBack: stepBack()
        case .inspect: return InspectorBox.open(&self)
        case .handout: return writeHandout()
        case .buy, .crash, .launch, .uninstall, .account, .openStore, .closeStore, .network, .drop, .outage,
            .fail, .askToBuy, .approve, .decline, .replay, .background, .storeStatus, .focusNext,
            .focusPrevious, .scrollUp, .scrollDown, .pageUp, .pageDown, .oldest, .newest, .scrollLeft,
            .scrollRight, .zoom, .filterEvents:
            performWorldOrView(action)
        }
        return []
    }

    /// The actions that act on the world through a command or a picker, or move the view.
    mutating func performWorldOrView(_ action: UIAction) {
        switch action {
        case .buy:
            overlay = .picker(
                vetted(
                    .buy(
                        simulation.config.catalog, groupNames: player.scenario.catalog.groupNames,
                        in: simulation.policy.storekit)))
        case .crash: overlay = .picker(vetted(.crash(simulation.policy.storekit)))
        case .launch: act(.launch)
        case .uninstall:
            // What it destroys is asked about first; a refusal is said at once.
            if simulation.refusal(of: .uninstall) == nil { overlay = .confirm(.uninstall) } else { act(.uninstall) }
        case .account:
            overlay = .picker(vetted(.account(users: simulation.users, loggedIn: simulation.app.loggedIn)))
        case .openStore: act(.openStore)
        case .closeStore: act(.closeStore)
        case .network: act(.network(on: !simulation.network.deviceOnline))
        case .drop: overlay = .picker(vetted(.drop(simulation.policy.storekit)))
        case .outage: act(.storeOutage(on: !simulation.store.outage))
        case .fail: overlay = .picker(vetted(.fail(simulation.policy.storekit)))
        case .storeStatus: overlay = .picker(vetted(.storeStatus))
        case .background: act(simulation.app.inBackground ? .foreground : .background)
        case .askToBuy: act(.askToBuy(on: !simulation.store.askToBuy))
        case .approve: act(.approve)
        case .decline: act(.decline)
        case .replay: act(.replay)
        case .focusNext: panels.moveFocus(by: 1)
        case .focusPrevious: panels.moveFocus(by: -1)
        case .scrollUp: scrollFocused(by: -1)
        case .scrollDown: scrollFocused(by: 1)
        case .pageUp: scrollFocused(by: -10)
        case .pageDown: scrollFocused(by: 10)
        case .oldest: scrollFocused(by: -1_000_000)
        case .newest: scrollFocused(by: 1_000_000)
        case .scrollLeft: panels.scrollSideways(by: -10, limit: widestLine(focus))
        case .scrollRight: panels.scrollSideways(by: 10, limit: widestLine(focus))
        case .zoom: panels.toggleZoom()
        case .filterEvents: cycleEventFilter()
        case .quit, .help, .pause, .stepEvent, .faster, .slower, .policy, .autopilot, .save, .record,
            .restart, .searchEvents, .hideNetwork, .inspect, .nextStep, .stepBack, .toEnd, .story, .glossary,
            .browse, .nextFile, .previousFile, .split, .handout, .serverSide, .subscriptions, .subscription:
            break
        }
    }

    /// Arrows move toward older lines as up; in Events (newest at the bottom) up scrolls back.
    /// In the Auditor and the Payment queue they move the selected row instead.
    mutating func scrollFocused(by delta: Int) {
        if subscriptionsView.shown {
            subscriptionsView.move(by: delta, count: subscriberRows.count)
            return
        }
        if focus == .auditor || focus == .queue {
            let count = focus == .auditor ? inspectableAnomalies.count : inspectableTransactions.count
            panels.select(by: delta, count: count)
            return
        }
        // Kept within what the panel can show: Home then Down moves at once (it stood a
        // million lines past the top, where the screen could not follow).
        panels.scrollFocused(by: delta, limit: scrollLimit(focus))
    }

    mutating func toggleAutopilot() {
        if autopilot == nil {
            var pilot = Autopilot(seed: player.scenario.seed)
            pilot.nextAt = simulation.now + 1_000
            autopilot = pilot
            status = "autopilot on: random purchases and faults"
        } else {
            autopilot = nil
            status = "autopilot off"
        }
    }

    /// Adds a line of the UI's own to Events, before the log entry written at `position`
    /// (default: the next one). At most 200 are kept.
    mutating func note(
        _ kind: EventNote.Kind, _ text: String, position: Int? = nil, time: VirtualTime? = nil,
        started: RunRecord? = nil
    ) {
        notes.append(
            EventNote(
                position: position ?? simulation.logCount, time: time ?? simulation.now,
                kind: kind, text: text, started: started))
        if notes.count > 200 { notes.removeFirst(notes.count - 200) }
    }

    /// The status line's words when nothing else is said: the next event, its time and
    /// what it is. A timer the world has made moot is not announced as if it would act.
    var idleStatus: String {
        // A lesson's question is due: the clock holds (the header says WAITING: answer).
        if lessonWaitsForDecidingStep, result == nil {
            return "the clock waits for the step the question asks about: Enter runs it"
        }
        // Played to the end: the clock stops; what the world had scheduled never comes.
        if result != nil {
            return "the run has ended: B steps back, R restarts" + (playlist.isEmpty ? "" : ", ] opens the next file")
        }
        let next = simulation.nextEvent
        if let end = simulation.auditor.nextGraceEnd, end < next?.time ?? .max {
            // The auditor's own clock: a look, not an event of the world.
            let inMs = max(0, end - simulation.now)
            return
                "no fault armed; the auditor's next look at \(DurationText.clock(end)) (in \(DurationText.age(inMs))): "
                + "a grace period ends" + (next == nil ? "; the world has nothing scheduled" : "")
        }
        guard let next else { return "no fault armed; nothing scheduled" }
        let inMs = max(0, next.time - simulation.now)
        let when = "\(DurationText.clock(next.time)) (in \(DurationText.age(inMs)))"
        if let moot = simulation.moot(next.action) {
            guard case .storeDeliver = next.action else {
                // A timer of a request already answered or of a process gone: nothing to say of it.
                return "no fault armed; nothing due changes the world"
            }
            return "no fault armed; at \(when) StoreKit would deliver, but \(moot)"
        }
        return "no fault armed; next event at \(when): " + next.action.words(in: simulation.policy.storekit)
    }

    /// `R`: the sandbox starts again with the same seed, users and policy as now; play goes
    /// back to step 0 of its file. The view (size, focus, recording) is kept.
    mutating func restart() {
        let start = player.scenario
        var fresh: UIModel
        switch mode {
        case .sandbox:
            // A preset of the other StoreKit world, chosen in the policy panel, starts here.
            // The preset the world is at now (the header's), so that a saved session says so.
            // Its catalog (a StoreKit file's) and grace period stay.
            var scenario = start
            scenario.policy = pendingPreset?.policy ?? simulation.policy
            scenario.preset = pendingPreset ?? simulation.policy.matchingPreset ?? start.preset
            scenario.environment = pendingEnvironment ?? simulation.config.environment
            fresh = UIModel(scenario: scenario, mode: .sandbox, options: options)
        case .play(let file):
            fresh = UIModel(play: start, file: file, options: options)
        }
        fresh.keepView(of: self)
        // `R` in a lesson plays it again from its start: the question is asked again.
        if var t = fresh.tour {
            t.stage = .playing
            fresh.tour = t
            fresh.split.close()
        }
        self = fresh
        status =
            isPlay
            ? "restarted: back to step 0"
            : "restarted: a fresh world, seed \(start.seed), policy \(policyName)"
    }

    /// `B` in play: a deterministic replay from the start to the step before the last one run.
    /// Keys pressed in between are not part of the file, so they are not replayed.
    mutating func stepBack() {
        guard case .play(let file) = mode else { return }
        let target = max(0, player.nextStep - 1)
        var fresh = UIModel(play: player.scenario, file: file, options: options)
        for _ in 0..<target { fresh.playNextStep() }
        fresh.keepView(of: self)
        fresh.paused = true
        self = fresh
        status =
            target == 0
            ? "back to the start (step 0)"
            : "back to step \(target): replayed the file's first \(target) step(s); paused"
    }

    mutating func keepView(of old: UIModel) {
        width = old.width
        height = old.height
        panels.keep(old.panels)
        speedIndex = old.speedIndex
        recording = old.recording
        eventsView = old.eventsView
        playlist = old.playlist
        playlistGroups = old.playlistGroups
        playlistTitles = old.playlistTitles
        tour = old.tour
        if let connect = old.backend { connectBackend(connect) }
        if let other = old.twin { startTwin(policy: other.scenario.policy) }
    }

    /// `F`: Events shows every part, then one part at a time.
    mutating func cycleEventFilter() {
        status = eventsView.cycleFilter()
        panels.scroll[.events] = 0
    }
}
