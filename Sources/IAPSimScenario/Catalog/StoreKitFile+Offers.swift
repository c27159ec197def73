import IAPSimCore

/// A subscription's offer codes (`codeOffers`) and win-back offers (`winbackOffers`): each an
/// offer's terms (`paymentMode`, `subscriptionPeriod`, `numberOfPeriods`, `displayPrice`)
/// with what names it and who may have it.
extension StoreKitFile {
    /// `codeOffers`: each named by its `referenceName` (the transaction's `offerIdentifier`,
    /// and the custom code's letters), for the customers its `eligibility` lists (`new`,
    /// `existing`, `expired`; all three when absent).
    mutating func codeOffers(_ item: JSONNode, _ id: String) throws(ScenarioError) -> [OfferCode] {
        var codes: [OfferCode] = []
        for node in try items(item["codeOffers"], key: "codeOffers", limit: 100) {
            guard case .object = node.value else {
                throw fail(node, "an offer code of \"\(id)\" must be an object, not \(node.kind)")
            }
            let nameNode = node["referenceName"]
            guard let name = try string(node, "referenceName"), !OfferCode.customCode(of: name).isEmpty else {
                throw fail(
                    nameNode ?? node,
                    "an offer code of \"\(id)\" has referenceName \(nameNode.map(describe) ?? "missing"); it must be a"
                        + " string with a letter or digit (the offer's name in App Store Connect; its custom code is"
                        + " those letters and digits in capitals)")
            }
            let shown = VisibleText.escaped(name)
            var offer = try introductoryOffer(node, id, kind: "offer code \"\(shown)\"")
            offer.promotionalId = shown
            offer.kind = .code
            var code = OfferCode(offer: offer)
            if let who = node["eligibility"] {
                let words = try eligibility(who, id, shown)
                code.forNew = words.contains("new")
                code.forExisting = words.contains("existing")
                code.forExpired = words.contains("expired")
            }
            guard !codes.contains(where: { $0.customCode == code.customCode }) else {
                throw fail(
                    nameNode ?? node,
                    "\"\(id)\" has two offer codes whose custom code is \(code.customCode); give each its own referenceName"
                )
            }
            codes.append(code)
            listed.append(
                "\(id): offer code \"\(shown)\" (\(offer.summary); custom code \(code.customCode), one-time codes"
                    + " \(code.customCode)-N; for \(code.eligibilityWords))")
        }
        return codes
    }

    /// An offer code's `eligibility`: a non-empty array of `new`, `existing`, `expired`.
    func eligibility(_ node: JSONNode, _ id: String, _ name: String) throws(ScenarioError) -> [String] {
        let accepted = ["new", "existing", "expired"]
        let problem =
            "the offer code \"\(name)\" of \"\(id)\" has eligibility \(describe(node)); it must be a non-empty array of "
            + accepted.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .array(let items) = node.value, !items.isEmpty else { throw fail(node, problem) }
        var words: [String] = []
        for item in items {
            guard case .string(let w) = item.value, accepted.contains(w) else { throw fail(item, problem) }
            words.append(w)
        }
        return words
    }

    /// `winbackOffers`: each with its `offerID` (unique within the subscription) and App Store
    /// Connect's rules, all optional: `customerEligibilityPaidSubscriptionDurationInMonths`
    /// (0), `customerEligibilityTimeSinceLastSubscribedInMonths` (`{"minimum": 0,
    /// "maximum": 24}`), `customerEligibilityWaitBetweenOffersInMonths` (absent: once).
    mutating func winBackOffers(_ item: JSONNode, _ id: String) throws(ScenarioError) -> [WinBackOffer] {
        var offers: [WinBackOffer] = []
        for node in try items(item["winbackOffers"], key: "winbackOffers", limit: 100) {
            let terms = try identifiedOffer(node, id, kind: .winBack, taken: offers.map(\.id))
            let shown = terms.promotionalId ?? ""
            var offer = WinBackOffer(offer: terms)
            let what = "win-back offer \"\(shown)\" of \"\(id)\""
            offer.paidMonths = try months(node, "customerEligibilityPaidSubscriptionDurationInMonths", what) ?? 0
            if let range = node["customerEligibilityTimeSinceLastSubscribedInMonths"] {
                let key = "customerEligibilityTimeSinceLastSubscribedInMonths"
                guard case .object = range.value else {
                    throw fail(
                        range, "the \(what) has \(key) \(describe(range)); an object {\"minimum\": N, \"maximum\": N}")
                }
                offer.sinceMinMonths = try months(range, "minimum", what) ?? 0
                offer.sinceMaxMonths = try months(range, "maximum", what) ?? 24
                guard offer.sinceMinMonths <= offer.sinceMaxMonths else {
                    throw fail(range, "the \(what) has a \(key) minimum above its maximum")
                }
            }
            offer.waitMonths = try months(node, "customerEligibilityWaitBetweenOffersInMonths", what)
            offers.append(offer)
            listed.append(
                "\(id): win-back offer \(shown) (\(terms.summary); \(offer.paidMonths)+ months paid, lapsed"
                    + " \(offer.sinceMinMonths)-\(offer.sinceMaxMonths) months ago"
                    + (offer.waitMonths.map { ", again after \($0) months" } ?? ", once") + ")")
        }
        return offers
    }

    /// A whole number of months from 0 to 120, if the member is there.
    func months(_ node: JSONNode, _ key: String, _ what: String) throws(ScenarioError) -> Int? {
        guard let value = node[key] else { return nil }
        guard case .number(let text) = value.value, let n = Int(text), (0...120).contains(n) else {
            throw fail(value, "the \(what) has \(key) \(describe(value)); a whole number of months from 0 to 120")
        }
        return n
    }
}
