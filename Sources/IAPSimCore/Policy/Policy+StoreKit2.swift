extension Policy {
    /// `sk2-naive` (STOREKIT2.md): the listener on the store screen, finish on purchase,
    /// no sweep, no token, nothing kept, and a server that decodes the JWS without checking
    /// it and credits whoever the request names.
    static let storeKit2Naive: Policy = {
        var p = PolicyPreset.naive.policy
        p.storekit = .two
        return p
    }()

    /// `sk2-hardened`: the listener from launch, finish after credit, the unfinished sweep,
    /// the order's token on every purchase, the JWS kept in the keychain and resent, and a
    /// server that verifies the JWS, deduplicates on transactionId and binds by token.
    static let storeKit2Hardened: Policy = {
        var p = PolicyPreset.hardened.policy
        p.storekit = .two
        p.sweepUnfinished = true
        p.accountToken = true
        p.serverVerify = true
        return p
    }()

    /// The keys that mean something in this policy's world, in the order people read
    /// them: the app's keys, then the server's. `storekit` itself is not among them: the
    /// world is chosen by preset, before a run.
    package var keysInWorld: [PolicyKey] { PolicyKey.keys(in: storekit) }
}

extension PolicyKey {
    /// The keys a world reads. StoreKit 2 has no failed transactions to finish, no
    /// pairing by position and no receipt to re-read.
    package static func keys(in world: StoreKitWorld) -> [PolicyKey] {
        switch world {
        case .one:
            return allCases.filter { !$0.isStoreKit2Only && $0 != .storekit }
        case .two:
            return [
                .observer, .finish, .sweepUnfinished, .accountToken, .persist,
                .persistWhen, .retryImmediate, .retryInterval, .resendOn, .resendAs,
                .serverVerify, .serverDedup, .serverBindOrder, .creditTo,
            ]
        }
    }

    /// Keys that StoreKit 1 does not read.
    package var isStoreKit2Only: Bool {
        self == .sweepUnfinished || self == .accountToken || self == .serverVerify
    }
}
