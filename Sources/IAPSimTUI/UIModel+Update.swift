import IAPSimCore
import IAPSimScenario

extension UIModel {
    /// The only way the model changes. Returns what the edge must do.
    public mutating func update(_ message: UIMessage) -> [UIEffect] {
        switch message {
        case .resize(let w, let h):
            width = max(0, w)
            height = max(0, h)
        case .tick(let wallMs):
            guard clockRunning, wallMs > 0 else { return [] }
            let quarters = wallMs * Int(speed * 4) + carryQuarters
            carryQuarters = quarters % 4
            advanceLive(by: quarters / 4)
        case .interrupted:
            return [.quit]
        case .saved(let path):
            status = "saved the session to \(path); `iapsim run \(path)` replays it"
        case .saveFailed(let reason):
            status = "could not save: \(reason)"
        case .key(let key):
            return handle(key)
        }
        return []
    }

    mutating func handle(_ key: Key) -> [UIEffect] {
        if key == .ctrlC || key == .char("q") { return [.quit] }
        if tooSmall { return [] }
        if let overlay {
            handleOverlay(overlay, key)
            return []
        }
        status = nil
        return handleMain(key)
    }

    mutating func handleMain(_ key: Key) -> [UIEffect] {
        switch key {
        case .char("?"): overlay = .help
        case .char(" "): paused.toggle()
        case .char("."): stepOneEvent()
        case .char("+"), .char("="): speedIndex = min(UIModel.speeds.count - 1, speedIndex + 1)
        case .char("-"), .char("_"): speedIndex = max(0, speedIndex - 1)
        case .char("b"): overlay = .picker(.buy(simulation.config.catalog))
        case .char("c"): overlay = .picker(.crash)
        case .char("l"): act(.launch)
        case .char("u"): act(.uninstall)
        case .char("a"):
            overlay = .picker(.account(users: simulation.users, loggedIn: simulation.app.loggedIn))
        case .char("n"): act(.network(on: !simulation.network.deviceOnline))
        case .char("d"): overlay = .picker(.drop)
        case .char("o"): act(.storeOutage(on: !simulation.store.outage))
        case .char("f"): overlay = .picker(.fail)
        case .char("k"): act(.askToBuy(on: !simulation.store.askToBuy))
        case .char("y"): act(.approve)
        case .char("x"): act(.decline)
        case .char("r"): act(.replay)
        case .char("p"): overlay = .policy(selected: 0)
        case .char("A"): toggleAutopilot()
        case .char("s"): return saveSession()
        case .tab: focus = Panel(rawValue: (focus.rawValue + 1) % Panel.allCases.count)!
        case .backTab:
            focus = Panel(rawValue: (focus.rawValue + Panel.allCases.count - 1) % Panel.allCases.count)!
        // `k` is Ask to Buy here (as the key list has it); `K` scrolls up beside the arrows.
        case .up, .char("K"): scrollFocused(by: -1)
        case .down, .char("j"): scrollFocused(by: 1)
        case .pageUp: scrollFocused(by: -10)
        case .pageDown: scrollFocused(by: 10)
        case .home: scrollFocused(by: -1_000_000)
        case .end: scrollFocused(by: 1_000_000)
        case .enter where isPlay: playNextStep()
        case .char("G") where isPlay: playToEnd()
        default:
            status = "key not bound; ? lists every key"
        }
        return []
    }

    /// Arrows move toward older lines as up; in Events (newest at the bottom) up scrolls back.
    mutating func scrollFocused(by delta: Int) {
        let current = scroll[focus] ?? 0
        let next = focus == .events ? current - delta : current + delta
        scroll[focus] = max(0, min(next, 1_000_000))
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

    mutating func handleOverlay(_ current: Overlay, _ key: Key) {
        switch current {
        case .help:
            if key == .escape || key == .char("?") || key == .enter { overlay = nil }
        case .picker(var picker):
            switch key {
            case .escape: overlay = nil
            case .up, .char("k"): picker.selected = max(0, picker.selected - 1); overlay = .picker(picker)
            case .down, .char("j"):
                picker.selected = min(picker.items.count - 1, picker.selected + 1)
                overlay = .picker(picker)
            case .enter: choose(picker.items[picker.selected])
            case .char(let c) where c.wholeNumberValue.map { $0 >= 1 && $0 <= picker.items.count } == true:
                choose(picker.items[c.wholeNumberValue! - 1])
            default: break
            }
        case .policy(let selected):
            handlePolicyKey(selected: selected, key)
        }
    }

    /// Adds a line of the UI's own to Events, before the log entry written at `position`
    /// (default: the next one). At most 200 are kept.
    mutating func note(_ kind: EventNote.Kind, _ text: String, position: Int? = nil) {
        notes.append(EventNote(position: position ?? simulation.logCount, time: simulation.now,
                               kind: kind, text: text))
        if notes.count > 200 { notes.removeFirst(notes.count - 200) }
    }

    mutating func choose(_ item: PickerItem) {
        overlay = nil
        switch item.action {
        case .run(let command): act(command)
        case .arm(let event, let command):
            armed = ArmedCommand(event: event, command: command, armedAt: simulation.now)
            status = "armed: \(command.scenarioText) when \(event.rawValue)"
            note(.armed, "fault armed: \(command.scenarioText) right after the next '\(event.rawValue)'")
        }
    }
}
