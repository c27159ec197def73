import IAPSimCore
import IAPSimScenario

/// The subscription picker (`C`): one row per subscription command, built from the world as
/// it is now; a row the world would refuse is greyed with its reason. Each row runs the
/// command a scenario step runs (`Command.subscription`), so the session saves it as a step.
enum SubscriptionMenu {
    struct Row: Sendable {
        var label: String
        var detail: String
        /// nil: no subscription yet.
        var command: Command?
        /// The letter that picks it when it is past the tenth row (the digits' reach).
        var key: Character? = nil
    }

    static func commands(for model: UIModel) -> [Row] {
        let live = model.simulation.subscribers.last { $0.status != .expired && $0.status != .revoked }
        let store = model.simulation.store
        let catalog = model.simulation.config.catalog
        let billing = store.billingFails
        var rows: [Row] = [
            Row(
                label: billing ? "billing recovers" : "billing fails",
                detail: "the customer's payment method fails at every renewal / works again",
                command: .billingFail(on: !billing)),
            Row(
                label: live?.subscription.autoRenew == false ? "auto-renew on" : "auto-renew off",
                detail: "the customer's choice in Settings",
                command: .autoRenew(on: live?.subscription.autoRenew == false)),
        ]
        for product in catalog.subscriptions.map(\.id) {
            rows.append(
                Row(
                    label: "change plan to \(product)", detail: "upgrade at once, downgrade or crossgrade at renewal",
                    command: .changePlan(product: product)))
        }
        let newest = live?.subscription.periods.last?.transactionId
        rows.append(
            Row(
                label: "refund the current period", detail: "Apple refunds its newest transaction (REFUND)",
                command: newest.map { .refund(txn: $0) }))
        rows.append(
            Row(
                label: "delay next notification 2d", detail: "the next notification V2 leaves two days late",
                command: .delayNextNotification(2 * 86_400_000)))
        // After the rows above, so that they keep their numbers.
        let grace = store.gracePeriodMs
        rows.append(
            grace == nil
                ? Row(
                    label: "grace period 16d",
                    detail: "App Store Connect: a renewal that fails keeps access 16 days (weekly: 6)",
                    command: .gracePeriod(CatalogOptions.fileGracePeriodMs))
                : Row(
                    label: "grace period off",
                    detail: "App Store Connect: a renewal that fails goes to billing retry at once",
                    command: .gracePeriod(nil)))
        if !catalog.subscriptions.isEmpty { rows += priceIncreaseRows(live, store, catalog.settings) }
        if catalog.subscriptions.contains(where: \.familyShareable) { rows += familyRows(model) }
        rows += codeRows(catalog)
        return rows
    }

    /// A price increase of the product the live subscription renews to (a dollar over what it
    /// renews at), with and without the customer's consent; the consent; StoreKit's messages.
    static func priceIncreaseRows(_ live: SubscriberView?, _ store: AppStore, _ settings: CatalogSettings) -> [Row] {
        let product = live?.subscription.autoRenewProductId
        let cents = live.flatMap { store.renewalPrice($0.subscription, of: $0.subscription.autoRenewProductId) }
        let raise = product.flatMap { p in cents.map { (product: p, cents: $0 + 100) } }
        let to = raise.map { settings.displayPrice($0.cents) } ?? "a dollar more"
        let defers = store.defersMessages
        return [
            Row(
                label: "price increase (consent)",
                detail: "\(to) at the next renewal, if agreed",
                command: raise.map { .priceIncrease(product: $0.product, cents: $0.cents, consent: true) }, key: "i"),
            Row(
                label: "price increase (notify)",
                detail: "\(to) at the next renewal, no consent",
                command: raise.map { .priceIncrease(product: $0.product, cents: $0.cents, consent: false) }, key: "n"),
            Row(
                label: "customer consents",
                detail: "agrees on StoreKit's sheet or in Settings (PRICE_INCREASE ACCEPTED)",
                command: .consentToPriceIncrease, key: "a"),
            Row(
                label: defers ? "show messages" : "defer messages",
                detail: defers
                    ? "the app calls display(in:) on the deferred Message and shows the later ones"
                    : "the app keeps StoreKit's Message unshown (no display(in:))",
                command: .subscription(.deferMessages(!defers)), key: "m"),
        ]
    }

    /// Family Sharing: a family member joins or leaves, the purchaser's switch in Settings.
    static func familyRows(_ model: UIModel) -> [Row] {
        let store = model.simulation.store
        let member = store.familyMember
        let users = model.simulation.config.users
        // The member's own account: a name none of this device's accounts has.
        let name =
            (["kid"] + (2...9).map { "kid\($0)" }).first { !users.contains($0) } ?? "kid"
        let sharing = store.familySharing
        return [
            member.map {
                Row(
                    label: "family member leaves",
                    detail: "\($0) leaves: REVOKE of their FAMILY_SHARED transaction",
                    command: .leaveFamily, key: "f")
            }
                ?? Row(
                    label: "family member joins",
                    detail: "\(name), with an Apple ID of their own, joins the family",
                    command: .joinFamily(name), key: "f"),
            Row(
                label: sharing ? "family sharing off" : "family sharing on",
                detail: sharing
                    ? "the purchaser stops sharing: REVOKE of the member's transaction"
                    : "the purchaser shares again: a new FAMILY_SHARED transaction",
                command: .familyShare(on: !sharing), key: "s"),
        ]
    }

    /// One row per offer code (its custom code), redeemed in the App Store.
    static func codeRows(_ catalog: Catalog) -> [Row] {
        let letters = Array("rtuvwxyz")
        var rows: [Row] = []
        for product in catalog.subscriptions {
            for code in product.subscription?.codes ?? [] {
                rows.append(
                    Row(
                        label: "redeem code \(code.customCode)",
                        detail: "\(code.offer.summary) of \(product.id), for \(code.eligibilityWords)",
                        command: .subscription(.redeemCode(code.customCode)),
                        key: rows.count < letters.count ? letters[rows.count] : nil))
            }
        }
        return rows
    }

    static func picker(for model: UIModel) -> Picker {
        // A row that needs a live subscription: none yet, or the last one ended (walkthrough
        // 7: "no subscription yet" after three months of one, refunded).
        let ended = model.simulation.subscribers.last.map { "no live subscription: the last one is \($0.status.word)" }
        return Picker(
            title: "Subscription",
            items: commands(for: model).enumerated().map { index, row in
                var item: PickerItem
                if let command = row.command {
                    item = PickerItem(row.label, row.detail + " (\(command.scenarioText))", .run(command))
                } else {
                    item = PickerItem(row.label, row.detail, .run(.wait(0)))
                    item.refused = ended ?? "no subscription yet"
                }
                // The first ten keep their digits.
                item.key = index >= 10 ? row.key : nil
                return item
            })
    }
}
