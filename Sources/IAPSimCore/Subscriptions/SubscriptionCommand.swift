/// The subscription commands (docs/world.md, "Subscriptions"): the customer's payment method
/// failing, auto-renew turned off or on, a change of plan, a notification delayed. One family
/// of `Command` (`Command.subscription`): its words, its vocabulary rows
/// (`CommandSpec+Subscriptions.swift`), its refusal, what it does and its narration, each an
/// exhaustive switch here.
package enum SubscriptionCommand: Sendable, Hashable {
    /// `billing-fail on|off`: the payment method fails at every renewal and billing retry.
    case billingFail(on: Bool)
    /// `auto-renew on|off`: the customer turns auto-renew off or on in Settings.
    case autoRenew(on: Bool)
    /// `change-plan PRODUCT`: an upgrade, downgrade or crossgrade within the group.
    case changePlan(product: String)
    /// `delay-next-notification DURATION`: the next notification V2 leaves that much later.
    case delayNextNotification(VirtualTime)
    /// `grace-period off|3d|16d|28d`: the app's billing grace period is switched in App Store
    /// Connect; renewals that fail from now on get it.
    case gracePeriod(VirtualTime?)
    /// `buy PRODUCT offer OFFER`: the user buys a subscription with one of its promotional
    /// offers, which the merchant server signs with the order (PromotionalOffer.swift).
    case buyOffer(product: String, offer: String)
    /// `price-increase PRODUCT PRICE consent|no-consent`: the developer raises the price
    /// of the subscription for its subscriber (`PriceIncrease.swift`).
    case priceIncrease(product: String, cents: Int, consent: Bool)
    /// `consent`: the customer agrees to the pending price increase.
    case consentToPriceIncrease
    /// `redeem-code CODE`: the customer redeems an offer code outside any purchase call
    /// (OfferCodes.swift).
    case redeemCode(String)
    /// `messages defer|show`: the app defers StoreKit's messages, or shows the deferred one.
    case deferMessages(Bool)
    /// Family Sharing (FamilyCommand.swift): `join-family NAME`, `leave-family`,
    /// `family-share on|off`.
    case family(FamilyCommand)

    /// App Store Connect's billing grace periods (3, 16 or 28 days), or none: the values of
    /// the command, of a scenario's `grace-period` and of the sandbox's `--grace-period`.
    package static let gracePeriods: [(word: String, ms: VirtualTime?)] = [
        ("off", nil), ("3d", 3 * 86_400_000), ("16d", 16 * 86_400_000), ("28d", 28 * 86_400_000),
    ]

    /// How a grace period is written: `16d`, `off`.
    package static func graceWord(_ ms: VirtualTime?) -> String {
        gracePeriods.first { $0.ms == ms }?.word ?? "off"
    }

    /// The command's text as a scenario file writes it.
    var scenarioText: String {
        switch self {
        case .billingFail(let on): return "billing-fail \(on ? "on" : "off")"
        case .autoRenew(let on): return "auto-renew \(on ? "on" : "off")"
        case .changePlan(let p): return "change-plan \(p)"
        case .delayNextNotification(let ms): return "delay-next-notification \(DurationText.format(ms))"
        case .gracePeriod(let ms): return "grace-period \(Self.graceWord(ms))"
        case .buyOffer(let p, let o): return "buy \(p) offer \(o)"
        case .priceIncrease(let p, let cents, let consent):
            return "price-increase \(p) \(formatMoney(cents)) \(consent ? "consent" : "no-consent")"
        case .consentToPriceIncrease: return "consent"
        case .redeemCode(let code): return "redeem-code \(code)"
        case .deferMessages(let on): return "messages \(on ? "defer" : "show")"
        case .family(let c): return c.scenarioText
        }
    }

    /// Its row of the vocabulary.
    var spec: CommandSpec {
        switch self {
        case .billingFail: return .billingFail
        case .autoRenew: return .autoRenew
        case .changePlan: return .changePlan
        case .delayNextNotification: return .delayNextNotification
        case .gracePeriod: return .gracePeriod
        case .buyOffer: return .buy
        case .priceIncrease: return .priceIncrease
        case .consentToPriceIncrease: return .consent
        case .redeemCode: return .redeemCode
        case .deferMessages: return .messages
        case .family(let c): return c.spec
        }
    }

    /// A line a generated story says for it (explore's findings).
    var narration: String {
        switch self {
        case .billingFail, .autoRenew, .changePlan, .delayNextNotification, .gracePeriod, .priceIncrease,
            .consentToPriceIncrease, .deferMessages, .family:
            return scenarioText + "."
        case .buyOffer(let p, let o): return "The logged-in user buys \(p) with its offer \(o)."
        case .redeemCode(let code): return "The customer redeems the offer code \(code) in the App Store."
        }
    }
}

