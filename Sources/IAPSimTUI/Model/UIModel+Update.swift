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
            status = "could not open \(path): \(reason)"
        }
        syncTwin()
        watchLesson()
        return []
    }

    mutating func handle(_ key: Key) -> [UIEffect] {
        if key == .ctrlC { return [.quit] }
        if tooSmall { return key == .char("q") ? [.quit] : [] }
        // An open box takes every key, through its own table (`OverlayKeys`): `q` closes it
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
        case .inspect: inspectSelected()
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

    /// A key while a box is open: the action its table gives the key, or nothing (a key the
    /// box has no row for changes nothing).
    mutating func handleOverlay(_ current: Overlay, _ key: Key) -> [UIEffect] {
        switch current {
        case .help:
            if let action = OverlayKeys.help.action(for: key) { helpKey(action) }
        case .inspect(let target, let offset):
            if let action = OverlayKeys.inspector.action(for: key) {
                return inspectorKey(action, target, scroll: offset)
            }
        case .page(let page, let offset):
            if let action = OverlayKeys.page.action(for: key) { pageKey(action, page, scroll: offset) }
        case .picker(let picker):
            let letters = picker.items.compactMap(\.key)
            if let action = OverlayKeys.picker.action(for: key, letters: letters) {
                return pickerKey(action, picker, key)
            }
        case .policy(let selected):
            if let action = OverlayKeys.policy.action(for: key) { policyKey(action, selected: selected) }
        case .confirm(let question):
            if let action = OverlayKeys.confirm.action(for: key) { return confirmKey(action, question) }
        case .search(let text):
            if let action = OverlayKeys.search.action(for: key) { searchKey(action, text, key) }
        }
        return []
    }

    mutating func helpKey(_ action: HelpKeyAction) {
        switch action {
        case .close: overlay = nil
        case .scroll(let delta): helpScroll = scrolled(helpScroll, by: delta)
        }
    }

    mutating func inspectorKey(_ action: InspectorKeyAction, _ target: InspectTarget, scroll: Int) -> [UIEffect] {
        switch action {
        case .close:
            overlay = nil
            lessonInspectorClosed()
        case .scroll(let delta): overlay = .inspect(target, scroll: scrolled(scroll, by: delta))
        case .handout:
            guard case .anomaly(let id) = target else {
                status = "H writes an anomaly's handout: this inspector shows no anomaly"
                return []
            }
            return writeHandout(id)
        }
        return []
    }

    mutating func pageKey(_ action: PageKeyAction, _ page: Page, scroll: Int) {
        switch action {
        case .close, .goOn:
            overlay = nil
            // The lesson's question: Enter goes on with the step it was asked before.
            if case .question = page {
                paused = false
                // Esc: the status line's own words say that the clock waits for the step.
                status = nil
                if action == .goOn { playNextStep() }
            }
        case .scroll(let delta): overlay = .page(page, scroll: scrolled(scroll, by: delta))
        }
    }

    mutating func confirmKey(_ action: ConfirmKeyAction, _ question: Confirmation) -> [UIEffect] {
        overlay = nil
        switch action {
        case .yes:
            switch question {
            case .restart: restart()
            case .uninstall: act(.uninstall)
            case .leave(let delta): return openFile(by: delta)
            case .browse: overlay = .picker(browser)
            }
        case .no: status = UIModel.declined(question)
        }
        return []
    }

    mutating func pickerKey(_ action: PickerKeyAction, _ current: Picker, _ key: Key) -> [UIEffect] {
        var picker = current
        switch action {
        case .close: overlay = nil
        case .move(let delta):
            picker.selected = max(0, min(picker.items.count - 1, picker.selected + delta))
            overlay = .picker(picker)
        case .choose: return choose(picker.items[picker.selected])
        case .pick:
            guard case .char(let c) = key else { return [] }
            if let item = picker.items.first(where: { $0.key == c }) { return choose(item) }
            // 1-9, then 0 for the tenth.
            let n = c.wholeNumberValue.map { $0 == 0 ? 10 : $0 } ?? 0
            if n >= 1, n <= picker.items.count { return choose(picker.items[n - 1]) }
        }
        return []
    }

    /// An overlay's scroll position moved `delta` lines, kept within its text.
    func scrolled(_ offset: Int, by delta: Int) -> Int {
        max(0, min(overlayScrollLimit(), offset + delta))
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

    mutating func choose(_ item: PickerItem) -> [UIEffect] {
        if let why = item.refused {
            // The picker stays open: the person picks something that can happen.
            status = "\(item.label): \(why)"
            return []
        }
        overlay = nil
        switch item.action {
        case .open(let path):
            // In the tour, the browser lists the lessons: their files are read already.
            if let t = tour, let index = t.lessons.firstIndex(where: { $0.naive.path == path }) {
                openLesson(by: index - t.index)
                return []
            }
            return [.openScenario(path: path)]
        case .run(let command): act(command)
        case .environment(let environment):
            pendingEnvironment = environment
            status =
                "environment \(environment.rawValue): it starts on restart, press R "
                + "(a world's environment is chosen before its run)"
        case .arm(let event, let command):
            armed = ArmedCommand(event: event, command: command, armedAt: simulation.now)
            // The status line's `armed:` span says it already; saying it twice reads as two faults.
            note(.armed, "fault armed: \(command.scenarioText) right after the next '\(event.rawValue)'")
        }
        return []
    }
}
