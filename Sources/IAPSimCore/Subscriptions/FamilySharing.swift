/// Family Sharing of auto-renewable subscriptions (docs/world.md, "Family Sharing"): a
/// family member, with an Apple ID and a device of their own, gets their own transaction of
/// each period the purchaser's `familyShareable` subscription pays for, with
/// `inAppOwnershipType` `FAMILY_SHARED`, their own `transactionId` and
/// `originalTransactionId` and no `appAccountToken` (Apple, *Supporting Family Sharing in
/// your app*: "each family member gets their own unique receipts and transactions"). Sharing
/// ends with `REVOKE` when the purchaser stops sharing, leaves the family (or the member
/// does), or is refunded (Apple's `REVOKE`; `revocationReason` 0 for the first two, the
/// purchaser's for a refund: 0 in the simulator).
///
/// The member's device is not simulated as an app process: StoreKit hands each of the
/// member's transactions to `Transaction.updates` there, and the member's app reports it to
/// the merchant server for the member's account at once, untouched by faults.
struct FamilyBook: Sendable, Hashable {
    /// The family member's app account, while they are in the purchaser's family.
    var member: String?
    /// The purchaser shares their subscriptions with the family (`family-share on|off`).
    var sharing = true
    /// Every share, oldest first: one per run of sharing of one subscription.
    var shares: [FamilyShare] = []
    /// The member's transactions, oldest first (their own Apple ID's: never in the purchaser's
    /// queue, history or entitlements).
    var transactions: [MemberTransaction] = []
}

/// One subscription of the purchaser shared with the member, from its first shared period
/// until `REVOKE` (or the member's last period's end).
struct FamilyShare: Sendable, Hashable {
    var member: String
    /// The purchaser's subscription (its `originalTransactionId`).
    var purchaserOriginal: String
    /// The member's `originalTransactionId`: their first transaction of the share.
    var originalTransactionId: String
    var latestTransactionId: String
    var revoked = false
}

/// A family member's transaction: one period of the purchaser's subscription, nothing paid.
struct MemberTransaction: Sendable, Hashable {
    var id: String
    var productId: String
    var member: String
    var createdAt: VirtualTime
    var originalId: String
    var originalCreatedAt: VirtualTime
    var subscription: SubscriptionFields
    var revokedAt: VirtualTime?
}

extension AppStore {
    /// The family member's `appTransactionId`: unique per family member (Apple, `appTransactionId`).
    static let memberAppTransactionId = "705000000000000002"

    var family: FamilyBook {
        get { familyBook ?? FamilyBook() }
        _modify {
            var f = familyBook ?? FamilyBook()
            familyBook = nil
            defer { familyBook = f }
            yield &f
        }
    }

    /// The family member, while one is in the family.
    package var familyMember: String? { familyBook?.member }
    /// Whether the purchaser shares their subscriptions (`family-share on|off`).
    package var familySharing: Bool { familyBook?.sharing ?? true }

    /// The share of subscription `i` that still reaches the member, if any.
    func liveShare(of i: Int) -> Int? {
        guard let f = familyBook, i < subscriptions.count else { return nil }
        let original = subscriptions[i].originalTransactionId
        return f.shares.lastIndex { $0.purchaserOriginal == original && !$0.revoked }
    }

    /// Whether subscription `i` is shared now: a family member, sharing on, a shareable
    /// product, a status that entitles.
    func sharesNow(_ i: Int) -> Bool {
        guard let f = familyBook, f.member != nil, f.sharing else { return false }
        let s = subscriptions[i]
        return s.status.entitled && (catalog.read(s.productId) { $0.familyShareable } ?? false)
    }

    /// After subscription `i`'s change (`noteChange`): the member's side of it. A new period
    /// gives the member a new transaction; a refund of the current period revokes the share;
    /// any other change is the member's status too.
    mutating func noteFamilyChange(_ i: Int, _ event: SubscriptionEvent, _ out: inout Outbox) {
        guard familyBook != nil else { return }
        guard let k = liveShare(of: i) else {
            if sharesNow(i) { beginShare(i, &out) }
            return
        }
        switch event {
        case .revoked:
            revokeShare(k, why: "the purchaser was refunded", &out)
        case .started, .resubscribed, .renewed, .recovered, .upgraded, .reinstated:
            addMemberPeriod(k, i, &out)
        default:
            noteMember(k, i, event: event, &out)
        }
    }

