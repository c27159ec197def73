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
        return lines.joined(separator: "\n") + "\n"
    }

    /// The diagram written as the run goes: `header` first, then each record's lines.
    /// It keeps only the sender of each message still on the wire, so its memory is that of
    /// the world, not of the run.
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
        var senders: [Int: Sender] = [:]
        /// Whose words the notes use.
        package var world = StoreKitWorld.one

        package init() {}

        /// Appends the lines of `record` (none for most facts) to `lines`.
        package mutating func add(_ record: RunRecord, to lines: inout [String]) {
            switch record {
            case .story, .settled:
                return
            case .stepStarted(let number, let step, _):
                lines.append(note("left of User", "step \(number): \(step.command.scenarioText)"))
                if let say = step.say { lines.append(note("left of User", say)) }
            case .stepTimedOut(let stop):
                lines.append(note("over User,Attacker", "stopped: \(stop)"))
            case .entry(let entry):
                if case .messageSent(let id, _, _, _, let sender) = entry.fact {
                    senders[id] = sender
                }
                if case .noted(let what) = entry.fact {
                    // A part's own words: a note over that part.
                    lines.append(note("over \(participant(entry.part))", what))
                } else if let line = MermaidExport.line(for: entry.fact, senders: senders, in: world) {
                    lines.append(line)
                }
                switch entry.fact {
                case .messageArrived(let id, _, _, _), .messageDropped(let id, _, _): senders[id] = nil
                default: break
                }
            }
        }
    }

    static func line(for fact: Fact, senders: [Int: Sender], in world: StoreKitWorld = .one) -> String? {
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
        case .messageArrived(let id, let route, let direction, _):
            let (from, to) = ends(route, direction, senders[id] ?? .app)
            return arrow(
                from, direction == .request ? "->>" : "-->>", to,
                label(route, direction))
        case .messageDropped(let id, let route, let direction):
            let (from, to) = ends(route, direction, senders[id] ?? .app)
            return arrow(from, "-x", to, label(route, direction) + " (lost)")
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
