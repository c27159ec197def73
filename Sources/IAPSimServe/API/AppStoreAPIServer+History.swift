import Foundation
import IAPSimCore
import IAPSimSigned

extension AppStoreAPIServer {
    /// Get Transaction History v2: every charge of the customer (one Apple ID per world)
    /// whose transactionId, originalTransactionId or appTransactionId is `id`, by when each
    /// last changed, oldest first unless `sort=DESCENDING`, 20 a page, with Apple's filters.
    /// `v1`: Get Transaction History v1, which omits finished consumables (its documented
    /// difference, as `server-history v1` teaches in the simulated world).
    func history(_ id: String, query: APIQuery, view: APIWorldView, v1: Bool = false) throws -> APIAnswer {
        guard let named = view.transactions.first(where: { $0.isNamed(id) }) else {
            return .error(404, 4_040_010, "Transaction id not found.")
        }
        let descending: Bool
        switch query.first("sort")?.uppercased() {
        case nil, "ASCENDING": descending = false
        case "DESCENDING": descending = true
        default: return .error(400, 4_000_021, "Invalid sort.")
        }
        var records = view.transactions.filter { $0.customer == named.customer }
        if v1 { records.removeAll { $0.finished && $0.signed.type == .consumable } }
        if let filtered = try filter(&records, query) { return filtered }
        records.sort { a, b in
            Self.key(a) < Self.key(b)
        }
        if descending { records.reverse() }
        if let token = query.first("revision") {
            guard let revision = HistoryRevision(token: token), revision.descending == descending else {
                return .error(400, 4_000_005, "Invalid request revision.")
            }
            let mark = (revision.modifiedAt, Self.number(revision.transactionId), revision.transactionId)
            records = records.filter { descending ? Self.key($0) < mark : Self.key($0) > mark }
        }
        let page = Array(records.prefix(Self.pageSize))
        let last = page.last.map {
            HistoryRevision(
                modifiedAt: $0.modifiedAt, transactionId: $0.id,
                descending: descending)
        }
        let revision =
            last?.token ?? query.first("revision")
            ?? HistoryRevision(modifiedAt: descending ? Int.max : -1, transactionId: "0", descending: descending).token
        let signed = try page.map { APIJSON.quote(try signer.transaction($0.signed, ids: $0.ids)) }
        return .ok(
            "{\"revision\":\(APIJSON.quote(revision)),\"hasMore\":\(records.count > page.count),"
                + "\"bundleId\":\(APIJSON.quote(SignedDataDefaults.bundleId)),"
                + "\"appAppleId\":\(SignedDataDefaults.appAppleId),"
                + "\"environment\":\(APIJSON.quote(view.environment.payloadName)),"
                + "\"signedTransactions\":[\(signed.joined(separator: ","))]}")
    }

    /// History's order: when it last changed, then its number.
    static func key(_ t: APIWorldView.Transaction) -> (Int, Int, String) {
        (t.modifiedAt, number(t.id), t.id)
    }

    static func number(_ id: String) -> Int { Int(id) ?? 0 }

    /// The `productType` filter's name of a transaction's type.
    static func productType(_ s: SignedTransaction) -> String {
        if s.subscription != nil { return "AUTO_RENEWABLE" }
        return s.type == .consumable ? "CONSUMABLE" : "NON_CONSUMABLE"
    }

    /// Apple's filters: `productId` and `productType` (repeatable), `startDate` (inclusive)
    /// and `endDate` (exclusive) on the purchase date in Unix ms, `revoked`,
    /// `inAppOwnershipType`, `subscriptionGroupIdentifier`. An error answer for a bad value.
    func filter(_ records: inout [APIWorldView.Transaction], _ query: APIQuery) throws -> APIAnswer? {
        let products = query.all("productId")
        if !products.isEmpty { records.removeAll { !products.contains($0.signed.productId) } }
        let types = query.all("productType")
        let known = ["AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"]
        if let bad = types.first(where: { !known.contains($0) }) {
            return .error(400, 4_000_022, "Invalid product type \(bad).")
        }
        if !types.isEmpty {
            records.removeAll { !types.contains(Self.productType($0.signed)) }
        }
        if let start = query.first("startDate") {
            guard let ms = Int64(start), ms >= 0 else { return .error(400, 4_000_015, "Invalid start date.") }
            records.removeAll { APISigner.unix($0.signed.purchaseDate) < ms }
        }
        if let end = query.first("endDate") {
            guard let ms = Int64(end), ms >= 0 else { return .error(400, 4_000_016, "Invalid end date.") }
            if let start = query.first("startDate").flatMap(Int64.init), start > ms {
                return .error(400, 4_000_013, "Start date after end date.")
            }
            records.removeAll { APISigner.unix($0.signed.purchaseDate) >= ms }
        }
        switch query.bool("revoked") {
        case .none: return .error(400, 4_000_030, "Invalid revoked.")
        case .some(.some(let revoked)): records.removeAll { ($0.signed.revocationDate != nil) != revoked }
        case .some(.none): break
        }
        switch query.first("inAppOwnershipType") {
        case nil, "PURCHASED": break
        case "FAMILY_SHARED": records.removeAll()
        default: return .error(400, 4_000_026, "Invalid in-app ownership type.")
        }
        // No subscriptions yet: a subscription group matches nothing.
        if !query.all("subscriptionGroupIdentifier").isEmpty { records.removeAll() }
        return nil
    }