    /// Subscription `i` starts reaching the member: their first transaction of it, or, when it
    /// reached them before, a new one under the same `originalTransactionId` (as a
    /// resubscription keeps the purchaser's; Apple does not say, the simulator's choice).
    mutating func beginShare(_ i: Int, _ out: inout Outbox) {
        guard let member = familyBook?.member else { return }
        let s = subscriptions[i]
        if let k = family.shares.lastIndex(where: {
            $0.purchaserOriginal == s.originalTransactionId && $0.member == member
        }) {
            family.shares[k].revoked = false
            return addMemberPeriod(k, i, &out)
        }
        let id = decimalString(nextTransactionNumber)
        family.shares.append(
            FamilyShare(
                member: member, purchaserOriginal: s.originalTransactionId, originalTransactionId: id,
                latestTransactionId: id))
        addMemberPeriod(family.shares.count - 1, i, &out)
    }

    /// The member's transaction of subscription `i`'s current period, handed to the member's
    /// device (`Transaction.updates`, then their app's report).
    mutating func addMemberPeriod(_ k: Int, _ i: Int, _ out: inout Outbox) {
        let s = subscriptions[i]
        guard let fields = transaction(s.latestTransactionId)?.subscription else { return }
        let share = family.shares[k]
        let id = decimalString(nextTransactionNumber)
        nextTransactionNumber += 1
        let original = family.transactions.first { $0.id == share.originalTransactionId }
        let count = family.transactions.count(where: { $0.originalId == share.originalTransactionId })
        var mine = fields
        mine.originalTransactionId = share.originalTransactionId
        mine.webOrderLineItemId = Self.webOrderLineItemId(share.originalTransactionId, count)
        mine.isUpgraded = false
        family.transactions.append(
            MemberTransaction(
                id: id, productId: s.productId, member: share.member, createdAt: out.now,
                originalId: share.originalTransactionId, originalCreatedAt: original?.createdAt ?? out.now,
                subscription: mine))
        family.shares[k].latestTransactionId = id
        noteMember(k, i, event: .familyShared, &out)
        out.after(0, .storeFamilyDeliver(index: family.transactions.count - 1))
    }

    /// The member's entitlement follows the purchaser's status: written as the member's own
    /// subscription fact (nothing paid: no money of the auditor's).
    func noteMember(_ k: Int, _ i: Int, event: SubscriptionEvent, _ out: inout Outbox) {
        let s = subscriptions[i]
        let share = family.shares[k]
        out.log(
            .appStore,
            .subscriptionChanged(
                SubscriptionNote(
                    event: event, user: share.member, productId: s.productId, txn: share.latestTransactionId,
                    status: s.status, expiresAt: s.expiresAt, graceUntil: s.gracePeriodExpiresAt,
                    periodStart: s.periods.last?.start ?? s.expiresAt, priceCents: 0)))
    }

    /// Sharing of share `k` ends: the member's latest transaction is revoked
    /// (`revocationDate`, `revocationReason` 0), their device's `Transaction.updates` emits
    /// it, and the server gets `REVOKE`.
    mutating func revokeShare(_ k: Int, why: String, _ out: inout Outbox) {
        family.shares[k].revoked = true
        let share = family.shares[k]
        guard let m = family.transactions.lastIndex(where: { $0.id == share.latestTransactionId }) else { return }
        family.transactions[m].revokedAt = out.now
        let t = family.transactions[m]
        let price = catalog.read(t.productId) { $0.priceCents } ?? 0
        // Each day the member keeps access after this is granted without payment: the member
        // would have to buy it (the auditor's rate is the product's price).
        out.log(
            .appStore,
            .subscriptionChanged(
                SubscriptionNote(
                    event: .familyRevoked, user: share.member, productId: t.productId, txn: t.id, status: .revoked,
                    expiresAt: t.subscription.expiresAt, graceUntil: nil, periodStart: t.createdAt,
                    priceCents: price)))
        out.log(
            .appStore,
            .noted("Family Sharing of \(t.productId) with \(share.member) ends: \(why); \(t.id) revoked (REVOKE)"))
        out.after(0, .storeFamilyDeliver(index: m))
        guard out.policy.serverNotifications, let signed = signMember(m, now: out.now) else { return }
        var info = memberRenewalInfo(share, purchaser: share.purchaserOriginal, at: out.now)
        info?.status = .revoked
        enqueueNotification(
            ServerNotification(
                uuid: rng.uuid(), type: .revoke, signedDate: out.now, transaction: signed, attempt: 1,
                renewalInfo: info), &out)
    }

    /// After a notification about subscription `i` (`notifySubscription`): the same for the
    /// member's transaction, while it is shared (Apple sends the member's notifications with
    /// `FAMILY_SHARED` transactions: Developer Forums 744155).
    mutating func notifyFamily(_ type: NotificationType, _ subtype: NotificationSubtype?, _ i: Int, _ out: inout Outbox)
    {
        guard let k = liveShare(of: i) else { return }
        let share = family.shares[k]
        guard let m = family.transactions.lastIndex(where: { $0.id == share.latestTransactionId }),
            let signed = signMember(m, now: out.now)
        else { return }
        enqueueNotification(
            ServerNotification(
                uuid: rng.uuid(), type: type, signedDate: out.now, transaction: signed, attempt: 1, subtype: subtype,
                renewalInfo: memberRenewalInfo(share, purchaser: share.purchaserOriginal, at: out.now)), &out)
    }

