import IAPSimCore
import IAPSimSigned

extension AppStoreAPIServer {
    /// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`): for the
    /// customer of any of their transaction ids, each subscription group with its newest
    /// transaction and renewal info, signed now, and its status (1 active, 2 expired,
    /// 3 billing retry, 4 grace, 5 revoked); `status` in the query (repeatable) filters.
    func subscriptionStatuses(_ id: String, query: APIQuery, view: APIWorldView) throws -> APIAnswer {
        guard let named = view.transactions.first(where: { $0.isNamed(id) }) else {
            return .error(404, 4_040_010, "Transaction id not found.")
        }
        var wanted: Set<Int> = []
        for text in query.all("status") {
            guard let n = Int(text), (1...5).contains(n) else {
                return .error(400, 4_000_031, "Invalid status.")
            }
            wanted.insert(n)
        }
        let mine = view.subscriptions.filter {
            $0.ids.appTransaction($0.latest.appTransactionId) == named.customer
                && (wanted.isEmpty || wanted.contains($0.status))
        }
        var groups: [String] = []
        for s in mine where !groups.contains(s.group) { groups.append(s.group) }
        let data = try groups.map { group in
            let last = try mine.filter { $0.group == group }.map { s in
                "{\"originalTransactionId\":\(APIJSON.quote(s.originalTransactionId)),\"status\":\(s.status),"
                    + "\"signedTransactionInfo\":\(APIJSON.quote(try signer.transaction(s.latest, ids: s.ids))),"
                    + "\"signedRenewalInfo\":\(APIJSON.quote(try signer.renewalInfo(s.renewalInfo, ids: s.ids)))}"
            }
            return "{\"subscriptionGroupIdentifier\":\(APIJSON.quote(group)),"
                + "\"lastTransactions\":[\(last.joined(separator: ","))]}"
        }
        return .ok(
            "{\"environment\":\(APIJSON.quote(view.environment.payloadName)),"
                + "\"bundleId\":\(APIJSON.quote(SignedDataDefaults.bundleId)),"
                + "\"appAppleId\":\(SignedDataDefaults.appAppleId),"
                + "\"data\":[\(data.joined(separator: ","))]}")
    }
}
