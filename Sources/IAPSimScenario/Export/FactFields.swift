import IAPSimCore

/// A fact's kind (its case name, `paymentCharged`) and its fields, read by reflection.
/// Field names are the case's labels; a payload without labels is named by `singleNames` or
/// by its type. The log writes its lines with a switch instead (`JSONLineWriter.add(_:)`,
/// FactFields+Write.swift: reflection cost ~100,000 instructions a line); this reading is
/// the definition that switch is tested against (`FactFieldsWriterTests`). `signed`,
/// `renewal` and `notification` are the payloads both write.
enum FactFields {
    static func of(_ fact: Fact) -> (kind: String, fields: [(String, JSONValue)]) {
        // A policy change keeps the two fields it had when it carried two words.
        if case .policyChanged(let change) = fact {
            return ("policyChanged", [("key", .string(change.keyWord)), ("value", .string(change.valueWord))])
        }
        guard let child = Mirror(reflecting: fact).children.first, let kind = child.label else {
            return (String(describing: fact), [])
        }
        let payload = Mirror(reflecting: child.value)
        guard payload.displayStyle == .tuple else {
            let name = singleNames[kind] ?? defaultName(child.value, position: nil)
            return (kind, [(name, value(child.value))])
        }
        var fields: [(String, JSONValue)] = []
        for (position, element) in payload.children.enumerated() {
            let label = element.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
            fields.append(
                (
                    label ?? defaultName(element.value, position: position),
                    value(element.value)
                ))
        }
        return (kind, fields)
    }

    /// Names for facts whose single payload loses its label (Swift folds a one-element
    /// tuple into its element).
    static let singleNames: [String: String] = [
        "commandIssued": "command", "faultArmed": "what", "faultFired": "what", "noted": "what",
        "appLaunched": "freshInstall", "userLoggedIn": "user", "userLoggedOut": "user",
        "rechargeWaitingForLogin": "txn", "transactionFinished": "txn",
        "deferredExpired": "txn", "replayPrepared": "txn", "requestFailedOffline": "route",
        "transactionSigned": "transaction", "forgeryPrepared": "transaction", "finishCalled": "txn",
        "signedReplayPrepared": "txn", "unfinishedSwept": "txns", "notificationSent": "notification",
    ]

    /// A signed transaction as its payload: Apple's field names, dates in virtual ms
    /// (0 is 2026-01-01T00:00:00Z), price in milliunits, and who signed it.
    static func signed(_ s: SignedTransaction) -> JSONValue {
        .object(
            [
                ("transactionId", .string(s.transactionId)),
                ("originalTransactionId", .string(s.originalTransactionId)),
                ("productId", .string(s.productId)),
                ("type", .string(s.type.rawValue)),
                ("purchaseDate", .int(s.purchaseDate)),
                ("originalPurchaseDate", .int(s.originalPurchaseDate)),
                ("signedDate", .int(s.signedDate)),
                ("price", .int(s.price)),
                ("appAccountToken", s.appAccountToken.map(JSONValue.string) ?? .null),
                ("appTransactionId", .string(s.appTransactionId)),
                ("environment", .string(s.environment)),
                ("signer", .string(s.signer.rawValue)),
            ]
                + (s.revocationDate.map {
                    [
                        ("revocationDate", JSONValue.int($0)),
                        ("revocationReason", .int(s.revocationReason ?? 0)),
                        ("revocationType", .string(s.revocationType ?? "")),
                    ] + (s.revocationPercentage.map { [("revocationPercentage", JSONValue.int($0))] } ?? [])
                } ?? []) + ownershipFields(s) + subscriptionFields(s))
    }

    /// `inAppOwnershipType`, written only for a family member's transaction (every other one
    /// is `PURCHASED`).
    static func ownershipFields(_ s: SignedTransaction) -> [(String, JSONValue)] {
        s.isFamilyShared ? [("inAppOwnershipType", .string(s.inAppOwnershipType))] : []
    }

    /// A subscription transaction's own fields (none for a one-time product).
    static func subscriptionFields(_ s: SignedTransaction) -> [(String, JSONValue)] {
        guard let f = s.subscription else { return [] }
        return [
            ("expiresDate", .int(f.expiresAt)), ("webOrderLineItemId", .string(f.webOrderLineItemId)),
            ("subscriptionGroupIdentifier", .string(f.group)), ("transactionReason", .string(f.reason.rawValue)),
        ] + (f.isUpgraded ? [("isUpgraded", JSONValue.bool(true))] : []) + offerFields(f.offer)
    }