extension Command {
    package static func billingFail(on: Bool) -> Command { .subscription(.billingFail(on: on)) }
    package static func autoRenew(on: Bool) -> Command { .subscription(.autoRenew(on: on)) }
    package static func changePlan(product: String) -> Command { .subscription(.changePlan(product: product)) }
    package static func delayNextNotification(_ ms: VirtualTime) -> Command {
        .subscription(.delayNextNotification(ms))
    }
    package static func gracePeriod(_ ms: VirtualTime?) -> Command { .subscription(.gracePeriod(ms)) }
    package static func priceIncrease(product: String, cents: Int, consent: Bool) -> Command {
        .subscription(.priceIncrease(product: product, cents: cents, consent: consent))
    }
    package static var consentToPriceIncrease: Command { .subscription(.consentToPriceIncrease) }
}

extension World {
    /// Why a subscription command cannot run now, or nil.
    /// (`delay-next-notification` is a fault of the App Store's notifications, which exist
    /// in both worlds.)
    mutating func refusing(_ command: SubscriptionCommand) -> String? {
        if case .delayNextNotification = command { return nil }
        if let why = subscriptionsRefused { return why }
        if case .family(let c) = command { return refusing(c) }
        let live = liveSubscription
        switch command {
        case .autoRenew(let on):
            guard let live else { return "no subscription to change" }
            if live.autoRenew == on { return "auto-renew is already \(on ? "on" : "off")" }
        case .changePlan(let p):
            guard let live, live.group == config.catalog.read(p, { $0.subscription?.group }) ?? nil else {
                return "no active subscription in the group of \(p)"
            }
            if live.status != .active && live.status != .grace { return "the subscription is in billing retry" }
            if live.autoRenewProductId == p && live.productId == p { return "the subscription is already \(p)" }
        case .gracePeriod(let ms):
            if store.gracePeriodMs == ms {
                return "the billing grace period is already \(SubscriptionCommand.graceWord(ms))"
            }
        case .buyOffer(let p, let o):
            guard let terms = config.catalog.read(p, { $0.subscription }) ?? nil else {
                return "\(p) is not a subscription"
            }
            if !terms.promotional.contains(where: { $0.promotionalId == o })
                && !terms.winBack.contains(where: { $0.id == o })
            {
                return "\(p) has no promotional or win-back offer \(o)"
            }
            if let why = subscriptionPurchaseRefusal(group: terms.group) { return why }
            if !app.isRunning { return "the app is not running" }
            if app.loggedIn == nil { return "nobody is logged in" }
        case .priceIncrease(let p, let cents, _):
            guard let i = store.priceIncreaseTarget(p) else { return "no subscription renews to \(p)" }
            let now = store.renewalPrice(store.subscriptions[i], of: p)
            if let now, cents <= now { return "\(p) renews at \(formatMoney(now)): a price increase must be higher" }
            if store.subscriptions[i].priceIncrease != nil { return "a price increase of \(p) is already pending" }
        case .consentToPriceIncrease:
            if store.pendingConsentIndex == nil { return "no price increase waits for the customer's consent" }
        case .redeemCode(let code):
            if config.catalog.offerCode(code) == nil { return "the catalog has no offer code \(code)" }
        case .deferMessages(let on):
            if on && store.defersMessages { return "the app already defers StoreKit's messages" }
            if !on && !store.defersMessages { return "the app defers no StoreKit message (messages defer first)" }
            if !on && store.messageDeferred && !app.isRunning { return "the app is not running" }
        case .billingFail, .delayNextNotification, .family:
            break
        }
        return nil
    }

