/// The Family Sharing commands (FamilySharing.swift): a family member joins or leaves the
/// purchaser's family, the purchaser turns sharing on or off. Subscription commands
/// (`SubscriptionCommand.family`): StoreKit 2 only.
package enum FamilyCommand: Sendable, Hashable {
    /// `join-family NAME`: a family member, signed in to the app as NAME on a device of
    /// their own, joins the purchaser's family.
    case join(member: String)
    /// `leave-family`: the member leaves the family (or the purchaser does: the same here).
    case leave
    /// `family-share on|off`: the purchaser shares their subscriptions with the family, or
    /// stops.
    case share(on: Bool)

    var scenarioText: String {
        switch self {
        case .join(let member): return "join-family \(member)"
        case .leave: return "leave-family"
        case .share(let on): return "family-share \(on ? "on" : "off")"
        }
    }

    var spec: CommandSpec {
        switch self {
        case .join: return .joinFamily
        case .leave: return .leaveFamily
        case .share: return .familyShare
        }
    }

    static let specs: [CommandSpec] = [.joinFamily, .leaveFamily, .familyShare]
}

extension Command {
    package static func joinFamily(_ member: String) -> Command { .subscription(.family(.join(member: member))) }
    package static let leaveFamily = Command.subscription(.family(.leave))
    package static func familyShare(on: Bool) -> Command { .subscription(.family(.share(on: on))) }
}

extension World {
    /// Why a Family Sharing command cannot run now, or nil.
    mutating func refusing(_ command: FamilyCommand) -> String? {
        if isExternal { return "Family Sharing is not modelled under serve" }
        switch command {
        case .join(let member):
            if let m = store.familyMember { return "\(m) is already in the family (one family member is modelled)" }
            if store.subscriptions.contains(where: { $0.user == member }) {
                return "\(member) subscribes on this Apple ID; a family member has an Apple ID of their own"
            }
        case .leave:
            if store.familyMember == nil { return "nobody has joined the family (join-family NAME)" }
        case .share(let on):
            if store.familySharing == on { return "family sharing is already \(on ? "on" : "off")" }
        }
        return nil
    }

    mutating func perform(_ command: FamilyCommand) {
        switch command {
        case .join(let member): store.joinFamily(member, &outbox)
        case .leave: store.leaveFamily(&outbox)
        case .share(let on): store.setFamilySharing(on, &outbox)
        }
    }

    /// The member's device got their transaction (`.storeFamilyDeliver`): `Transaction.updates`
    /// emits it there and the member's app reports it to the server for the member's account.
    mutating func familyDelivered(_ m: Int) {
        guard let t = store.familyBook?.transactions[m], let signed = store.signMember(m, now: now) else { return }
        outbox.log(
            .storeKit,
            .noted(
                "Transaction.updates on \(t.member)'s device emits \(t.id) (\(t.productId), FAMILY_SHARED"
                    + (t.revokedAt == nil ? ")" : ", revocationDate set)") + "; \(t.member)'s app reports it"))
        guard !isExternal else { return }
        server.hear(
            signed, .report, renewal: nil, user: t.member, signedAt: signed.purchaseDate, &outbox)
    }
}

extension CommandSpec {
    static let joinFamily = CommandSpec(
        "join-family", usage: "join-family NAME",
        read: { a throws(CommandError) in
            try a.exactly(1)
            let word = a.words[0]
            guard !a.users.contains(word.text) else {
                throw CommandError(
                    offset: word.offset,
                    problem: .badArgument(
                        "join-family", word.text,
                        expected: "the family member's own account, not one of this device's ("
                            + a.users.joined(separator: ", ") + ")"))
            }
            return .joinFamily(word.text)
        },
        doc: "StoreKit 2 only: a family member, signed in to the app as NAME on a device of their own, joins the "
            + "purchaser's family. While the purchaser shares (`family-share on`, the default), each period of a "
            + "`familyShareable` subscription gives NAME a transaction of their own (`inAppOwnershipType` "
            + "`FAMILY_SHARED`, their own `transactionId` and `originalTransactionId`, no `appAccountToken`), which "
            + "NAME's app reports to the server; the server gets NAME's notifications too")
    static let leaveFamily = CommandSpec(
        "leave-family", .leaveFamily,
        doc: "StoreKit 2 only: the family member leaves the family (the purchaser leaving does the same in a family "
            + "of two): each shared subscription's latest `FAMILY_SHARED` transaction gets a `revocationDate` "
            + "(`revocationReason` 0) and the server a `REVOKE`")
    static let familyShare = CommandSpec(
        "family-share", usage: "family-share on|off", faultIf: { $0 == .familyShare(on: false) },
        read: { a throws(CommandError) in
            try a.exactly(1)
            return .familyShare(on: try a.onOff(0))
        },
        doc: "StoreKit 2 only: the purchaser turns Family Sharing of their subscriptions on (the default) or off "
            + "in Settings; off revokes the family member's access (`REVOKE`), on shares again with a new "
            + "`FAMILY_SHARED` transaction")
}
