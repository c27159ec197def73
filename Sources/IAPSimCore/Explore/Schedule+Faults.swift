/// The faults of the server side in explore's simulated worlds (the merchant server out, the
/// App Store Server API failing, slow or out, a forged JWS), from a generator of their own
/// (a sub-seed of the run's seed), so that the steps every other generator draws stay as
/// they were. A fault turned on is sometimes turned off a while later and sometimes left on
/// for the heal phase, which ends it (`heal`).
extension Schedule {
    /// Every fault command and the family of explore that draws it, or why none does: a
    /// test draws schedules in every preset and holds each row to it.
    package static let faultDraws: [(word: String, drawnBy: String)] = [
        ("crash", "the wheel"), ("network", "the wheel"), ("drop-next-request", "the wheel"),
        ("drop-next-response", "the wheel"), ("latency", "the wheel"), ("store-outage", "the wheel"),
        ("store-status", "the wheel (StoreKit 1)"), ("fail-next-payment", "the wheel"),
        ("interrupt-next-payment", "the wheel"), ("server-outage", "server faults"),
        ("server-api-fail", "server faults (StoreKit 2, or a server-side key on)"),
        ("server-api-slow", "server faults (StoreKit 2, or a server-side key on)"),
        ("server-api-outage", "server faults (StoreKit 2, or a server-side key on)"),
        ("forge", "server faults (StoreKit 2)"), ("billing-fail", "subscriptions (StoreKit 2)"),
        ("auto-renew", "subscriptions (StoreKit 2)"), ("delay-next-notification", "subscriptions (StoreKit 2)"),
        ("price-increase", "subscriptions (StoreKit 2)"), ("family-share", "family steps (StoreKit 2)"),
    ]

    /// Up to two server-side faults in a third of the runs; with `swarm`, in the share of
    /// runs its `server` weight says (none at 0, every run at the full weight).
    mutating func addServerFaultSteps(seed: UInt64, policy: Policy, catalog: Catalog, swarm: Swarm? = nil) {
        var rng = SplitMix64(seed: seed).derive("schedule-server-faults")
        if let swarm {
            guard swarm.keeps(.server, &rng) else { return }
        } else {
            guard rng.below(3) == 0 else { return }
        }
        let usesAPI = policy.storekit == .two || policy.serverSide
        // A run whose server faults are at their full weight has up to `serverMany` of them.
        let most = swarm.map { $0.weight(.server) >= Swarm.scale ? Swarm.serverMany : 2 } ?? 2
        for _ in 0..<(1 + rng.below(most)) {
            let at = rng.below(steps.count + 1)
            let pause = ScheduleStep(.after(0), .wait(Self.servedPauses[rng.below(Self.servedPauses.count)]))
            let pair: [Command]
            switch rng.below(usesAPI ? (policy.storekit == .two ? 5 : 4) : 1) {
            case 0: pair = [.serverOutage(on: true), .serverOutage(on: false)]
            case 1:
                pair = [
                    .serverAPIFault(
                        .fail(count: 1 + rng.below(5), code: [5_000_001, 4_290_000, 5_000_000][rng.below(3)]))
                ]
            case 2: pair = [.serverAPIFault(.outage(true)), .serverAPIFault(.outage(false))]
            case 3: pair = [.serverAPIFault(.slow([500, 20_000][rng.below(2)])), .serverAPIFault(.slow(0))]
            default:
                let products = catalog.products.map(\.id)
                guard !products.isEmpty else { continue }
                pair = [.forge(product: products[rng.below(products.count)])]
            }
            var inserted = [ScheduleStep(.after(Self.delays[rng.below(Self.delays.count)]), pair[0])]
            // Half the faults turned on stay on until the heal phase.
            if pair.count > 1, rng.below(2) == 0, swarm?.outagesStayOn != true {
                inserted += [pause, ScheduleStep(.after(0), pair[1])]
            }
            steps.insert(contentsOf: inserted, at: at)
        }
    }
}
