import IAPSimCore

/// The `--diagram` export: a Mermaid `sequenceDiagram` of a run, with lanes User, App,
/// StoreKit, Merchant server, App Store and Attacker. Messages that arrive are arrows, lost
/// ones end in a cross, each labelled with what it carries where the log says it
/// (`MessageThreads`: `POST /recharge (1000000000001, o1)`, `credited 1000000000001`); the
/// app's calls to StoreKit (`add(SKPayment(…))`, `purchase()`, `finish()`) and StoreKit's
/// callbacks are arrows; faults, crashes, credits and the auditor's findings are notes; each
/// step and its `say` is a note beside the user. Facts of no interest to a reader (timers,
/// sizes) are left out.
package enum MermaidExport {
    /// The diagram of `records`, in the words of `world` (StoreKit 2's for the transaction
    /// states and the auditor's notes).
    /// `threads`: the messages' threads read from the whole log, when `records` are a part of
    /// it (a handout's chain); by default they are read from `records`.
    package static func diagram(
        _ records: [RunRecord], in world: StoreKitWorld = .one, threads: MessageThreads? = nil
    ) -> String {
        var stream = Stream()
        stream.world = world
        if let threads {
            stream.threads = threads
            stream.readsThreads = false
        }
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
        /// The message in each slot: its sender, route, direction and label, by id.
        var slots: [Int: (index: Int, sender: Sender, route: Route, direction: Direction, label: String)] = [:]
        /// Whose words the notes use.
        package var world = StoreKitWorld.one
        /// What each message carries, for its label.
        var threads = MessageThreads()
        /// Whether `threads` is read from the records drawn (false: it was read beforehand).
        var readsThreads = true

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
                held[slot.index] = arrow(from, "-)", to, slot.label + " (still on the wire)")
            }
            slots = [:]
            release(to: &lines)
        }

        mutating func addEntry(_ entry: LogEntry) {
            if readsThreads { threads.read(entry) }
            switch entry.fact {
            case .messageSent(let id, let route, let direction, _, let sender):
                slots[id] = (held.count, sender, route, direction, threads.label(id, route, direction))
                held.append(nil)
                if held.count > Stream.maxHeld, let oldest = slots.min(by: { $0.value.index < $1.value.index }) {
                    let s = oldest.value
                    let (from, to) = ends(s.route, s.direction, s.sender)
                    held[s.index] = arrow(from, "-)", to, s.label + " (on the wire)")
                    slots[oldest.key] = nil
                }
            case .messageArrived(let id, let route, let direction, _),
                .messageDropped(let id, let route, let direction),
                .messageUnclaimed(let id, let route, let direction, _):
                let slot = slots.removeValue(forKey: id)
                let drawn = MermaidExport.line(
                    for: entry.fact, sender: slot?.sender ?? .app, label: slot?.label ?? label(route, direction),
                    in: world)
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

    /// `label`: what a message carries (`MessageThreads.label`), its route's name by default.
    static func line(for fact: Fact, sender: Sender, label: String? = nil, in world: StoreKitWorld = .one)
        -> String?
    {
        switch fact {
        case .transactionUpdated(_, _, .purchasing) where world == .two:
            // StoreKit 2 has no purchasing state the app sees: the sheet is StoreKit's and
            // the App Store's business while `purchase()` waits.
            return fact.storeKit2Words.map { note("over StoreKit,AppStore", $0) }
        case .transactionUpdated where world == .two:
            return fact.storeKit2Words.map { arrow("AppStore", "-->>", "StoreKit", $0) }
        case .listenerStarted:
            return arrow("App", "->>", "StoreKit", "for await update in Transaction.updates")
        case .purchaseStarted(_, let product, let token, let user, let order):
            return arrow(
                "App", "->>", "StoreKit",
                "purchase() of \(product) (\(user), \(order.map { "order \($0)" } ?? "no order")"
                    + (token == nil ? ")" : ", appAccountToken)"))
        case .purchaseReturned, .updatesEmitted, .revocationEmitted, .unfinishedSwept:
            return arrow("StoreKit", "-->>", "App", fact.text)
        case .finishCalled(let txn):
            return arrow("App", "->>", "StoreKit", "finish() \(txn)")
        case .purchaseCompletedOutsideApp:
            return note("over StoreKit,AppStore", fact.text)
        case .jwsChecked, .accessChanged:
            return note("over Server", fact.text)
        case .subscriptionChanged:
            return note("over AppStore", fact.text)
        case .signedReplayPrepared, .forgeryPrepared:
            return note("over Attacker", fact.text)
        case .commandIssued(let command):
            if command.isFault { return nil }
            switch command {
            // The user's own proxy sends a replay or a forgery, not the app.
            case .replay, .forge: return arrow("User", "->>", "Attacker", command.scenarioText)
            default: return arrow("User", "->>", Self.recipient(of: command), command.scenarioText)
            }
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
                label ?? Self.label(route, direction))
        case .messageDropped(_, let route, let direction):
            let (from, to) = ends(route, direction, sender)
            return arrow(from, "-x", to, (label ?? Self.label(route, direction)) + " (lost)")
        case .messageUnclaimed(_, let route, let direction, _):
            let (from, to) = ends(route, direction, sender)
            return arrow(from, "-x", to, (label ?? Self.label(route, direction)) + " (lost: its receiver is gone)")
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

    /// `lines` (a diagram) declaring only the lanes its arrows and notes use, in the usual
    /// order: a page about one anomaly has no idle Attacker. A note over every lane (the
    /// auditor's) spans the lanes kept.
    package static func declaringOnlyUsed(_ lines: [String]) -> [String] {
        let wide = "    Note over User,Attacker:"
        let lanes = Stream.header.dropFirst().map { $0.split(separator: " ")[1] }.map(String.init)
        var used = Set<String>()
        for line in lines.dropFirst(Stream.header.count) where !line.hasPrefix(wide) {
            guard let head = line.split(separator: ":", maxSplits: 1).first?.drop(while: { $0 == " " }) else {
                continue
            }
            if head.hasPrefix("Note ") {
                used.formUnion(head.split { !$0.isLetter }.map(String.init))
            } else {
                // `From->>To`, `From-xTo`, `From-)To`: the cross of a lost message is not a name.
                let from = head.prefix(while: \.isLetter)
                var to = head.dropFirst(from.count).drop { "->)".contains($0) }
                if to.hasPrefix("x") { to = to.dropFirst() }
                used.formUnion([String(from), String(to)])
            }
        }
        let kept = lanes.filter(used.contains)
        guard let first = kept.first, let last = kept.last else { return lines }
        let span = "    Note over " + (first == last ? first : "\(first),\(last)") + ":"
        return [lines[0]] + Stream.header.dropFirst().filter { kept.contains(String($0.split(separator: " ")[1])) }
            + lines.dropFirst(Stream.header.count).map { $0.hasPrefix(wide) ? span + $0.dropFirst(wide.count) : $0 }
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

    /// Who a person's command goes to: Apple grants refunds, Ask to Buy and its answers, the
    /// customer's Settings, consents and offer codes, and App Store Connect's prices and
    /// grace period (the App Store); the rest is done in the app.
    static func recipient(of command: Command) -> String {
        switch command {
        case .refundLoop, .askToBuy, .approve, .decline: return "AppStore"
        case .subscription(let c):
            switch c {
            case .autoRenew, .gracePeriod, .priceIncrease, .consentToPriceIncrease, .redeemCode, .family:
                return "AppStore"
            case .billingFail, .changePlan, .delayNextNotification, .buyOffer, .deferMessages: return "App"
            }
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login, .logout,
            .network, .networkFault, .storeFault, .replay, .forge, .serverOutage, .serverAPIFault, .spend,
            .heal, .setPolicy, .setPreset, .wait, .settle:
            return "App"
        }
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