    /// Get Notification History: every notification the App Store sent in
    /// [startDate, endDate) (virtual dates in Unix ms; 180 days back in production, 30 in the
    /// sandbox), with each attempt, 20 a page, `paginationToken` percent-encoded.
    func notificationHistory(query: APIQuery, body: String, view: APIWorldView) throws -> APIAnswer {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            return .error(400, 4_000_000, "Bad request.")
        }
        guard let start = (object["startDate"] as? NSNumber)?.int64Value else {
            return .error(400, 4_000_015, "Invalid start date.")
        }
        guard let end = (object["endDate"] as? NSNumber)?.int64Value else {
            return .error(400, 4_000_016, "Invalid end date.")
        }
        guard start <= end else { return .error(400, 4_000_013, "Start date after end date.") }
        let days: Int64 = view.environment == .production ? 180 : 30
        guard start >= APISigner.unix(view.now) - days * 86_400_000 else {
            return .error(400, 4_000_012, "Start date too far in past.")
        }
        let type = object["notificationType"] as? String
        let subtype = object["notificationSubtype"] as? String
        let txn = object["transactionId"] as? String
        if let refusal = Self.historyFilterRefusal(type: type, subtype: subtype, transactionId: txn) { return refusal }
        let onlyFailures = object["onlyFailures"] as? Bool ?? false
        // One record per notification as the backend saw it: under serve each world's UUIDs are
        // its own, so attempts are never merged across worlds (SERVE-CI rule 2).
        var uuids: [String] = []
        var attemptsOf: [String: [APIWorldView.NotificationAttempt]] = [:]
        for a in view.notifications {
            let uuid = a.ids.notification(a.notification.uuid)
            if attemptsOf[uuid] == nil { uuids.append(uuid) }
            attemptsOf[uuid, default: []].append(a)
        }
        var records: [(first: Int64, payload: String, attempts: [String])] = []
        for uuid in uuids {
            let attempts = attemptsOf[uuid] ?? []
            guard let first = attempts.first, let latest = attempts.last else { continue }
            let date = APISigner.unix(first.at)
            guard date >= start, date < end else { continue }
            if let type, first.notification.type.rawValue != type { continue }
            if let subtype, first.notification.subtype?.rawValue != subtype { continue }
            if let txn, first.ids.transaction(first.notification.transaction.transactionId) != txn { continue }
            if onlyFailures, latest.result == "SUCCESS" { continue }
            records.append(
                (
                    date, try signer.notification(latest.notification, ids: latest.ids),
                    attempts.map {
                        "{\"attemptDate\":\(APISigner.unix($0.at)),\"sendAttemptResult\":\(APIJSON.quote($0.result))}"
                    }
                ))
        }
        var offset = 0
        if let token = query.first("paginationToken") {
            guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8),
                text.hasPrefix("iapsim-nh1:"), let n = Int(text.dropFirst("iapsim-nh1:".count)), n >= 0
            else { return .error(400, 4_000_014, "Invalid pagination token.") }
            offset = n
        }
        let page = records.dropFirst(offset).prefix(Self.pageSize)
        let hasMore = offset + page.count < records.count
        let items = page.map {
            "{\"signedPayload\":\(APIJSON.quote($0.payload)),\"sendAttempts\":[\($0.attempts.joined(separator: ","))]}"
        }
        let next = Data("iapsim-nh1:\(offset + page.count)".utf8).base64EncodedString()
        return .ok(
            "{\"notificationHistory\":[\(items.joined(separator: ","))],\"hasMore\":\(hasMore)"
                + (hasMore ? ",\"paginationToken\":\(APIJSON.quote(next))" : "") + "}")
    }

    /// Get Notification History's filters, refused as Apple refuses them: `transactionId`
    /// with `notificationType` ("Include either the transactionId or the notificationType in
    /// your query, but not both": `4000019`, MultipleFiltersSuppliedError), an unknown type or
    /// subtype, a subtype without its type, or a pair that is not one of Apple's combinations
    /// (`4000018`, InvalidNotificationTypeError). Nil when the filters are acceptable.
    static func historyFilterRefusal(type: String?, subtype: String?, transactionId: String?) -> APIAnswer? {
        if transactionId != nil, type != nil || subtype != nil {
            return .error(400, 4_000_019, "Invalid request. Include either the transactionId or the notificationType.")
        }
        guard type != nil || subtype != nil else { return nil }
        guard let type, let allowed = NotificationFilter.subtypes[type] else {
            return .error(400, 4_000_018, "Invalid notification type.")
        }
        if let subtype, !allowed.contains(subtype) {
            return .error(400, 4_000_018, "Invalid notification type.")
        }
        return nil
    }
}

/// Apple's notification types (App Store Server Notifications V2, `notificationType`) with the
/// subtypes each may carry (`subtype`): Get Notification History accepts a type, or a type and
/// one of its subtypes, and nothing else.
enum NotificationFilter {
    static let subtypes: [String: Set<String>] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"],
        "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"],
        "DID_RENEW": ["BILLING_RECOVERY"],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
        "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "PRICE_INCREASE": ["PENDING", "ACCEPTED"],
        "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"],
        "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED", "ACTIVE_TOKEN_REMINDER", "CREATED"],
        "GRACE_PERIOD_EXPIRED": [], "REFUND": [], "REFUND_DECLINED": [], "REFUND_REVERSED": [],
        "CONSUMPTION_REQUEST": [], "RENEWAL_EXTENDED": [], "REVOKE": [], "TEST": [], "ONE_TIME_CHARGE": [],
        "RESCIND_CONSENT": [], "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
    ]
}
