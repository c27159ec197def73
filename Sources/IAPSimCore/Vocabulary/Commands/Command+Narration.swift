extension Command {
    /// A line a generated story says for the command (explore's findings).
    package var narration: String {
        switch self {
        case .buy(let p): return "The logged-in user buys \(p)."
        case .crash: return "The app process dies."
        case .launch: return "The app is launched."
        case .uninstall: return "The app is deleted."
        case .login(let u): return "\(u) logs in."
        case .logout: return "The user logs out."
        case .network(let on): return on ? "The network is back." : "The device goes offline."
        case .networkFault(let f): return f.narration
        case .storeFault(let f): return f.narration
        case .replay: return "The attacker replays the newest accepted receipt on a fresh order."
        case .forge(let p, let environment):
            return "The attacker forges a signed transaction for \(p) on a fresh order"
                + (environment.map { ", claiming the \($0) environment." } ?? ".")
        case .refundLoop(let c): return c.narration
        case .subscription(let c): return c.narration
        case .spend(let user, let coins): return "\(user) spends \(coins) coins."
        case .heal: return "Every armed fault ends."
        case .openStore, .closeStore, .background, .foreground, .askToBuy, .approve, .decline, .serverOutage,
            .serverAPIFault, .setPolicy, .setPreset, .wait, .settle:
            return scenarioText + "."
        }
    }
}
