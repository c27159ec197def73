/// An introductory offer of an auto-renewable subscription (App Store Connect's, a
/// `.storekit` file's `introductoryOffer`): a free trial, a reduced price each period (pay as
/// you go), or a reduced price once for a longer span (pay up front). The App Store applies
/// it by itself at the purchase of a customer who is eligible: one new to the subscription
/// group ("Introductory offers are only for new users that have never been subscribed to any
/// of the subscriptions in a given subscription group": Apple, Developer Forums 758078; App
/// Store Connect API, `SubscriptionIntroductoryOffer`: "offered to new subscribers"). When it
/// ends the subscription renews at the regular price.
package struct IntroductoryOffer: Sendable, Hashable {
    /// Apple's `offerDiscountType`.
    package enum PaymentMode: String, Sendable, Hashable, CaseIterable {
        case freeTrial = "FREE_TRIAL"
        case payAsYouGo = "PAY_AS_YOU_GO"
        case payUpFront = "PAY_UP_FRONT"

        /// The word of a `.storekit` file's `paymentMode` (`free`).
        package var storeKitWord: String { names.storeKit }
        /// `free trial`, `pay as you go`, `pay up front`.
        package var words: String { names.words }

        private var names: (storeKit: String, words: String) {
            switch self {
            case .freeTrial: return ("free", "free trial")
            case .payAsYouGo: return ("payAsYouGo", "pay as you go")
            case .payUpFront: return ("payUpFront", "pay up front")
            }
        }
    }

    package var paymentMode: PaymentMode
    /// One period of the offer (`numberOfPeriods` of them make the offer).
    package var period: RenewalPeriod
    /// `numberOfPeriods`: pay as you go charges each; a free trial and pay up front are one
    /// span of all of them.
    package var periodCount: Int
    /// The offer's price: of each period (pay as you go), of the whole span (pay up front),
    /// 0 (free trial).
    package var priceCents: Int
    /// The offer's identifier (`offerIdentifier`): a promotional or win-back offer's offer id
    /// (a `.storekit` file's `offerID`), applied only with the merchant server's signature
    /// (`PromotionalOffer.swift`) or to an eligible lapsed subscriber (`OfferCodes.swift`); an
    /// offer code's reference name; nil for the introductory offer.
    package var promotionalId: String?
    /// Which of Apple's offers it is (`offerType`).
    package var kind: Kind

    /// Apple's `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    package enum Kind: Int, Sendable, Hashable, CaseIterable {
        case introductory = 1
        case promotional = 2
        case code = 3
        case winBack = 4

        /// `introductory offer`, `promotional offer`, `offer code`, `win-back offer`.
        package var words: String {
            switch self {
            case .introductory: return "introductory offer"
            case .promotional: return "promotional offer"
            case .code: return "offer code"
            case .winBack: return "win-back offer"
            }
        }
    }

    package init(
        paymentMode: PaymentMode, period: RenewalPeriod, periodCount: Int = 1, priceCents: Int = 0,
        promotionalId: String? = nil, kind: Kind? = nil
    ) {
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.priceCents = paymentMode == .freeTrial ? 0 : priceCents
        self.promotionalId = promotionalId
        self.kind = kind ?? (promotionalId == nil ? .introductory : .promotional)
    }

    /// `introductory offer`, `promotional offer comeback_half`, `offer code "Welcome back"`.
    package var name: String {
        switch kind {
        case .introductory: return kind.words
        case .code: return "\(kind.words) \"\(promotionalId ?? "")\""
        case .promotional, .winBack: return "\(kind.words) \(promotionalId ?? "")"
        }
    }

    /// How many transactions the offer makes: one a period when paid as you go, else one.
    package var charges: Int { paymentMode == .payAsYouGo ? periodCount : 1 }
    /// What one of those transactions covers.
    package var chargedSpan: RenewalPeriod { paymentMode == .payAsYouGo ? period : period.times(periodCount) }
    /// The whole offer's length (`offerPeriod`).
    package var span: RenewalPeriod { period.times(periodCount) }

    /// `free trial for P3D`, `pay as you go 0.99 for 3 x P1M`, `pay up front 2.99 for P6M`.
    package var summary: String {
        switch paymentMode {
        case .freeTrial: return "\(paymentMode.words) for \(span.iso)"
        case .payAsYouGo: return "\(paymentMode.words) \(formatMoney(priceCents)) for \(periodCount) x \(period.iso)"
        case .payUpFront: return "\(paymentMode.words) \(formatMoney(priceCents)) for \(span.iso)"
        }
    }
}

/// The offer a subscription transaction used (its `offerType`, `offerIdentifier`,
/// `offerDiscountType`, `offerPeriod`): an introductory offer (`offerType` 1), or a
/// promotional one (2), an offer code (3) or a win-back offer (4), with its identifier.
package struct OfferUse: Sendable, Hashable {
    /// Apple's `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    package var type = 1
    /// `offerIdentifier`: a promotional or win-back offer's id, an offer code's reference
    /// name; nil for an introductory offer.
    package var identifier: String?
    package var paymentMode: IntroductoryOffer.PaymentMode
    /// `offerPeriod`: the whole offer's duration (ISO 8601).
    package var period: String
    /// What this transaction was charged at the offer's price (0 for a free trial).
    package var priceCents: Int

    package init(_ offer: IntroductoryOffer) {
        type = offer.kind.rawValue
        identifier = offer.promotionalId
        paymentMode = offer.paymentMode
        period = offer.span.iso
        priceCents = offer.priceCents
    }
}

extension AppStore {
    /// Whether the Apple ID may still get an introductory offer in `group`
    /// (`isEligibleForIntroOffer`): it never subscribed there.
    package func isEligibleForIntroOffer(group: String) -> Bool { subscriptionIndex(group: group) == nil }

    /// The offer a purchase of `terms` gets now: its introductory offer, if the Apple ID is
    /// eligible in its group.
    func introOffer(for terms: SubscriptionTerms) -> IntroductoryOffer? {
        guard let offer = terms.intro, isEligibleForIntroOffer(group: terms.group) else { return nil }
        return offer
    }
}
