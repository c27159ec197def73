/// A price increase of an auto-renewable subscription for its existing subscriber (App Store
/// Connect's "Manage pricing for auto-renewable subscriptions"; StoreKit's *Managing Price
/// Increases for Auto-Renewable Subscriptions*). Apple has two kinds: one that needs the
/// customer's consent, and one that does not (the customer is only told). With consent
/// required the App Store sends `PRICE_INCREASE` / `PENDING`, the renewal info says
/// `priceIncreaseStatus` 0 and `renewalPrice` the new price, and StoreKit shows the app a
/// `Message` with the reason `priceIncreaseConsent`; the customer's consent sends
/// `PRICE_INCREASE` / `ACCEPTED` (status 1); without consent by the renewal date the
/// subscription expires (`EXPIRED` / `PRICE_INCREASE`, `expirationIntent` 3). Without consent
/// required the App Store sends `PRICE_INCREASE` / `ACCEPTED` at once (status 1: "the App
/// Store has notified the customer of an auto-renewable subscription price increase that
/// doesn't require consent"). Either way the next renewal is charged the new price.
package struct PriceIncrease: Sendable, Hashable {
    /// The product whose price rose (the subscription's `autoRenewProductId` then).
    package var productId: String
    /// The new price of a period.
    package var priceCents: Int
    /// Whether the customer must consent before the App Store charges it.
    package var needsConsent: Bool
    /// The customer consented (or the increase needed no consent).
    package var consented: Bool
    /// StoreKit's `Message` (reason `priceIncreaseConsent`) still waits for the app's next
    /// launch: it is delivered to `Message.messages` when the app runs.
    package var messagePending: Bool
    /// The app took the message and deferred it (`messages defer`: it did not call
    /// `display(in:)`; StoreKit 1's `paymentQueueShouldShowPriceConsent` answered false): no
    /// sheet until it shows it (`messages show`).
    package var messageDeferred = false

    package init(productId: String, priceCents: Int, needsConsent: Bool) {
        self.productId = productId
        self.priceCents = priceCents
        self.needsConsent = needsConsent
        consented = !needsConsent
        messagePending = needsConsent
    }

    /// Apple's `priceIncreaseStatus`: 0 the customer has not yet responded, 1 consented or
    /// told of an increase that needs no consent.
    package var status: Int { consented ? 1 : 0 }
    /// The App Store may not charge the new price: the next renewal waits for consent.
    package var blocksRenewal: Bool { !consented }
}

/// A price of a product: what one subscriber pays for it.
package struct ProductPrice: Sendable, Hashable {
    package var productId: String
    package var cents: Int
}

/// A message StoreKit hands the app (`Message`): its reason (`priceIncreaseConsent`) and
/// the product it is about.
package struct StoreKitMessage: Sendable, Hashable {
    package var reason: String
    package var productId: String

    package init(reason: String, productId: String) {
        self.reason = reason
        self.productId = productId
    }
}

extension AppStore {
    /// `price-increase PRODUCT PRICE consent|no-consent`: the price of `product` rises for
    /// the subscriber whose next renewal is of it.
    mutating func raisePrice(
        _ product: String, to cents: Int, consent: Bool, appRunning: Bool, _ out: inout Outbox
    ) {
        guard let i = priceIncreaseTarget(product) else { return }
        var increase = PriceIncrease(productId: product, priceCents: cents, needsConsent: consent)
        let old = catalog.read(product) { $0.priceCents } ?? 0
        out.log(
            .appStore,
            .noted(
                "price of \(product) raised from \(catalog.settings.displayPrice(old)) to \(catalog.settings.displayPrice(cents)) for the subscriber of "
                    + "\(book.subscriptions[i].originalTransactionId): "
                    + (consent
                        ? "the customer must consent before the renewal of \(SubscriptionCalendar.iso(book.subscriptions[i].expiresAt))"
                        : "no consent needed, the customer is told; the next renewal is charged it")))
        if consent && appRunning {
            deliverPriceIncreaseMessage(&increase, &out)
        }
        book.subscriptions[i].priceIncrease = increase
        // New subscribers pay the new price from now on (App Store Connect's new price).
        book.newPrices[product] = cents
        notifySubscription(.priceIncrease, consent ? .pending : .accepted, i, &out)
    }

    /// The live subscription whose next renewal is of `product`, if any.
    func priceIncreaseTarget(_ product: String) -> Int? {
        subscriptions.indices.last {
            let s = subscriptions[$0]
            return s.autoRenewProductId == product && s.status != .expired && s.status != .revoked
        }
    }

