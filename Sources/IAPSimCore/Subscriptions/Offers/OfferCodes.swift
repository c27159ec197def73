/// Offer codes and win-back offers (docs/world.md, "Offer codes and win-back offers").
///
/// An offer code (App Store Connect's subscription offer codes, a `.storekit` file's
/// `codeOffers`) is redeemed outside any purchase call: in the App Store app, through a
/// redemption link, or in the app's sheet (`presentOfferCodeRedeemSheet`, `offerCodeRedemption`);
/// either way the transaction reaches the app only on `Transaction.updates` (Apple,
/// *Implementing offer codes in your app*: the app must listen for it at launch). A custom code
/// is one word many customers type, each Apple ID once; a one-time code is unique and works
/// once. The transaction says `offerType` 3 and the offer's reference name as
/// `offerIdentifier`; an active subscriber's code applies from the next renewal.
///
/// A win-back offer (a `.storekit` file's `winbackOffers`) is for a lapsed subscriber, by the
/// offer's rules (months of paid service, months since the subscription lapsed, months before
/// the same offer again); never for a subscription in billing grace or billing retry (Apple,
/// `eligibleWinBackOfferIDs`). The renewal info lists the offers the customer may redeem; the
/// app buys one with `PurchaseOption.winBackOffer(_:)`; its transaction says `offerType` 4.
package struct OfferCode: Sendable, Hashable {
    /// The terms, `kind` `.code`, `promotionalId` the reference name.
    package var offer: IntroductoryOffer
    /// Apple's customer eligibilities: new to the group, subscribed now, lapsed.
    package var forNew = true
    package var forExisting = true
    package var forExpired = true

    package init(offer: IntroductoryOffer, forNew: Bool = true, forExisting: Bool = true, forExpired: Bool = true) {
        self.offer = offer
        self.forNew = forNew
        self.forExisting = forExisting
        self.forExpired = forExpired
    }

    /// App Store Connect's reference name of the offer (`offerIdentifier`).
    package var referenceName: String { offer.promotionalId ?? "" }
    /// The custom code customers type: the reference name's letters and digits, in capitals
    /// (`Welcome back` is `WELCOMEBACK`). A one-time code is it with `-N` (`WELCOMEBACK-1`).
    package var customCode: String { Self.customCode(of: referenceName) }

    package static func customCode(of name: String) -> String {
        String(name.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// `new, existing, expired`.
    package var eligibilityWords: String {
        [(forNew, "new"), (forExisting, "existing"), (forExpired, "expired")].filter(\.0).map(\.1)
            .joined(separator: ", ")
    }
}

/// A win-back offer and its eligibility rules (App Store Connect's
/// `customerEligibility…InMonths`).
package struct WinBackOffer: Sendable, Hashable {
    /// The terms, `kind` `.winBack`, `promotionalId` the offer id.
    package var offer: IntroductoryOffer
    /// Months of paid service the customer had (`customerEligibilityPaidSubscriptionDurationInMonths`).
    package var paidMonths = 0
    /// Months since the subscription lapsed, at least and at most
    /// (`customerEligibilityTimeSinceLastSubscribedInMonths`).
    package var sinceMinMonths = 0
    package var sinceMaxMonths = 24
    /// Months from the end of the offer's period before the same offer again
    /// (`customerEligibilityWaitBetweenOffersInMonths`); nil: once.
    package var waitMonths: Int?

    package init(offer: IntroductoryOffer) { self.offer = offer }

    package var id: String { offer.promotionalId ?? "" }
}

/// A win-back offer redeemed: when its offer period ends (its wait is counted from there).
struct WinBackUse: Sendable, Hashable {
    var offer: String
    var endsAt: VirtualTime
}

/// Why the App Store refuses a code: the redemption sheet says so, nothing is charged.
package enum CodeRefusal: Sendable, Hashable {
    case unknownCode
    case used(oneTime: Bool)
    case ineligible(String)

    package var words: String {
        switch self {
        case .unknownCode: return "no offer has this code"
        case .used(let oneTime):
            return oneTime ? "this one-time code was already redeemed" : "this Apple ID already redeemed this code"
        case .ineligible(let why): return why
        }
    }
}

extension Catalog {
    /// The built-in catalog with an offer code on `pro_monthly` ("Welcome back", a month's
    /// free trial: custom code `WELCOMEBACK`): the catalog the core's and the scenario
    /// reader's tests read `redeem-code` with (the built-in catalog has no offer code).
    package static let withOfferCode: Catalog = {
        var subscriptions = Catalog.standard.subscriptions
        let offer = IntroductoryOffer(
            paymentMode: .freeTrial, period: RenewalPeriod(1, .month), promotionalId: "Welcome back", kind: .code)
        subscriptions[0].subscription?.codes = [OfferCode(offer: offer)]
        return Catalog(
            products: Catalog.standard.products, subscriptions: subscriptions, settings: Catalog.standard.settings)
    }()

    /// The offer code `code` names (its custom code, or one of its one-time codes `CODE-N`),
    /// with its product, and the one-time code's number.
    package func offerCode(_ code: String) -> (product: String, code: OfferCode, oneTime: Int?)? {
        for p in subscriptions {
            for c in p.subscription?.codes ?? [] {
                if code == c.customCode { return (p.id, c, nil) }
                let prefix = c.customCode + "-"
                if code.hasPrefix(prefix), let n = Int(code.dropFirst(prefix.count)), n > 0, n <= 9_999,
                    "\(n)" == code.dropFirst(prefix.count)
                {
                    return (p.id, c, n)
                }
            }
        }
        return nil
    }

    /// The win-back offer `id` of `product`, if it has one.
    package func winBackOffer(_ id: String, of product: String) -> WinBackOffer? {
        self.product(product)?.subscription?.winBack.first { $0.id == id }
    }
}

extension AppStore {
    /// Why win-back offer `w` is not the customer's now, or nil when it is: the subscription
    /// of its group lapsed (expired: never in billing grace or retry), with enough paid
    /// service, long enough ago but not too long, and the same offer not redeemed within
    /// its wait.
    package func winBackRefusal(_ w: WinBackOffer, group: String, now: VirtualTime) -> String? {
        guard let i = subscriptionIndex(group: group) else { return "the customer never subscribed in the group" }
        let s = subscriptions[i]
        guard s.status == .expired else {
            return s.isInBillingRetryPeriod
                ? "the subscription is in billing grace or billing retry, not lapsed"
                : "the subscription has not lapsed (status \(s.status.word))"
        }
        let paid = s.periods.filter { $0.priceCents > 0 && !$0.refunded }
        guard let first = paid.first?.start else { return "it needs a paid period" }
        let paidMs = paid.reduce(0) { $0 + ($1.end - $1.start) }
        if SubscriptionCalendar.adding(months: w.paidMonths, to: first) > first + paidMs {
            return "it needs \(w.paidMonths) months of paid service"
        }
        if now < SubscriptionCalendar.adding(months: w.sinceMinMonths, to: s.expiresAt) {
            return "the subscription lapsed less than \(w.sinceMinMonths) months ago"
        }
        if now > SubscriptionCalendar.adding(months: w.sinceMaxMonths, to: s.expiresAt) {
            return "the subscription lapsed more than \(w.sinceMaxMonths) months ago"
        }
        if let used = book.winBackUses.last(where: { $0.offer == w.id }) {
            guard let wait = w.waitMonths else { return "the customer redeemed it already" }
            if now < SubscriptionCalendar.adding(months: wait, to: used.endsAt) {
                return "the customer redeemed it less than \(wait) months after its last period"
            }
        }
        return nil
    }

    /// The win-back offers of `group` the customer may redeem now, best (cheapest a month)
    /// first: the renewal info's `eligibleWinBackOfferIds`.
    package func eligibleWinBackOfferIds(group: String, now: VirtualTime) -> [String] {
        guard subscriptionBook != nil else { return [] }
        var found: [(id: String, cents: Int)] = []
        for p in catalog.subscriptions where p.subscription?.group == group {
            for w in p.subscription?.winBack ?? [] where winBackRefusal(w, group: group, now: now) == nil {
                let days = max(1, (w.offer.span.end(after: 0)) / SubscriptionCalendar.dayMs)
                found.append((w.id, w.offer.priceCents * w.offer.charges * 30 / Int(days)))
            }
        }
        return found.enumerated().sorted { ($0.element.cents, $0.offset) < ($1.element.cents, $1.offset) }
            .map(\.element.id)
    }

    /// `PurchaseOption.winBackOffer(_:)`: the App Store applies win-back offer `id` of
    /// `product` to the purchase if the customer is eligible, else the purchase throws
    /// `Product.PurchaseError.ineligibleForOffer` and nothing is charged.
    mutating func redeemWinBackLogged(
        _ id: String, product: String, _ out: inout Outbox
    ) -> Result<IntroductoryOffer, OfferRefusal> {
        guard let w = catalog.winBackOffer(id, of: product), let group = catalog.product(product)?.subscription?.group
        else {
            out.log(.appStore, .noted("win-back offer \(id) of \(product) refused: the product has no such offer"))
            return .failure(.unknownOffer)
        }
        if let why = winBackRefusal(w, group: group, now: out.now) {
            out.log(
                .appStore,
                .noted(
                    "win-back offer \(id) of \(product) refused: \(why) (Product.PurchaseError.ineligibleForOffer);"
                        + " purchase() throws, nothing is charged"))
            return .failure(.ineligible)
        }
        book.winBackUses.append(WinBackUse(offer: id, endsAt: w.offer.span.end(after: out.now)))
        out.log(.appStore, .noted("win-back offer \(id) of \(product) applies: \(w.offer.summary)"))
        return .success(w.offer)
    }

    /// Why the App Store refuses `code` for the customer now, or nil.
    func codeRefusal(_ code: String) -> CodeRefusal? {
        guard let (product, c, oneTime) = catalog.offerCode(code) else { return .unknownCode }
        if book.redeemedCodes.contains(code) { return .used(oneTime: oneTime != nil) }
        guard let group = catalog.product(product)?.subscription?.group, let i = subscriptionIndex(group: group) else {
            return c.forNew ? nil : .ineligible("the offer is not for customers new to the group")
        }
        let s = subscriptions[i]
        switch s.status {
        case .expired, .revoked:
            return c.forExpired ? nil : .ineligible("the offer is not for lapsed subscribers")
        case .active, .grace, .billingRetry:
            guard c.forExisting else { return .ineligible("the offer is not for current subscribers") }
            if s.status != .active { return .ineligible("the subscription is in billing grace or billing retry") }
            // A code of another product of the group is a plan change (`redeemCode`).
            if s.introPeriodsLeft > 0 { return .ineligible("an offer already applies to the next renewal") }
            return nil
        }
    }

    /// The customer redeems `code` (`redeem-code`): refused, the sheet says why; a customer
    /// new to the group or lapsed is charged the offer's first period now (the transaction
    /// reaches the app on `Transaction.updates`, `OFFER_REDEEMED` `INITIAL_BUY` or
    /// `RESUBSCRIBE`); an active subscriber's next renewal is at the offer
    /// (`OFFER_REDEEMED` without subtype), or, for another product of the group, a plan
    /// change with the offer (`redeemCodeAsPlanChange`).
    mutating func redeemCode(_ code: String, user: String, _ out: inout Outbox) {
        if let refusal = codeRefusal(code) {
            return out.log(.appStore, .noted("offer code \(code) refused: \(refusal.words); nothing is charged"))
        }
        guard let (product, c, _) = catalog.offerCode(code), let group = catalog.product(product)?.subscription?.group
        else { return }
        book.redeemedCodes.insert(code)
        if let i = subscriptionIndex(group: group), subscriptions[i].status == .active {
            let s = subscriptions[i]
            if s.productId != product || s.autoRenewProductId != product {
                return redeemCodeAsPlanChange(code, c, product: product, i, &out)
            }
            book.subscriptions[i].introOffer = c.offer
            book.subscriptions[i].introPeriodsLeft = c.offer.charges
            book.subscriptions[i].introOfferProductId = nil
            out.log(
                .appStore,
                .noted(
                    "offer code \(code) (\"\(c.referenceName)\") redeemed: \(c.offer.summary) from the next renewal"
                        + " of \(subscriptions[i].originalTransactionId)"))
            noteChange(i, .codeRedeemed, txn: nil, &out)
            return notifySubscription(.offerRedeemed, nil, i, &out)
        }
        let t = newTransaction(product: product, username: nil, now: out.now, outcome: .charge)
        out.log(
            .appStore,
            .noted(
                "offer code \(code) (\"\(c.referenceName)\") redeemed outside the app: \(t.id) of \(product),"
                    + " \(c.offer.summary); StoreKit hands it to Transaction.updates"))
        let isNew = subscriptionIndex(group: group) == nil
        noteSubscriptionBuyer(t.id, user: user, promotional: c.offer)
        charge(t.id, out: &out)
        if isNew { book.unclaimedCodes.append(t.id) }
    }

    /// An active subscriber's code for another product of the group (or for the current one
    /// while a change to another waits): Apple's plan change with the code's offer on the new
    /// product. An upgrade (a higher level) takes effect now: the rest of the period is refunded
    /// prorated and the new transaction is the offer's first period (`OFFER_REDEEMED` /
    /// `UPGRADE`); a downgrade or crossgrade waits for the next renewal, which is the offer's
    /// (`OFFER_REDEEMED` / `DOWNGRADE`; back to the current product, no subtype).
    private mutating func redeemCodeAsPlanChange(
        _ code: String, _ c: OfferCode, product: String, _ i: Int, _ out: inout Outbox
    ) {
        let s = subscriptions[i]
        let upgrade =
            (catalog.product(product)?.subscription?.level ?? 0)
            < (catalog.product(s.productId)?.subscription?.level ?? 0)
        out.log(
            .appStore,
            .noted(
                "offer code \(code) (\"\(c.referenceName)\") redeemed for \(product) by the subscriber of \(s.productId): "
                    + (upgrade
                        ? "an upgrade, at once, with \(c.offer.summary)"
                        : "a plan change at the next renewal, which is \(c.offer.summary)")))
        changePlan(to: product, code: c, &out)
    }

    /// A code redeemed outside the app names no app account (no `appAccountToken`): the App
    /// Store's first guess is the account logged in at the redemption; the account the app
    /// sends the transaction for becomes its subscriber (the auditor's timelines move to it),
    /// until the server has answered one of those sends (`settleRedeemedCode`). Called when
    /// the app sends a transaction to the server.
    mutating func claimRedeemedCode(_ txn: String, by user: String, _ out: inout Outbox) {
        guard subscriptionBook?.unclaimedCodes.contains(txn) == true else { return }
        guard let i = subscriptionIndex(ofTransaction: txn), subscriptions[i].user != user else { return }
        let guessed = subscriptions[i].user
        // The guessed account keeps what its other subscriptions give it (the auditor's timeline
        // is one per account).
        var left = SubscriptionNote(
            event: .codePassedOn, user: guessed, productId: subscriptions[i].productId, txn: txn, status: .expired,
            expiresAt: out.now, graceUntil: nil, periodStart: out.now, priceCents: 0)
        if let j = subscriptions.indices.last(where: { $0 != i && subscriptions[$0].user == guessed }) {
            let other = subscriptions[j]
            left.productId = other.productId
            left.status = other.status
            left.expiresAt = other.expiresAt
            left.graceUntil = other.gracePeriodExpiresAt
            left.periodStart = other.periods.last?.start ?? out.now
            left.priceCents = other.periods.last?.priceCents ?? 0
        }
        out.log(.appStore, .subscriptionChanged(left))
        book.subscriptions[i].user = user
        out.log(
            .appStore,
            .noted(
                "the code's subscription \(subscriptions[i].originalTransactionId) is \(user)'s: the app sent it first for \(user)"
            ))
        noteChange(i, .codeClaimed, txn: txn, &out)
    }

    /// The server answered a send of `txn`: the account it was sent for keeps it.
    mutating func settleRedeemedCode(_ txn: String) {
        guard let k = subscriptionBook?.unclaimedCodes.firstIndex(of: txn) else { return }
        book.unclaimedCodes.remove(at: k)
    }
}