    /// Why `buy` of a subscription product of `group` cannot run now, or nil.
    mutating func subscriptionPurchaseRefusal(group: String) -> String? {
        if let why = subscriptionsRefused { return why }
        if let live = liveSubscription, live.group == group {
            return "the Apple ID already subscribes to group \(live.group) (\(live.productId)): one active "
                + "subscription per group; change-plan switches plans"
        }
        return nil
    }

    /// Subscriptions exist in the StoreKit 2 world only.
    private var subscriptionsRefused: String? {
        policy.storekit == .one ? "subscriptions exist in the StoreKit 2 world only (storekit: 2)" : nil
    }

    /// The newest subscription neither expired nor revoked.
    /// The App Store's live subscription (`AppStore.liveSubscription`), if any.
    private var liveSubscription: Subscription? { store.liveSubscription.map { store.subscriptions[$0] } }

    /// The App Store (and the customer) act on the subscription.
    mutating func perform(_ command: SubscriptionCommand) {
        switch command {
        case .billingFail(let on):
            store.setBillingFails(on)
            outbox.narrate(
                .fault,
                .faultArmed(
                    on
                        ? "the customer's payment method fails at every renewal and billing retry"
                        : "the customer's payment method works again"))
        case .autoRenew(let on):
            store.setAutoRenew(on, &outbox)
        case .changePlan(let product):
            store.changePlan(to: product, &outbox)
        case .delayNextNotification(let ms):
            store.delayNextNotification(ms)
            outbox.narrate(
                .fault, .faultArmed("the next notification V2 leaves \(DurationText.format(ms)) after its event"))
        case .buyOffer(let product, let offer):
            app.buy(product, offer: offer, store: &store, &outbox)
        case .family(let c):
            perform(c)
        case .gracePeriod(let ms):
            store.gracePeriodMs = ms
            outbox.narrate(
                .appStore,
                .faultArmed(
                    ms.map {
                        "billing grace period \(SubscriptionCommand.graceWord($0)) (App Store Connect): renewals that fail from now on keep access"
                    }
                        ?? "billing grace period off (App Store Connect): a renewal that fails goes to billing retry"))
        case .priceIncrease(let product, let cents, let consent):
            store.raisePrice(product, to: cents, consent: consent, appRunning: app.isRunning, &outbox)
        case .consentToPriceIncrease:
            store.consentToPriceIncrease(&outbox)
        case .redeemCode(let code):
            // The Apple ID's customer: the app account logged in, else the first.
            store.redeemCode(code, user: app.loggedIn ?? config.users[0], &outbox)
        case .deferMessages(let on):
            store.setDefersMessages(on, &outbox)
        }
    }
}

