/// Which values of a key harden the app or the server: what "prevented by" may recommend.
/// A change that prevents one anomaly by weakening something else (`observer
/// store-screen`, `account-token false`) is a trade, never a fix.
extension PolicyKeySpec {
    /// The values of this key that harden, in `world`: the hardened preset's value (for a
    /// server-side key, `sk2-hardened`'s: those keys are read in both worlds), and for a key
    /// whose values are amounts or places (retries, intervals, resend moments, where receipts
    /// are kept, how much a refund claws back) every value but the weak preset's.
    package func hardening(in world: StoreKitWorld) -> [String] {
        let weak = value(in: world == .two ? .sk2Naive : .naive)
        let strong = value(in: self.world == .serverSide || world == .two ? .sk2Hardened : .hardened)
        guard key != .storekit else { return [] }
        return choices.filter { $0 == strong || (graded && $0 != weak) }
    }
}

extension PolicyKey {
    /// The values of this key that harden in `world` (`PolicyKeySpec.hardening(in:)`).
    package func hardening(in world: StoreKitWorld) -> [String] { spec.hardening(in: world) }
}
