/// The subscription commands (docs/world.md, "Subscriptions"). Not on explore's wheel: a
/// new slot would change every seeded schedule; explore adds them to StoreKit 2 schedules
/// from a generator of their own.
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
