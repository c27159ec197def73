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
        case .dropNextRequest(let r): return "The next \(r.rawValue) request will be lost."
        case .dropNextResponse(let r): return "The next \(r.rawValue) response will be lost."
        case .replay: return "The attacker replays the newest accepted receipt on a fresh order."
        case .forge(let p, let environment):
            return "The attacker forges a signed transaction for \(p) on a fresh order"
                + (environment.map { ", claiming the \($0) environment." } ?? ".")
        case .refund(let txn, let percent):
            let what = txn.map { "charge \($0)" } ?? "the newest charge"
            return percent == 100 ? "Apple refunds \(what)." : "Apple refunds \(percent)% of \(what)."
        case .refundRequest(let txn, _): return "The customer asks Apple to refund \(txn ?? "the newest charge")."
        case .refundDecline(let txn): return "Apple declines the refund of \(txn ?? "the newest charge")."
        case .refundReverse(let txn): return "Apple reverses the refund of \(txn ?? "the newest refund")."
        case .spend(let user, let coins): return "\(user) spends \(coins) coins."
        case .failNextPaymentUnfinished: return "The next payment fails and is never finished."
        case .interruptNextPayment: return "The next payment is interrupted."
        case .heal: return "Every armed fault ends."
        case .openStore, .closeStore, .background, .foreground, .latency, .storeOutage, .storeStatus,
            .failNextPayment, .askToBuy, .approve, .decline, .serverOutage, .serverAPIFault, .billingFail,
            .autoRenew, .changePlan, .delayNextNotification, .setPolicy, .setPreset, .wait, .settle:
            return scenarioText + "."
        }
    }
}