    /// `consent`: the customer agrees to the pending price increase (on StoreKit's price
    /// increase sheet, or in Settings): `PRICE_INCREASE` / `ACCEPTED`.
    mutating func consentToPriceIncrease(_ out: inout Outbox) {
        guard let i = pendingConsentIndex, let increase = book.subscriptions[i].priceIncrease else { return }
        book.subscriptions[i].priceIncrease?.consented = true
        book.subscriptions[i].priceIncrease?.messagePending = false
        book.subscriptions[i].priceIncrease?.messageDeferred = false
        out.log(
            .appStore,
            .noted(
                "the customer consented to the price increase of \(increase.productId) to "
                    + "\(formatMoney(increase.priceCents)): the next renewal is charged it"))
        notifySubscription(.priceIncrease, .accepted, i, &out)
    }

    /// The subscription whose price increase waits for the customer's consent, if any.
    var pendingConsentIndex: Int? {
        subscriptions.indices.last {
            subscriptions[$0].priceIncrease?.blocksRenewal == true && subscriptions[$0].status != .expired
                && subscriptions[$0].status != .revoked
        }
    }

    /// At the app's launch StoreKit delivers the messages that waited for it to
    /// `Message.messages`: a price increase's consent message.
    mutating func deliverStoreKitMessages(_ out: inout Outbox) {
        guard let i = pendingConsentIndex, book.subscriptions[i].priceIncrease?.messagePending == true,
            var increase = book.subscriptions[i].priceIncrease
        else { return }
        deliverPriceIncreaseMessage(&increase, &out)
        book.subscriptions[i].priceIncrease = increase
    }

    /// StoreKit hands the app a `Message` (reason `priceIncreaseConsent`), and the app shows
    /// it (`display(in:)`): the customer sees the price increase sheet; or, while the app
    /// defers messages, keeps it unshown.
    private func deliverPriceIncreaseMessage(_ increase: inout PriceIncrease, _ out: inout Outbox) {
        increase.messagePending = false
        increase.messageDeferred = book.defersMessages
        out.log(
            .storeKit,
            .noted(
                "Message.messages: a Message with reason priceIncreaseConsent (\(increase.productId) at "
                    + "\(formatMoney(increase.priceCents))); "
                    + (book.defersMessages
                        ? "the app defers it (no display(in:); StoreKit 1: paymentQueueShouldShowPriceConsent "
                            + "false): no sheet yet"
                        : "the app calls display(in:): the price increase sheet is shown")))
    }

    /// `messages defer|show`: the app defers StoreKit's messages from now on, or shows the
    /// one it deferred (`display(in:)`; StoreKit 1: `showPriceConsentIfNeeded()`) and every
    /// later one as it comes.
    mutating func setDefersMessages(_ on: Bool, _ out: inout Outbox) {
        book.defersMessages = on
        guard !on, let i = pendingConsentIndex, let p = book.subscriptions[i].priceIncrease, p.messageDeferred else {
            return out.log(
                .storeKit,
                .noted(
                    on
                        ? "the app defers StoreKit's messages: it keeps each Message from Message.messages unshown"
                        : "the app shows StoreKit's messages as they come"))
        }
        book.subscriptions[i].priceIncrease?.messageDeferred = false
        out.log(
            .storeKit,
            .noted(
                "the app calls display(in:) on the deferred Message (StoreKit 1: showPriceConsentIfNeeded()): "
                    + "the price increase sheet of \(p.productId) at \(formatMoney(p.priceCents)) is shown"))
    }

    /// A deferred price increase message waits for the app to show it.
    package var messageDeferred: Bool {
        pendingConsentIndex.map { subscriptions[$0].priceIncrease?.messageDeferred == true } ?? false
    }

    /// `messages defer` is in force.
    package var defersMessages: Bool { subscriptionBook?.defersMessages ?? false }

    /// What subscription `s`'s next renewal of `product` is charged: a price increase that
    /// applies to it, the price it pays since an increase, else the catalog's.
    package func renewalPrice(_ s: Subscription, of product: String) -> Int? {
        if let p = s.priceIncrease, p.productId == product { return p.priceCents }
        if let own = s.ownPrice, own.productId == product { return own.cents }
        return catalog.read(product) { $0.priceCents }
    }

