import IAPSimCore

extension StoreKitFile {
    /// `subscriptionGroups`: each group's auto-renewable subscriptions, in file order.
    mutating func groups(_ node: JSONNode?) throws(ScenarioError) -> [Product] {
        var products: [Product] = []
        let all = try items(node, key: "subscriptionGroups", limit: Self.maxGroups)
        var groupIds: [String] = []
        for group in all {
            guard case .object = group.value else {
                throw fail(group, "each of \"subscriptionGroups\" must be an object (a group), not \(group.kind)")
            }
            guard let id = try string(group, "id"), !id.isEmpty else {
                throw fail(
                    group["id"] ?? group, "a subscription group without \"id\"; every group needs one (a string)")
            }
            groupIds.append(id)
            if let name = try string(group, "name"), !name.isEmpty { groupNames[id] = VisibleText.escaped(name) }
        }
        for (group, id) in zip(all, groupIds) {
            for item in try items(group["subscriptions"], key: "subscriptions", limit: Self.maxProducts) {
                products.append(try subscription(item, group: id, groups: groupIds))
            }
        }
        return products
    }

    mutating func subscription(_ item: JSONNode, group: String, groups: [String]) throws(ScenarioError) -> Product {
        guard case .object = item.value else {
            throw fail(item, "each of \"subscriptions\" must be an object (a subscription), not \(item.kind)")
        }
        let typeNode = item["type"]
        guard let type = try string(item, "type"), type == "RecurringSubscription" else {
            throw fail(
                typeNode ?? item,
                "a subscription with type \(typeNode.map(describe) ?? "missing"); accepted: \"RecurringSubscription\"")
        }
        let id = try productId(item)
        let named = try string(item, "subscriptionGroupID")
        guard let named, groups.contains(named) else {
            let known = groups.map { "\"\($0)\"" }.joined(separator: ", ")
            throw fail(
                item["subscriptionGroupID"] ?? item,
                "the subscription \"\(id)\" names the group \(named.map { "\"\($0)\"" } ?? "(none)"), which the file does not have; its \"subscriptionGroupID\" must be the \"id\" of a group of \"subscriptionGroups\" (\(known))"
            )
        }
        var terms = SubscriptionTerms(group: named, level: try level(item, id), period: try period(item, id))
        terms.intro = try offers(item, id)
        terms.promotional = try promotionalOffers(item, id)
        terms.codes = try codeOffers(item, id)
        terms.winBack = try winBackOffers(item, id)
        // Family Sharing of a subscription is modelled (Subscriptions/FamilySharing.swift).
        return Product(
            id: id, kind: .autoRenewable, priceCents: try price(item, id), coins: 0, title: try title(item, id),
            subscription: terms, familyShareable: try bool(item, "familyShareable"))
    }

    func level(_ item: JSONNode, _ id: String) throws(ScenarioError) -> Int {
        guard let node = item["groupNumber"] else {
            throw fail(item, "the subscription \"\(id)\" has no \"groupNumber\" (its level: 1 is the highest)")
        }
        guard case .number(let text) = node.value, let n = Int(text), (1...Self.maxProducts).contains(n) else {
            throw fail(
                node,
                "the level of \"\(id)\" is \(describe(node)); \"groupNumber\" is a whole number from 1 (the highest) up"
            )
        }
        return n
    }

    func period(_ item: JSONNode, _ id: String) throws(ScenarioError) -> RenewalPeriod {
        let accepted = "accepted: " + RenewalPeriod.accepted.joined(separator: ", ")
        guard let node = item["recurringSubscriptionPeriod"] else {
            throw fail(item, "the subscription \"\(id)\" has no \"recurringSubscriptionPeriod\"; \(accepted)")
        }
        guard case .string(let text) = node.value, let period = RenewalPeriod(iso: text) else {
            throw fail(node, "the period of \"\(id)\" is \(describe(node)); \(accepted)")
        }
        return period
    }

    /// Offers: the introductory offer is applied (`introductoryOffer`, or the first of an
    /// older file's `introductoryOffers`), the promotional ones with a signature
    /// (`promotionalOffers`), offer codes and win-back offers as `StoreKitFile+Offers.swift`
    /// reads them; billing plans are listed, not applied.
    mutating func offers(_ item: JSONNode, _ id: String) throws(ScenarioError) -> IntroductoryOffer? {
        var intro: [JSONNode] = []
        if let one = item["introductoryOffer"], case .object = one.value { intro.append(one) }
        intro += try items(item["introductoryOffers"], key: "introductoryOffers", limit: 100)
        let applied = try intro.first.map { node throws(ScenarioError) in try introductoryOffer(node, id) }
        let plans = try items(item["billingPlans"], key: "billingPlans", limit: 100)
        if !plans.isEmpty {
            listed.append("\(id): \(plans.count) billing plan\(plans.count == 1 ? "" : "s")")
            if !notModelled.contains("billing plans") { notModelled.append("billing plans") }
        }
        return applied
    }

    /// `adHocOffers`: the promotional offers, each an offer's terms with its `offerID`
    /// (unique within the subscription).
    mutating func promotionalOffers(_ item: JSONNode, _ id: String) throws(ScenarioError) -> [IntroductoryOffer] {
        var offers: [IntroductoryOffer] = []
        for node in try items(item["adHocOffers"], key: "adHocOffers", limit: 100) {
            let offer = try identifiedOffer(node, id, kind: .promotional, taken: offers.compactMap(\.promotionalId))
            offers.append(offer)
            listed.append("\(id): promotional offer \(offer.promotionalId ?? "") (\(offer.summary))")
        }
        return offers
    }

    /// One offer with its `offerID` (a promotional or win-back offer; not one of `taken`): its
    /// terms, its kind and its id.
    func identifiedOffer(
        _ node: JSONNode, _ id: String, kind: IntroductoryOffer.Kind, taken: [String]
    ) throws(ScenarioError) -> IntroductoryOffer {
        let name = kind.words
        guard case .object = node.value else {
            throw fail(node, "a \(name) of \"\(id)\" must be an object, not \(node.kind)")
        }
        let idNode = node["offerID"]
        guard let offerId = try string(node, "offerID"), !offerId.isEmpty else {
            throw fail(
                idNode ?? node,
                "a \(name) of \"\(id)\" has offerID \(idNode.map(describe) ?? "missing");"
                    + " it must be a non-empty string (the offer's identifier in App Store Connect)")
        }
        let shown = VisibleText.escaped(offerId)
        guard !taken.contains(shown) else {
            throw fail(
                idNode ?? node, "\"\(id)\" has two \(name)s with offerID \"\(shown)\"; each needs its own identifier")
        }
        var offer = try introductoryOffer(node, id, kind: "\(name) \"\(shown)\"")
        offer.promotionalId = shown
        offer.kind = kind
        return offer
    }

    /// One offer's terms (the introductory offer's, or a promotional offer's): `paymentMode`
    /// (`free`, `payAsYouGo`, `payUpFront`), `subscriptionPeriod`, `numberOfPeriods`, and
    /// `displayPrice` unless free.
    func introductoryOffer(
        _ offer: JSONNode, _ id: String, kind: String = "introductory offer"
    ) throws(ScenarioError) -> IntroductoryOffer {
        guard case .object = offer.value else {
            throw fail(offer, "the \(kind) of \"\(id)\" must be an object, not \(offer.kind)")
        }
        let modes = IntroductoryOffer.PaymentMode.allCases
        let modeNode = offer["paymentMode"]
        guard let word = try string(offer, "paymentMode"), let mode = modes.first(where: { $0.storeKitWord == word })
        else {
            throw fail(
                modeNode ?? offer,
                "the \(kind) of \"\(id)\" has paymentMode \(modeNode.map(describe) ?? "missing"); accepted: "
                    + modes.map { "\"\($0.storeKitWord)\"" }.joined(separator: ", "))
        }
        let accepted = "accepted: " + RenewalPeriod.offerAccepted.joined(separator: ", ")
        let periodNode = offer["subscriptionPeriod"]
        guard let text = try string(offer, "subscriptionPeriod"), let period = RenewalPeriod(offerISO: text) else {
            throw fail(
                periodNode ?? offer,
                "the \(kind) of \"\(id)\" has subscriptionPeriod \(periodNode.map(describe) ?? "missing"); \(accepted)"
            )
        }
        var count = 1
        if let node = offer["numberOfPeriods"] {
            guard case .number(let n) = node.value, let k = Int(n), (1...Self.maxOfferPeriods).contains(k) else {
                throw fail(
                    node,
                    "the \(kind) of \"\(id)\" has numberOfPeriods \(describe(node)); a whole number from 1 to \(Self.maxOfferPeriods)"
                )
            }
            count = k
        }
        let cents = mode == .freeTrial ? 0 : try price(offer, "\(id)'s \(kind)")
        return IntroductoryOffer(paymentMode: mode, period: period, periodCount: count, priceCents: cents)
    }

    /// The most periods an introductory offer may have (a year of weekly ones).
    static let maxOfferPeriods = 52
}
