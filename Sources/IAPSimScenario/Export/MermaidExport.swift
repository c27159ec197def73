import IAPSimCore

/// The `--diagram` export: a Mermaid `sequenceDiagram` of a run, with lanes User, App,
/// StoreKit, Merchant server, App Store and Attacker. Messages that arrive are arrows, lost
/// ones end in a cross; faults, crashes, credits and the auditor's findings are notes; each
/// step's `say` is a note beside the user. Facts of no interest to a reader (timers, sizes)
/// are left out.
package enum MermaidExport {
    /// The diagram of `records`, in the words of `world` (StoreKit 2's for the transaction
    /// states and the auditor's notes).
    package static func diagram(_ records: [RunRecord], in world: StoreKitWorld = .one) -> String {
        var stream = Stream()
        stream.world = world
        var lines = Stream.header
        for record in records { stream.add(record, to: &lines) }
        stream.finish(to: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The diagram written as the run goes: `header` first, then each record's lines, then
    /// `finish`. A message is drawn where the log says it was sent (a request sent before a
    /// crash is drawn before it), with the arrow its fate gives: delivered, lost on the way,
    /// or lost at a receiver that is gone. So the lines after a message still on the wire
    /// wait until it arrives or is lost; they are the world's recent facts, not the run's,
    /// and past `maxHeld` lines the oldest message is drawn as still on the wire.
    package struct Stream {
        package static let header = [
            "sequenceDiagram",
            "    participant User",
            "    participant App",
            "    participant StoreKit",
            "    participant Server as Merchant server",
            "    participant AppStore as App Store",
            "    participant Attacker",
        ]
        /// The most lines held back behind a message on the wire.
        package static let maxHeld = 4_096
        /// Lines held back: a `nil` is the slot of a message not yet arrived or lost.
        var held: [String?] = []
        /// The message in each slot: its sender, route and direction, by id.
        var slots: [Int: (index: Int, sender: Sender, route: Route, direction: Direction)] = [:]
        /// Whose words the notes use.
        package var world = StoreKitWorld.one

        package init() {}

        /// Appends the lines of `record` (none for most facts) that can be drawn now to `lines`.
        package mutating func add(_ record: RunRecord, to lines: inout [String]) {
            switch record {
            case .story, .settled:
                return
            case .stepStarted(let number, let step, _):
                put(note("left of User", "step \(number): \(step.command.scenarioText)"))
                if let say = step.say { put(note("left of User", say)) }
            case .stepTimedOut(let stop):
                put(note("over User,Attacker", "stopped: \(stop)"))
            case .entry(let entry):
                addEntry(entry)
            }
            release(to: &lines)
        }

        /// Draws what is still on the wire as such, and appends every line held.
        package mutating func finish(to lines: inout [String]) {
            for (_, slot) in slots {
                let (from, to) = ends(slot.route, slot.direction, slot.sender)
                held[slot.index] = arrow(from, "-)", to, label(slot.route, slot.direction) + " (still on the wire)")
            }
            slots = [:]
            release(to: &lines)
        }

        mutating func addEntry(_ entry: LogEntry) {
            switch entry.fact {
            case .messageSent(let id, let route, let direction, _, let sender):
                slots[id] = (held.count, sender, route, direction)
                held.append(nil)
                if held.count > Stream.maxHeld, let oldest = slots.min(by: { $0.value.index < $1.value.index }) {
                    let s = oldest.value
                    let (from, to) = ends(s.route, s.direction, s.sender)
                    held[s.index] = arrow(from, "-)", to, label(s.route, s.direction) + " (on the wire)")
                    slots[oldest.key] = nil
                }
            case .messageArrived(let id, _, _, _), .messageDropped(let id, _, _), .messageUnclaimed(let id, _, _, _):
                let slot = slots.removeValue(forKey: id)
                let drawn = MermaidExport.line(for: entry.fact, sender: slot?.sender ?? .app, in: world)
                if let slot { held[slot.index] = drawn ?? "" } else if let drawn { put(drawn) }
            case .requestFailedOffline(let route):
                // The request never left the device: no arrow, the app's note says it.
                if let last = slots.filter({ $0.value.route == route && $0.value.direction == .request })
                    .max(by: { $0.value.index < $1.value.index })
                {
                    held[last.value.index] = ""
                    slots[last.key] = nil
                }
                if let line = MermaidExport.line(for: entry.fact, sender: .app, in: world) { put(line) }
            case .noted(let what):
                // A part's own words: a note over that part.
                put(note("over \(participant(entry.part))", what))
            default:
                if let line = MermaidExport.line(for: entry.fact, sender: .app, in: world) { put(line) }
            }
        }

        mutating func put(_ line: String) { held.append(line) }

        /// Appends the held lines up to the first message still on the wire.
        mutating func release(to lines: inout [String]) {
            let waiting = slots.values.map(\.index).min() ?? held.count
            guard waiting > 0 else { return }
            for line in held[..<waiting] where line?.isEmpty == false { lines.append(line!) }
            held.removeFirst(waiting)
            for id in slots.keys { slots[id]!.index -= waiting }
        }
    }

    static func line(for fact: Fact, sender: Sender, in world: StoreKitWorld = .one) -> String? {
        switch fact {
        case .transactionUpdated where world == .two:
            return fact.storeKit2Words.map { arrow("AppStore", "-->>", "StoreKit", $0) }
        case .commandIssued(let command):
            return command.isFault ? nil : arrow("User", "->>", "App", command.scenarioText)
        case .observerRegistered:
            return arrow("App", "->>", "StoreKit", "add(observer)")
        case .paymentAdded(let txn, let product, _, _, _):
            return arrow("App", "->>", "StoreKit", "add(SKPayment(\(product))) \(txn)")
        case .transactionUpdated(let txn, let product, let state):
            return arrow("AppStore", "-->>", "StoreKit", "\(txn) \(product): \(state.rawValue)")
        case .transactionsDelivered(let txns, let again):
            return arrow(
                "StoreKit", "->>", "App",
                "updatedTransactions [\(IdList.text(txns))]"
                    + (again ? " again" : ""))
        case .transactionFinished(let txn):
            return arrow("App", "->>", "StoreKit", "finishTransaction(\(txn))")
        case .messageArrived(_, let route, let direction, _):
            let (from, to) = ends(route, direction, sender)
            return arrow(
                from, direction == .request ? "->>" : "-->>", to,
                label(route, direction))
        case .messageDropped(_, let route, let direction):
            let (from, to) = ends(route, direction, sender)
            return arrow(from, "-x", to, label(route, direction) + " (lost)")
        case .messageUnclaimed(_, let route, let direction, _):
            let (from, to) = ends(route, direction, sender)
            return arrow(from, "-x", to, label(route, direction) + " (lost: its receiver is gone)")
        case .paymentCharged, .receiptVerified, .deferredExpired, .ownedProductNotCharged,
            .askToBuyMerged, .refundIssued, .refundReversed, .notificationUnanswered, .notificationDropped:
            return note("over AppStore", fact.text)
        case .orderCreated, .coinsCredited, .rechargeRefused, .alreadyCredited,
            .verifyRetriedInSandbox, .coinsClawedBack, .coinsSpent, .refundHeard, .notificationUnbound,
            .reversalHeard, .coinsRestored,
            .serverUnavailable, .historyChecked, .reconcileSkipped:
            return note("over Server", fact.text)
        case .replayPrepared, .replayUnavailable:
            return note("over Attacker", fact.text)
        case .faultArmed, .faultFired, .networkWentOff, .networkCameBack, .policyChanged:
            return note("over App,AppStore", fact.text)
        case .anomalyOpened, .anomalyStatusChanged:
            return note("over User,Attacker", "auditor: " + AnomalyType.text(fact.text, in: world))
        case .commandIgnored, .userLoggedIn, .userLoggedOut:
            return note("over User", fact.text)
        case .appLaunched, .appCrashed, .appUninstalled, .purchaseAbandoned,
            .appBackgrounded, .appForegrounded, .rechargeWaitingForBuyer,
            .rechargeWaitingForLogin, .receiptSaved, .receiptDeleted, .rechargeAnswered,
            .finishFailedError, .finishSkipped, .requestFailedOffline, .requestTimedOut:
            return note("over App", fact.text)
        default:
            return nil
        }
    }

    /// What a message is, in the words of the API it belongs to.
    static func label(_ route: Route, _ direction: Direction) -> String {
        switch (route, direction) {
        case (.order, .request): return "POST /orders"
        case (.order, .response): return "order id and token"
        case (.recharge, .request): return "POST /recharge"
        case (.recharge, .response): return "recharge answer"
        case (.verify, .request): return "verifyReceipt"
        case (.verify, .response): return "verifyReceipt status"
        case (.notify, .request): return "notification V2"
        case (.notify, .response): return "HTTP status"
        case (.serverAPI, .request): return "Get Transaction History"
        case (.serverAPI, .response): return "transaction history"
        }
    }

    /// Who sends and who receives a message on `route`.
    static func ends(_ route: Route, _ direction: Direction, _ sender: Sender)
        -> (String, String)
    {
        if route == .notify { return direction == .request ? ("AppStore", "Server") : ("Server", "AppStore") }
        let toAppStore = route == .verify || route == .serverAPI
        let client = toAppStore ? "Server" : (sender == .attacker ? "Attacker" : "App")
        let server = toAppStore ? "AppStore" : "Server"
        return direction == .request ? (client, server) : (server, client)
    }

    static func arrow(_ from: String, _ kind: String, _ to: String, _ text: String) -> String {
        "    \(from)\(kind)\(to): \(escape(text))"
    }

    /// The diagram's participant for a part of the world.
    static func participant(_ part: Part) -> String {
        switch part {
        case .appStore: return "AppStore"
        case .server: return "Server"
        case .storeKit: return "StoreKit"
        case .attacker: return "Attacker"
        case .user: return "User"
        default: return "App"
        }
    }

    static func note(_ place: String, _ text: String) -> String {
        "    Note \(place): \(escape(text))"
    }

    /// Mermaid reads `#…;` as an entity and `;` as a statement end; `<` and `>` can be
    /// taken for markup. Each becomes its numeric entity; line breaks become spaces; other
    /// control characters are made visible (`VisibleText`).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in VisibleText.escaped(text.replacingNewlines()) {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "<": out += "#60;"
            case ">": out += "#62;"
            default: out.append(character)
            }
        }
        return out
    }
}

private extension String {
    /// Line breaks (LF, CR, CR LF) as single spaces.
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
