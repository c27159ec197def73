/// What happened to a subscription at the App Store.
package enum SubscriptionEvent: String, Sendable, Hashable {
    case started = "subscribed"
    case resubscribed
    case renewed
    case recovered = "recovered from billing retry"
    case renewalFailed = "failed to renew"
    case graceExpired = "grace period expired"
    case expired
    case revoked
    case reinstated = "reinstated (refund reversed)"
    case autoRenewOff = "auto-renew turned off"
    case autoRenewOn = "auto-renew turned on"
    case upgraded
    case planChangeScheduled = "plan change set for the next renewal"
    /// Family Sharing (FamilySharing.swift): the purchaser's subscription reaches the family
    /// member (a `FAMILY_SHARED` transaction), or stops reaching them (`REVOKE`).
    case familyShared = "shared with the family member"
    case familyRevoked = "no longer shared (REVOKE)"
    /// An active subscriber redeemed an offer code: the next renewal is at the offer.
    case codeRedeemed = "offer code redeemed for the next renewal"
    /// A code redeemed outside the app, first sent by the app for this account: its subscriber.
    case codeClaimed = "claimed: the app sent the redeemed code's transaction first for this account"
    /// The account the App Store first guessed for such a code, when another claimed it.
    case codePassedOn = "passed on: the redeemed code's transaction went to another account"

    /// The scenario event it is, if any.
    var trigger: TriggerEvent? {
        switch self {
        case .started, .resubscribed, .upgraded: return .charged
        case .renewed, .recovered: return .renewed
        case .renewalFailed: return .renewalFailed
        case .expired: return .expired
        case .graceExpired, .revoked, .reinstated, .autoRenewOff, .autoRenewOn, .planChangeScheduled, .familyShared,
            .familyRevoked, .codeRedeemed, .codeClaimed, .codePassedOn:
            return nil
        }
    }
}

/// The payload of `Fact.subscriptionChanged`: the event, the subscriber, and the
/// subscription after it (what the auditor's entitlement timeline reads).
package struct SubscriptionNote: Sendable, Hashable {
    package var event: SubscriptionEvent
    package var user: String
    package var productId: String
    /// The transaction the event made or concerns (a renewal's, a refunded one).
    package var txn: String?
    package var status: SubscriptionStatus
    package var expiresAt: VirtualTime
    package var graceUntil: VirtualTime?
    /// The current period's start and price: the rate of a day of it.
    package var periodStart: VirtualTime
    package var priceCents: Int
    /// The promotional offer the event's transaction used (`offerIdentifier`), if any.
    package var promotionalOffer: String? = nil
    /// The product's full price, beside `priceCents` when an offer made it less.
    package var regularCents: Int = 0
}

extension Fact {
    /// The lines of the subscriptions' facts.
    var subscriptionText: String {
        switch self {
        case .subscriptionChanged(let n):
            let txn = n.txn.map { " (\($0))" } ?? ""
            let price =
                n.event.trigger == .charged || n.event.trigger == .renewed ? ", \(formatMoney(n.priceCents))" : ""
            var line =
                "\(n.productId) of \(n.user) \(n.event.rawValue)\(txn)\(price): status \(n.status.rawValue) \(n.status.word)"
            switch n.status {
            case .active: line += ", expires \(SubscriptionCalendar.iso(n.expiresAt))"
            case .grace: line += ", grace until \(n.graceUntil.map(SubscriptionCalendar.iso) ?? "?")"
            case .billingRetry: line += ", in billing retry"
            case .expired, .revoked: break
            }
            return line
        case .accessChanged(let user, _, let until, let why):
            guard let until else { return "access of \(user): none (\(why))" }
            return "access of \(user) until \(SubscriptionCalendar.iso(until)) (\(why))"
        default: return text
        }
    }
}

extension SubscriptionNote: CustomStringConvertible {
    /// The note as the `--log` export's `value` writes it: the fields a note always had, then
    /// the promotional offer only when there is one (so that a log without offers reads as
    /// before).
    package var description: String {
        var text =
            "SubscriptionNote(event: \(String(reflecting: event)), user: \(String(reflecting: user)), "
            + "productId: \(String(reflecting: productId)), txn: \(String(reflecting: txn)), "
            + "status: \(String(reflecting: status)), expiresAt: \(expiresAt), "
            + "graceUntil: \(String(reflecting: graceUntil)), periodStart: \(periodStart), priceCents: \(priceCents)"
        if let promotionalOffer {
            text += ", promotionalOffer: \(String(reflecting: promotionalOffer)), regularCents: \(regularCents)"
        }
        return text + ")"
    }
}
