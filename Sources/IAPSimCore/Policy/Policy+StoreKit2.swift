extension Policy {
    /// `sk2-naive` (STOREKIT2.md): the listener on the store screen, finish on purchase,
    /// no sweep, no token, nothing kept, and a server that decodes the JWS without checking
    /// it and credits whoever the request names.
    static let storeKit2Naive: Policy = {
        var p = PolicyPreset.naive.policy
        p.storekit = .two
        p.serverHistory = .v1
        p.serverHistoryPages = .first
        return p
    }()

    /// `sk2-hardened`: the listener from launch, finish after credit, the unfinished sweep,
    /// the order's token on every purchase, the JWS kept in the keychain and resent, and a
    /// server that verifies the JWS, deduplicates on transactionId and binds by token, hears
    /// notifications V2, reconciles every hour and claws refunds back.
    static let storeKit2Hardened: Policy = {
        var p = PolicyPreset.hardened.policy
        p.storekit = .two
        p.sweepUnfinished = true
        p.accountToken = true
        p.serverVerify = .yes
        p.serverNotifications = true
        p.serverReconcileMs = 3_600_000
        p.serverClawback = .refundedShare
        p.reportAppTransaction = true
        p.serverRefundReversed = .restore
        p.serverConsumptionAnswer = true
        return p
    }()

    /// The keys that mean something in this policy's world, in the order people read
    /// them: the app's keys, then the server's. `storekit` itself is not among them: the
    /// world is chosen by preset, before a run.
    /// StoreKit 1 lists the server-side keys only once one is on (they work in both worlds;
    /// a StoreKit 1 panel without them stays as it was).
    package var keysInWorld: [PolicyKey] {
        let keys = PolicyKey.keys(in: storekit)
        guard storekit == .one, serverSide else { return keys }
        return keys + PolicyKey.serverSideKeys
    }
}

extension PolicyKey {
    /// The keys a world reads. StoreKit 2 has no failed transactions to finish, no
    /// pairing by position and no receipt to re-read.
    package static func keys(in world: StoreKitWorld) -> [PolicyKey] {
        switch world {
        case .one:
            return allCases.filter { !$0.isStoreKit2Only && $0 != .storekit && !serverSideKeys.contains($0) }
        case .two:
            return [
                .observer, .finish, .sweepUnfinished, .accountToken, .persist,
                .persistWhen, .retryImmediate, .retryInterval, .retryMaxInterval, .resendOn, .resendAs,
                .reportAppTransaction, .serverVerify, .serverDedup, .serverBindOrder, .creditTo,
            ]
                + serverSideKeys
        }
    }

    /// The merchant server's side of STOREKIT2.md (notifications, reconciliation, clawback):
    /// read in both worlds.
    package static let serverSideKeys: [PolicyKey] = [
        .serverNotifications, .serverReconcile, .serverClawback, .serverRefundReversed,
        .serverConsumptionAnswer, .serverHistory, .serverHistoryPages,
    ]

    /// Keys that StoreKit 1 does not read.
    package var isStoreKit2Only: Bool {
        self == .sweepUnfinished || self == .accountToken || self == .serverVerify || self == .reportAppTransaction
    }
}
