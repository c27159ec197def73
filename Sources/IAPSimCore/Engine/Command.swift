/// Why the App Store fails a payment, as `fail-next-payment REASON` names it.
public enum PaymentFailure: String, Sendable, Hashable, CaseIterable {
    case cancelled, network, invalid

    /// The `SKError` code a real app would see.
    public var skError: String {
        switch self {
        case .cancelled: return "SKError.paymentCancelled"
        case .network: return "SKError.cloudServiceNetworkConnectionFailed"
        case .invalid: return "SKError.paymentInvalid"
        }
    }
}

/// One thing a person (or a scenario step) does to the world: one case per row of the
/// command table of SCENARIO-FORMAT.md. The core applies them; UIs and scenarios only
/// construct them.
public enum Command: Sendable, Hashable {
    case buy(product: String)
    case openStore
    case closeStore
    case crash
    case launch
    case uninstall
    case login(user: String)
    case logout
    case network(on: Bool)
    case dropNextRequest(Route)
    case dropNextResponse(Route)
    case latency(Route, VirtualTime)
    case storeOutage(on: Bool)
    case failNextPayment(PaymentFailure)
    case failNextPaymentUnfinished
    case interruptNextPayment
    case askToBuy(on: Bool)
    case approve
    case decline
    case replay
    case setPolicy(PolicyKey, String)
    case setPreset(PolicyPreset)
    case wait(VirtualTime)
    case settle

    /// The command's text as a scenario file writes it (`do:` value).
    public var scenarioText: String {
        switch self {
        case .buy(let p): return "buy \(p)"
        case .openStore: return "open-store"
        case .closeStore: return "close-store"
        case .crash: return "crash"
        case .launch: return "launch"
        case .uninstall: return "uninstall"
        case .login(let u): return "login \(u)"
        case .logout: return "logout"
        case .network(let on): return "network \(on ? "on" : "off")"
        case .dropNextRequest(let r): return "drop-next-request \(r.rawValue)"
        case .dropNextResponse(let r): return "drop-next-response \(r.rawValue)"
        case .latency(let r, let ms): return "latency \(r.rawValue) \(DurationText.format(ms))"
        case .storeOutage(let on): return "store-outage \(on ? "on" : "off")"
        case .failNextPayment(let reason): return "fail-next-payment \(reason.rawValue)"
        case .failNextPaymentUnfinished: return "fail-next-payment unfinished"
        case .interruptNextPayment: return "interrupt-next-payment"
        case .askToBuy(let on): return "ask-to-buy \(on ? "on" : "off")"
        case .approve: return "approve"
        case .decline: return "decline"
        case .replay: return "replay"
        case .setPolicy(let k, let v): return "policy \(k.rawValue) \(v)"
        case .setPreset(let p): return "policy preset \(p.rawValue)"
        case .wait(let ms): return "wait \(DurationText.format(ms))"
        case .settle: return "settle"
        }
    }

    /// The command words, as error messages list them.
    public static let names: [String] = [
        "buy", "open-store", "close-store", "crash", "launch", "uninstall", "login", "logout",
        "network", "drop-next-request", "drop-next-response", "latency", "store-outage",
        "fail-next-payment", "interrupt-next-payment", "ask-to-buy", "approve", "decline",
        "replay", "policy", "wait", "settle",
    ]
}
