import Foundation
import IAPSimCore
import IAPSimSigned

extension AppStoreAPIServer {
    /// History and notification history pages hold this many records.
    static let pageSize = 20

    func handle(_ route: APIRoute, query: APIQuery, body: String, view: APIWorldView) async throws -> APIAnswer {
        switch route {
        case .transaction(let id):
            guard Self.isTransactionId(id) else { return .error(400, 4_000_006, "Invalid transaction id.") }
            guard let t = view.transactions.first(where: { $0.id == id }) else {
                return .error(404, 4_040_010, "Transaction id not found.")
            }
            return .ok("{\"signedTransactionInfo\":\(APIJSON.quote(try signer.transaction(t.signed, ids: t.ids)))}")
        case .history(let id):
            guard Self.isTransactionId(id) else { return .error(400, 4_000_006, "Invalid transaction id.") }
            return try history(id, query: query, view: view)
        case .historyV1(let id):
            // Get Transaction History v1 (deprecated, still the default of Apple's Python
            // client): v2's answer without the consumables the app finished.
            guard Self.isTransactionId(id) else { return .error(400, 4_000_006, "Invalid transaction id.") }
            return try history(id, query: query, view: view, v1: true)
        case .lookup(let orderId):
            let found = view.transactions.filter { $0.orderId == orderId }
            guard !found.isEmpty else { return .ok("{\"status\":1}") }
            let signed = try found.map { APIJSON.quote(try signer.transaction($0.signed, ids: $0.ids)) }
            return .ok("{\"status\":0,\"signedTransactions\":[\(signed.joined(separator: ","))]}")
        case .notificationHistory:
            return try notificationHistory(query: query, body: body, view: view)
        case .testNotification:
            nextTest += 1
            // From the invocation's id block (SERVE-CI rule 1): unique across invocations, and
            // the same in a replay of a recording.
            let token = "iapsim-test-\(idBlock)-\(nextTest)"
            let payload = try signer.testNotification(
                uuid: UUIDv5.url("iapsim-test-notification:\(idBlock):\(nextTest)"), signedDate: view.now)
            tests.append((token, payload, []))
            await world.testNotificationRequested(token: token, signedPayload: payload)
            return .ok("{\"testNotificationToken\":\(APIJSON.quote(token))}")
        case .testNotificationStatus(let token):
            guard let test = tests.first(where: { $0.token == token }) else {
                return .error(404, 4_040_008, "Test notification not found.")
            }
            let attempts = test.attempts.map {
                "{\"attemptDate\":\($0.date),\"sendAttemptResult\":\(APIJSON.quote($0.result))}"
            }
            let first = test.attempts.first.map { ",\"firstSendAttemptResult\":\(APIJSON.quote($0.result))" } ?? ""
            return .ok(
                "{\"signedPayload\":\(APIJSON.quote(test.signedPayload))\(first),"
                    + "\"sendAttempts\":[\(attempts.joined(separator: ","))]}")
        case .consumption(let id):
            return await consumption(id, body: body, view: view)
        case .subscriptions(let id):
            guard Self.isTransactionId(id) else { return .error(400, 4_000_006, "Invalid transaction id.") }
            return try subscriptionStatuses(id, query: query, view: view)
        case .setAppAccountToken(let id):
            return await setAppAccountToken(id, body: body, view: view)
        }
    }

    /// Set App Account Token: a UUID for an original transaction is 200 with no body, and the
    /// world carries it from then on (`APIWorldProvider.appAccountTokenSet`).
    func setAppAccountToken(_ id: String, body: String, view: APIWorldView) async -> APIAnswer {
        guard Self.isTransactionId(id) else { return .error(400, 4_000_008, "Invalid original transaction id.") }
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        guard let token = object?["appAccountToken"] as? String, UUID(uuidString: token) != nil else {
            return .error(400, 4_000_183, "Invalid request. The app account token field must be a valid UUID.")
        }
        guard let t = view.transactions.first(where: { $0.id == id }) else {
            return .error(404, 4_040_010, "Transaction id not found.")
        }
        guard t.ids.transaction(t.signed.originalTransactionId) == id else {
            return .error(
                400, 4_000_187, "Invalid request. The transaction ID provided is not an original transaction ID.")
        }
        await world.appAccountTokenSet(originalTransactionId: id, token: token.lowercased())
        return APIAnswer(status: 200, json: nil)
    }

    /// Send Consumption Information: a complete body (`ConsumptionValidation`) for a
    /// transaction with a `CONSUMPTION_REQUEST` in the last 12 h is 202.
    func consumption(_ id: String, body: String, view: APIWorldView) async -> APIAnswer {
        guard Self.isTransactionId(id) else { return .error(400, 4_000_006, "Invalid transaction id.") }
        guard let t = view.transactions.first(where: { $0.id == id }) else {
            return .error(404, 4_040_010, "Transaction id not found.")
        }
        if let refusal = ConsumptionValidation.refusal(body, subscription: t.signed.subscription != nil) {
            return refusal
        }
        // Accepted within 12 h of a CONSUMPTION_REQUEST (the simulator's choice: Apple
        // documents no code for a late answer).
        let window: IAPSimCore.VirtualTime = 12 * 3_600_000
        guard view.consumptionRequests.contains(where: { $0.txn == id && view.now - $0.at <= window }) else {
            return .error(400, 4_000_000, "No consumption request for this transaction in the last 12 hours.")
        }
        await world.consumptionInformation(txn: id, body: body)
        return APIAnswer(status: 202, json: "")
    }

    static func isTransactionId(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 19 && id.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