    /// An offer's fields (`offerType`, `offerIdentifier` for a promotional or win-back offer or
    /// an offer code, `offerDiscountType`, `offerPeriod`), none without one.
    static func offerFields(_ offer: OfferUse?) -> [(String, JSONValue)] {
        guard let o = offer else { return [] }
        return [("offerType", .int(o.type))] + (o.identifier.map { [("offerIdentifier", JSONValue.string($0))] } ?? [])
            + [("offerDiscountType", .string(o.paymentMode.rawValue)), ("offerPeriod", .string(o.period))]
    }

    /// Renewal info as its decoded payload (`JWSRenewalInfoDecodedPayload`), dates in virtual ms.
    static func renewal(_ r: RenewalInfo) -> JSONValue {
        .object(
            [
                ("originalTransactionId", .string(r.originalTransactionId)),
                ("autoRenewProductId", .string(r.autoRenewProductId)), ("productId", .string(r.productId)),
                ("autoRenewStatus", .int(r.autoRenewStatus)),
                ("isInBillingRetryPeriod", .bool(r.isInBillingRetryPeriod)),
                ("gracePeriodExpiresDate", r.gracePeriodExpiresDate.map(JSONValue.int) ?? .null),
                ("expirationIntent", r.expirationIntent.map(JSONValue.int) ?? .null),
                ("renewalDate", .int(r.renewalDate)), ("signedDate", .int(r.signedDate)),
                ("environment", .string(r.environment)),
                ("recentSubscriptionStartDate", .int(r.recentSubscriptionStartDate)),
                ("renewalPrice", .int(r.renewalPrice)), ("currency", .string("USD")),
                ("appAccountToken", r.appAccountToken.map(JSONValue.string) ?? .null),
                ("appTransactionId", .string(r.appTransactionId)),
            ] + offerFields(r.offer)
                + (r.priceIncreaseStatus.map { [("priceIncreaseStatus", JSONValue.int($0))] } ?? [])
                + (r.eligibleWinBackOfferIds.isEmpty
                    ? []
                    : [("eligibleWinBackOfferIds", JSONValue.array(r.eligibleWinBackOfferIds.map(JSONValue.string)))]))
    }

    /// A notification V2 as its decoded payload: Apple's field names, the transaction inside.
    static func notification(_ n: ServerNotification) -> JSONValue {
        .object(
            [
                ("notificationType", .string(n.type.rawValue)),
                ("notificationUUID", .string(n.uuid)),
                ("signedDate", .int(n.signedDate)),
                ("attempt", .int(n.attempt)),
                (
                    "data",
                    .object(
                        [
                            ("appAppleId", .int(ServerNotification.appAppleId)),
                            ("bundleVersion", .string(ServerNotification.bundleVersion)),
                            ("environment", .string(n.transaction.environment)),
                        ] + (n.renewalInfo.map { [("status", JSONValue.int($0.status.rawValue))] } ?? [])
                            + (n.consumptionRequestReason.map {
                                [("consumptionRequestReason", JSONValue.string($0.rawValue))]
                            } ?? []))
                ),
                ("signedTransactionInfo", signed(n.transaction)),
            ] + (n.subtype.map { [("subtype", JSONValue.string($0.rawValue))] } ?? [])
                + (n.renewalInfo.map { [("signedRenewalInfo", renewal($0))] } ?? []))
    }

    static func defaultName(_ value: Any, position: Int?) -> String {
        if value is Command { return "command" }
        return position.map { "value\($0)" } ?? "value"
    }

    /// A payload value as JSON: commands as their scenario text, `Worded` payloads (send
    /// reasons, recharge answers) in words, string enums as their raw value.
    static func value(_ value: Any) -> JSONValue {
        switch value {
        case let s as String: return .string(s)
        case let i as Int: return .int(i)
        case let b as Bool: return .bool(b)
        case let c as Command: return .string(c.scenarioText)
        case let s as SignedTransaction: return signed(s)
        case let n as ServerNotification: return notification(n)
        case let w as any Worded: return .string(w.words)
        case let r as any RawRepresentable:
            if let raw = r.rawValue as? String { return .string(raw) }
            return .string(String(describing: value))
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { self.value($0.value) } ?? .null
        case .collection, .set:
            return .array(mirror.children.map { self.value($0.value) })
        default:
            return .string(String(describing: value))
        }
    }
}