    /// The price a new subscriber of `product` pays: the newest price increase's, else the
    /// catalog's.
    func newSubscriberPrice(_ product: String) -> Int? {
        subscriptionBook?.newPrices[product] ?? catalog.read(product) { $0.priceCents }
    }

    /// The StoreKit messages delivered to the app and not yet answered: the consent message
    /// of a price increase the customer has not answered.
    package var deliveredMessages: [StoreKitMessage] {
        guard let i = pendingConsentIndex, let p = subscriptions[i].priceIncrease, !p.messagePending else { return [] }
        return [StoreKitMessage(reason: "priceIncreaseConsent", productId: p.productId)]
    }

    /// The renewal price of subscription `s`'s next renewal when a price increase applies
    /// to it, else nil.
    func increasedRenewalPrice(_ s: Subscription) -> Int? {
        guard let p = s.priceIncrease, p.productId == s.autoRenewProductId else { return nil }
        return p.priceCents
    }
}

/// The price increase commands (docs/world.md, "Price increases"), rows of the vocabulary.
extension CommandSpec {
    static let priceIncrease = CommandSpec(
        "price-increase", usage: "price-increase PRODUCT PRICE consent|no-consent",
        // One that needs consent can end a subscription: "caused by" may name it.
        faultIf: {
            if case .subscription(.priceIncrease(_, _, consent: true)) = $0 { return true }
            return false
        },
        read: { a throws(CommandError) in
            try a.exactly(3)
            let product = try a.subscriptionProduct(0)
            let word = a.words[1]
            guard let cents = parseMoney(word.text), cents > 0 else {
                throw CommandError(
                    offset: word.offset,
                    problem: .badArgument("price-increase", word.text, expected: "a price such as 5.99"))
            }
            let kind = a.words[2]
            guard kind.text == "consent" || kind.text == "no-consent" else {
                throw CommandError(
                    offset: kind.offset,
                    problem: .badArgument("price-increase", kind.text, expected: "consent, no-consent"))
            }
            return .priceIncrease(product: product, cents: cents, consent: kind.text == "consent")
        },
        doc: "StoreKit 2 only: the developer raises the price of the subscription PRODUCT to PRICE for its "
            + "subscriber (App Store Connect). `consent`: the customer must agree (`PRICE_INCREASE` / `PENDING`, "
            + "`priceIncreaseStatus` 0, StoreKit's `Message` with reason `priceIncreaseConsent` at the app's launch); "
            + "without it by the renewal date the subscription expires (`EXPIRED` / `PRICE_INCREASE`). "
            + "`no-consent`: the customer is only told (`PRICE_INCREASE` / `ACCEPTED`). The next renewal is charged "
            + "PRICE")
    static let messages = CommandSpec(
        "messages", usage: "messages defer|show",
        read: { a throws(CommandError) in
            try a.exactly(1)
            let word = a.words[0]
            guard word.text == "defer" || word.text == "show" else {
                throw CommandError(
                    offset: word.offset, problem: .badArgument("messages", word.text, expected: "defer, show"))
            }
            return .subscription(.deferMessages(word.text == "defer"))
        },
        doc: "StoreKit 2 only: `defer`, the app defers StoreKit's messages from now on: it takes a price increase's "
            + "`Message` from `Message.messages` and does not call `display(in:)` (StoreKit 1: "
            + "`paymentQueueShouldShowPriceConsent` answers false), so no sheet is shown; `show`, it shows the one it "
            + "deferred (`display(in:)`, StoreKit 1: `showPriceConsentIfNeeded()`) and every later one as it comes")
    static let consent = CommandSpec(
        "consent", usage: "consent",
        read: { a throws(CommandError) in
            try a.exactly(0)
            return .consentToPriceIncrease
        },
        doc: "StoreKit 2 only: the customer agrees to the pending price increase (on the sheet of StoreKit's "
            + "`Message`, or in Settings): `PRICE_INCREASE` / `ACCEPTED`, `priceIncreaseStatus` 1; the next renewal "
            + "is charged the new price")
}

/// `5.99` -> 599; nil unless a price with at most two decimals.
func parseMoney(_ text: String) -> Int? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0, parts[0].count <= 6 else {
        return nil
    }
    guard parts.count == 2 else { return whole * 100 }
    let fraction = parts[1]
    guard (1...2).contains(fraction.count), fraction.allSatisfy(\.isNumber), let f = Int(fraction) else {
        return nil
    }
    return whole * 100 + (fraction.count == 1 ? f * 10 : f)
}
