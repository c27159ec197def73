/// Subscription steps for StoreKit 2 schedules, from a generator of their own (a sub-seed of
/// the run's seed), so that the steps every other generator draws stay as they were: half
/// the runs subscribe, then change the subscription and let months pass.
extension Schedule {
    static let graceChoices: [VirtualTime?] = [nil, 3 * 86_400_000, 16 * 86_400_000]
    static let longWaits: [VirtualTime] = [86_400_000, 10 * 86_400_000, 35 * 86_400_000, 70 * 86_400_000]

    /// The catalog's subscriptions, in its order; none: no subscription steps.
    /// With `swarm`, a run subscribes as without it, never, or always with up to twice the
    /// steps, of the kinds it keeps.
    mutating func addSubscriptionSteps(seed: UInt64, catalog: Catalog = .standard, swarm: Swarm? = nil) {
        let products = catalog.subscriptions
        var rng = SplitMix64(seed: seed).derive("schedule-subscriptions")
        let amount = swarm?.subscriptions ?? .usual
        guard amount == .many || rng.below(2) == 0, amount != .off, !products.isEmpty else { return }
        let graces = swarm?.graceChoices ?? Self.graceChoices
        gracePeriodMs = graces[rng.below(graces.count)]
        var added = [ScheduleStep(.after(0), .buy(product: products[rng.below(products.count)].id))]
        let count: Int
        if let range = swarm?.subscriptionSteps {
            count = range.lowerBound + rng.below(range.count)
        } else {
            count = amount == .many ? 6 + rng.below(9) : 3 + rng.below(5)
        }
        for _ in 0..<count {
            added.append(
                ScheduleStep(
                    .after(Self.delays[rng.below(Self.delays.count)]),
                    Self.subscriptionCommand(
                        &rng, products: products, kinds: swarm?.subscriptionKinds, rate: catalog.settings.timeRate)))
        }
        // In order, each at a random place after the one before.
        var at = rng.below(steps.count + 1)
        for step in added {
            steps.insert(step, at: at)
            at = at + 1 + rng.below(max(1, steps.count - at))
            at = min(at, steps.count)
        }
        addFamilySteps(seed: seed, catalog: catalog)
        let wait = Self.longWaits[rng.below(Self.longWaits.count)]
        steps.append(ScheduleStep(.after(0), .wait(catalog.settings.timeRate.compressed(wait))))
    }

    /// A long wait is months of real time, compressed as the catalog's time rate compresses a
    /// month (a run over a catalog that renews every 2 seconds waits seconds, not 70 days).
    static func subscriptionCommand(
        _ rng: inout SplitMix64, products: [Product], kinds: [Int]? = nil, rate: TimeRate = .realTime
    ) -> Command {
        switch roll(subscriptionKinds, kinds: kinds, &rng) {
        case 0: return .billingFail(on: true)
        case 1: return .billingFail(on: false)
        case 2: return .autoRenew(on: rng.below(2) == 0)
        case 3: return .changePlan(product: products[rng.below(products.count)].id)
        case 4: return .refund(txn: nil)
        case 5: return .delayNextNotification([3_600_000, 86_400_000][rng.below(2)])
        case 6: return .openStore
        case 7: return priceIncreaseCommand(&rng, products: products)
        default: return .wait(rate.compressed(longWaits[rng.below(longWaits.count)]))
        }
    }

    /// A price increase of a subscription (20% to 60% up, with or without consent), or the
    /// customer's consent to one (a slot that drew a long wait before).
    static func priceIncreaseCommand(_ rng: inout SplitMix64, products: [Product]) -> Command {
        let kind = rng.below(3)
        guard kind < 2 else { return .consentToPriceIncrease }
        let p = products[rng.below(products.count)]
        let cents = p.priceCents + p.priceCents * (2 + rng.below(5)) / 10
        return .priceIncrease(product: p.id, cents: cents, consent: kind == 0)
    }
}

extension Schedule {
    /// Promotional offers for StoreKit 2 schedules when the catalog has any, from a generator
    /// of their own (so a catalog without offers draws exactly as before): a third of the
    /// runs buy a subscription with one of its offers, once or twice, at random places (a
    /// new customer, or one back after a lapse).
    mutating func addOfferSteps(seed: UInt64, catalog: Catalog) {
        let offers = catalog.subscriptions.flatMap { p in
            (p.subscription?.promotional ?? []).compactMap { o in o.promotionalId.map { (p.id, $0) } }
        }
        var rng = SplitMix64(seed: seed).derive("schedule-offers")
        guard !offers.isEmpty, rng.below(3) == 0 else { return }
        for _ in 0..<(1 + rng.below(2)) {
            let (product, offer) = offers[rng.below(offers.count)]
            steps.insert(
                ScheduleStep(.after(0), .subscription(.buyOffer(product: product, offer: offer))),
                at: rng.below(steps.count + 1))
        }
    }
}

extension Schedule {
    /// Offer codes and win-back offers for StoreKit 2 schedules when the catalog has any, from
    /// a generator of their own (a catalog without them draws exactly as before): a third of
    /// the runs redeem a code (its custom code, or one of three one-time codes, so that some
    /// are used twice) or buy a subscription with a win-back offer, once to three times, at
    /// random places; a win-back offer's buy follows a lapse (auto-renew off, then a long wait).
    mutating func addCodeAndWinBackSteps(seed: UInt64, catalog: Catalog) {
        let codes = catalog.subscriptions.flatMap { $0.subscription?.codes ?? [] }.map(\.customCode)
        let winBack = catalog.subscriptions.flatMap { p in (p.subscription?.winBack ?? []).map { (p.id, $0.id) } }
        var rng = SplitMix64(seed: seed).derive("schedule-codes")
        guard !codes.isEmpty || !winBack.isEmpty, rng.below(3) == 0 else { return }
        for _ in 0..<(1 + rng.below(3)) {
            let at = rng.below(steps.count + 1)
            if !codes.isEmpty, winBack.isEmpty || rng.below(2) == 0 {
                let code = codes[rng.below(codes.count)]
                let n = rng.below(4)
                let word = n == 0 ? code : "\(code)-\(n)"
                steps.insert(ScheduleStep(.after(0), .subscription(.redeemCode(word))), at: at)
            } else {
                let (product, offer) = winBack[rng.below(winBack.count)]
                steps.insert(
                    contentsOf: [
                        ScheduleStep(.after(0), .autoRenew(on: false)),
                        ScheduleStep(.after(0), .wait(Self.longWaits[2 + rng.below(2)])),
                        ScheduleStep(.after(0), .subscription(.buyOffer(product: product, offer: offer))),
                    ], at: at)
            }
        }
    }
}