    /// The member's renewal info: the purchaser's, under the member's ids, without the
    /// purchaser's `appAccountToken`.
    func memberRenewalInfo(_ share: FamilyShare, purchaser: String, at now: VirtualTime) -> RenewalInfo? {
        guard let i = subscriptions.indices.first(where: { subscriptions[$0].originalTransactionId == purchaser })
        else { return nil }
        var info = renewalInfo(i, at: now)
        info.originalTransactionId = share.originalTransactionId
        info.appAccountToken = nil
        info.appTransactionId = Self.memberAppTransactionId
        if share.revoked { info.status = .revoked }
        return info
    }

    /// The member's transaction `m` signed now.
    func signMember(_ m: Int, now: VirtualTime) -> SignedTransaction? {
        guard let t = familyBook?.transactions[m], let kind = catalog.read(t.productId, { $0.kind }),
            let price = catalog.read(t.productId, { $0.priceCents })
        else { return nil }
        return SignedTransaction(
            transactionId: t.id, originalTransactionId: t.originalId, productId: t.productId, type: kind,
            purchaseDate: t.createdAt, originalPurchaseDate: t.originalCreatedAt, signedDate: now,
            price: price * 10, appAccountToken: nil, signer: .appStore, revocationDate: t.revokedAt,
            appTransactionId: Self.memberAppTransactionId, environment: environment.payloadName,
            subscription: t.subscription, store: catalog.settings, familyShared: true)
    }

    /// The member's transaction `id` signed now (a notification's retry), if it is one.
    func signMember(id: String, now: VirtualTime) -> SignedTransaction? {
        guard let m = familyBook?.transactions.firstIndex(where: { $0.id == id }) else { return nil }
        return signMember(m, now: now)
    }

    /// Get All Subscription Statuses for the member's `originalTransactionId`: the
    /// purchaser's status while shared, 5 (revoked) after `REVOKE`.
    package func memberStatus(original: String, at now: VirtualTime) -> StatusAnswer? {
        guard let f = familyBook, let share = f.shares.last(where: { $0.originalTransactionId == original }),
            let m = f.transactions.lastIndex(where: { $0.id == share.latestTransactionId }),
            let signed = signMember(m, now: now),
            let info = memberRenewalInfo(share, purchaser: share.purchaserOriginal, at: now)
        else { return nil }
        return StatusAnswer(status: info.status, transaction: signed, renewalInfo: info)
    }

    /// The member's transactions, oldest first, signed now (the read API; the member's
    /// device's `Transaction.all`).
    package func memberTransactions(at now: VirtualTime) -> [SignedTransaction] {
        (familyBook?.transactions.indices).map { $0.compactMap { signMember($0, now: now) } } ?? []
    }

    /// `join-family NAME`: the member joins; every shareable subscription that entitles now
    /// reaches them.
    mutating func joinFamily(_ member: String, _ out: inout Outbox) {
        family.member = member
        out.log(.appStore, .noted("\(member) joins the purchaser's family (Family Sharing)"))
        for i in subscriptions.indices where sharesNow(i) && liveShare(of: i) == nil { beginShare(i, &out) }
    }

    /// `leave-family`: the member leaves (or the purchaser does: in a family of two, the same):
    /// every share is revoked.
    mutating func leaveFamily(_ out: inout Outbox) {
        guard let member = familyBook?.member else { return }
        out.log(.appStore, .noted("\(member) leaves the family (Family Sharing)"))
        revokeAllShares(why: "\(member) left the family", &out)
        family.member = nil
    }

    /// `family-share on|off`: the purchaser turns sharing of their subscriptions on or off.
    mutating func setFamilySharing(_ on: Bool, _ out: inout Outbox) {
        family.sharing = on
        out.log(
            .appStore,
            .noted(
                on
                    ? "the purchaser shares their subscriptions with the family"
                    : "the purchaser stops sharing their subscriptions with the family"))
        guard on else { return revokeAllShares(why: "the purchaser stopped sharing", &out) }
        for i in subscriptions.indices where sharesNow(i) && liveShare(of: i) == nil { beginShare(i, &out) }
    }

    mutating func revokeAllShares(why: String, _ out: inout Outbox) {
        for k in family.shares.indices where !family.shares[k].revoked { revokeShare(k, why: why, &out) }
    }
}
