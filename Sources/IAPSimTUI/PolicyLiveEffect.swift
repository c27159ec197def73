import IAPSimCore

extension PolicyKey {
    /// When a change made in the policy panel while the world runs takes effect, for the keys
    /// whose new value a running app does not read at once (`Simulation.policyChangedLive`);
    /// nil: from the next moment the key is read.
    var liveEffect: String? {
        switch self {
        case .observer: return "changed live: registered now if the app runs; one registered stays"
        case .sweepUnfinished: return "changed live: from the next launch or return to the foreground"
        case .resendOn: return "changed live: a launch resend from the next launch"
        case .reportAppTransaction: return "changed live: from the next login"
        case .serverBindOrder:
            return "changed live: purchases made before it was on are still accepted without a token"
        case .persist, .persistWhen: return "changed live: receipts already kept stay where they are"
        case .storekit: return "takes effect on restart (R)"
        case .finish, .finishFailed, .accountToken, .retryImmediate, .retryInterval, .retryMaxInterval, .resendAs,
            .receipt, .match, .serverVerify, .serverDedup, .creditTo, .serverNotifications, .serverReconcile,
            .serverClawback, .serverRefundReversed, .serverRefundOrder, .serverConsumptionAnswer, .serverHistory,
            .serverHistoryPages,
            .serverSubscriptionOrder, .serverGrace, .serverRevoke, .serverStatusPoll:
            return nil
        }
    }
}

extension PolicyKey {
    /// `hardens: launch`, `hardens: 1 … 10`: the values "prevented by" may recommend.
    func hardeningWords(in world: StoreKitWorld) -> String {
        let values = hardening(in: world)
        guard let first = values.first, let last = values.last else { return "no value hardens" }
        return "hardens: " + (values.count > 3 ? "\(first) … \(last)" : values.joined(separator: ", "))
    }
}
