import IAPSimCore

extension PolicyKey {
    /// When a change made in the policy panel while the world runs takes effect, for the keys
    /// whose new value a running app does not read at once (`Simulation.policyChangedLive`);
    /// nil: from the next moment the key is read.
    var liveEffect: String? { spec.liveEffect }
}

extension PolicyKey {
    /// `hardens: launch`, `hardens: 1 … 10`: the values "prevented by" may recommend.
    func hardeningWords(in world: StoreKitWorld) -> String {
        let values = hardening(in: world)
        guard let first = values.first, let last = values.last else { return "no value hardens" }
        return "hardens: " + (values.count > 3 ? "\(first) … \(last)" : values.joined(separator: ", "))
    }
}