/// The subscription commands as rows of the vocabulary (docs/world.md, "Subscriptions"). Not on
/// explore's wheel: a new slot would change every seeded schedule; explore adds them to
/// StoreKit 2 schedules from a generator of their own.
extension CommandSpec {
    static let billingFail = CommandSpec(
        "billing-fail", usage: "billing-fail on|off", faultIf: { $0 == .billingFail(on: true) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .billingFail(on: try a.onOff(0))
        },
        doc: "StoreKit 2 only: `on`, the customer's payment method fails at every subscription renewal and billing "
            + "retry (`DID_FAIL_TO_RENEW`, billing retry, grace when `grace-period` is set) until turned `off`")
    static let autoRenew = CommandSpec(
        "auto-renew", usage: "auto-renew on|off", faultIf: { $0 == .autoRenew(on: false) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .autoRenew(on: try a.onOff(0))
        },
        doc: "StoreKit 2 only: the customer turns auto-renew of the subscription off or on in Settings "
            + "(`DID_CHANGE_RENEWAL_STATUS`); off, it expires at `expiresDate` (`EXPIRED` / `VOLUNTARY`)")
    static let changePlan = CommandSpec(
        "change-plan", usage: "change-plan PRODUCT",
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .changePlan(product: try a.subscriptionProduct(0))
        },
        doc: "StoreKit 2 only: the customer switches the subscription to PRODUCT of the same group: to a higher "
            + "level (upgrade) at once, with a prorated refund of the rest of the period and a new transaction; to a "
            + "lower level (downgrade) or another duration of the same level (crossgrade) at the next renewal "
            + "(`DID_CHANGE_RENEWAL_PREF`)")
    static let delayNextNotification = CommandSpec(
        "delay-next-notification", usage: "delay-next-notification DURATION", fault: true,
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .delayNextNotification(try a.duration(0))
        },
        doc: "the next notification V2 leaves the App Store DURATION later than its event; it is signed at its "
            + "event (its `signedDate` and payload are of that moment), so notifications arrive out of order")
}

extension CommandSpec {
    static let redeemCode = CommandSpec(
        "redeem-code", usage: "redeem-code CODE",
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .subscription(.redeemCode(try a.offerCode(0)))
        },
        doc: "StoreKit 2 only: the customer redeems an offer code (a `.storekit` file's `codeOffers`) in the App "
            + "Store, through a redemption link or in the app's sheet (`presentOfferCodeRedeemSheet`): CODE is an "
            + "offer's custom code (its reference name's letters and digits in capitals, once per Apple ID) or one "
            + "of its one-time codes, `CODE-N` (each once). A customer new to the group or lapsed is charged the "
            + "offer now and the transaction (`offerType` 3, `offerIdentifier` the reference name) reaches the app "
            + "only on `Transaction.updates` (`OFFER_REDEEMED` `INITIAL_BUY` or `RESUBSCRIBE`); an active "
            + "subscriber's next renewal is at the offer (`OFFER_REDEEMED`, no subtype), and a code of another "
            + "product of the group is a plan change with the offer: an upgrade at once (`UPGRADE`), a downgrade "
            + "or crossgrade at the next renewal (`DOWNGRADE`). The App Store refuses a "
            + "used code or a customer the offer is not for, and charges nothing")
    static let gracePeriod = CommandSpec(
        "grace-period", usage: "grace-period off|3d|16d|28d",
        read: { a throws(CommandError) in
            try a.exactly(1)
            let word = a.words[0]
            guard let found = SubscriptionCommand.gracePeriods.first(where: { $0.word == word.text }) else {
                throw CommandError(
                    offset: word.offset,
                    problem: .badArgument(
                        "grace-period", word.text,
                        expected: SubscriptionCommand.gracePeriods.map(\.word).joined(separator: ", ")))
            }
            return .gracePeriod(found.ms)
        },
        doc: "StoreKit 2 only: the app's billing grace period is switched in App Store Connect (as the top-level "
            + "`grace-period` says at the start): a renewal that fails from then on keeps access for that long "
            + "(6 days at most for a weekly subscription); `off`, it goes straight to billing retry. A subscription "
            + "already in billing retry keeps what it had")
}

extension SubscriptionCommand {
    /// The family's rows of the vocabulary, in the format's order (`CommandSpec.all` is built
    /// from the families).
    static let specs: [CommandSpec] = [
        .billingFail, .autoRenew, .changePlan, .delayNextNotification, .gracePeriod, .priceIncrease, .consent,
        .redeemCode,
        .messages,
    ]
}

extension CommandArguments {
    /// A subscription product's id.
    func subscriptionProduct(_ i: Int) throws(CommandError) -> String {
        let word = words[i]
        guard catalog.isSubscription(word.text) else {
            throw CommandError(
                offset: word.offset, problem: .unknownProduct(word.text, products: catalog.subscriptions.map(\.id)))
        }
        return word.text
    }
}
