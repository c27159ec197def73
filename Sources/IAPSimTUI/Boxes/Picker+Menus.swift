import IAPSimCore
import IAPSimScenario

// The pickers the main screen's keys open (`b`, `c`, `a`, `d`, `f`, `v`): each a list of
// entries built from the world's data; the server side's (`m`) is `ServerSideMenu`, the
// subscriptions' (`C`) `SubscriptionMenu`.
extension Picker {
    /// What `b` offers: the products, and in the StoreKit 2 world the auto-renewable
    /// subscriptions (sold there only) with their periods; prices as the storefront writes
    /// them, a group by the file's `name` for it (its id when it has none).
    static func buy(_ catalog: Catalog, groupNames: [String: String] = [:], in world: StoreKitWorld) -> Picker {
        let subscriptions = world == .two ? catalog.subscriptions : []
        return Picker(
            title: "Buy",
            items: (catalog.products + subscriptions).map { p -> [PickerItem] in
                let what: String
                switch p.kind {
                case .consumable: what = "\(p.coins) \(catalog.unit(of: p.id))"
                case .autoRenewable:
                    what =
                        "subscription"
                        + (p.subscription.map { ", group \(groupNames[$0.group] ?? $0.group), level \($0.level)" } ?? "")
                        + (p.subscription?.intro.map { ", first \($0.summary) if eligible" } ?? "")
                case .nonConsumable, .nonRenewing: what = "entitlement, \(p.kind.rawValue)"
                }
                let aligned = Self.priceColumn(catalog.settings.displayPrice(p.priceCents))
                // Each promotional offer is a row of its own, under its product (the server signs it).
                let offers = (p.subscription?.promotional ?? []).compactMap { o in
                    o.promotionalId.map { id in
                        PickerItem(
                            "\(p.id) offer \(id)",
                            "\(Self.priceColumn(catalog.settings.displayPrice(o.priceCents)))  promotional offer, "
                                + "\(o.paymentMode.words), \(o.periodCount) x \(o.period.iso), if the server signs it",
                            .run(.subscription(.buyOffer(product: p.id, offer: id))))
                    }
                }
                // Each win-back offer too (the App Store applies it to a lapsed subscriber its rules allow).
                let winBack = (p.subscription?.winBack ?? []).map { w in
                    PickerItem(
                        "\(p.id) offer \(w.id)",
                        "\(Self.priceColumn(catalog.settings.displayPrice(w.offer.priceCents)))  win-back offer, "
                            + "\(w.offer.paymentMode.words), \(w.offer.periodCount) x \(w.offer.period.iso), if lapsed",
                        .run(.subscription(.buyOffer(product: p.id, offer: w.id))))
                }
                return [PickerItem(p.id, "\(aligned)  \(what)", .run(.buy(product: p.id)))] + offers + winBack
            }.flatMap { $0 })
    }

    /// A price right-aligned in the picker's price column.
    static func priceColumn(_ price: String) -> String {
        String(repeating: " ", count: max(0, 7 - TextWidth.of(price))) + price
    }

    /// When to crash; the callbacks are named as the run's world has them.
    static func crash(_ world: StoreKitWorld) -> Picker {
        let sk2 = world == .two
        return Picker(
            title: "Crash the app",
            items: [
                PickerItem("now", "the process dies at once", .run(.crash)),
                PickerItem(
                    "when charged",
                    sk2
                        ? "after the charge, before purchase() returns"
                        : "right after the App Store charges, before the callback", .arm(.charged, .crash)),
                PickerItem(
                    "when delivered",
                    sk2
                        ? "as purchase() or Transaction.updates hands it on"
                        : "as paymentQueue(_:updatedTransactions:) gets it", .arm(.delivered, .crash)),
                PickerItem(
                    "when request recharge", "right after POST /recharge is sent",
                    .arm(.requestRecharge, .crash)),
                PickerItem(
                    "when credited", "after the server credits, before the answer",
                    .arm(.credited, .crash)),
            ])
    }

    static func account(users: [String], loggedIn: String?) -> Picker {
        var items = users.map { u in
            PickerItem(u, u == loggedIn ? "logged in now" : "log in as \(u)", .run(.login(user: u)))
        }
        items.append(
            PickerItem(
                "log out", loggedIn.map { "end \($0)'s session" } ?? "nobody is logged in",
                .run(.logout)))
        return Picker(
            title: "Account", items: items,
            selected: loggedIn.flatMap { users.firstIndex(of: $0) } ?? 0)
    }

    /// The routes of the run's world only: StoreKit 2 has no `verify` to drop.
    static func drop(_ world: StoreKitWorld) -> Picker {
        var items: [PickerItem] = []
        for route in Route.routes(in: world) {
            let receiver = receiver(of: route)
            items.append(
                PickerItem(
                    "\(route.rawValue) request", "lost on the way; \(receiver) never sees it",
                    .run(.dropNextRequest(route))))
            items.append(
                PickerItem(
                    "\(route.rawValue) response", "\(receiver) acts; the answer is lost",
                    .run(.dropNextResponse(route))))
        }
        return Picker(title: "Drop next", items: items)
    }

    /// Who receives a route's requests: `verify` goes to the App Store, not the server.
    static func receiver(of route: Route) -> String {
        switch route {
        case .order, .recharge, .notify: "the merchant server"
        case .verify: "the App Store"
        case .serverAPI: "the App Store Server API"
        }
    }

    /// How the next payment fails, as each world names it. StoreKit 2 keeps no failed
    /// transaction, so "left unfinished" has nothing to act on there and is not offered.
    static func fail(_ world: StoreKitWorld) -> Picker {
        guard world == .two else {
            return Picker(
                title: "Fail next payment",
                items: failures.map {
                    PickerItem($0.rawValue, $0.skError, .run(.failNextPayment($0)))
                } + [
                    PickerItem(
                        "unfinished", "fails; the app's failure branch skips finishTransaction",
                        .run(.failNextPaymentUnfinished)),
                    PickerItem(
                        "interrupted", "failed now, a separate purchased one 30s later",
                        .run(.interruptNextPayment)),
                    PickerItem(
                        PaymentFailure.unknown.rawValue, PaymentFailure.unknown.skError,
                        .run(.failNextPayment(.unknown))),
                ])
        }
        return Picker(
            title: "Fail next purchase()",
            items: failures.map {
                PickerItem(
                    $0.rawValue,
                    $0 == .cancelled ? "purchase() returns .userCancelled" : "purchase() throws \($0.storeKit2Error)",
                    .run(.failNextPayment($0)))
            } + [
                PickerItem(
                    "interrupted", ".userCancelled; charged 30s later on Transaction.updates",
                    .run(.interruptNextPayment)),
                PickerItem(
                    PaymentFailure.unknown.rawValue, "purchase() throws \(PaymentFailure.unknown.storeKit2Error)",
                    .run(.failNextPayment(.unknown))),
            ])
    }

    /// The failures offered before "unfinished" and "interrupted", whose numbers stay as they
    /// were; `unknown` (what a file's `_failTransactionsEnabled` fails with) comes last.
    private static let failures = PaymentFailure.allCases.filter { $0 != .unknown }

    /// The App Store's answer to the next receipt verification (`store-status CODE`).
    static let storeStatus = Picker(
        title: "Next verifyReceipt status",
        items: [0, 21_002, 21_003, 21_005, 21_007, 21_009, 21_010, 21_100, 21_000, 21_004, 21_006, 21_008].map { code in
            PickerItem("\(code)", VerifyStatus.words(code), .run(.storeStatus(code)))
        })
}
