/// The App Store Server API's endpoints the lookalike serves: one table that the router
/// matches requests against, the rate limits count by, and docs/server-api.md's endpoint and
/// rate-limit tables are generated from (`iapsim-docs`).
package enum ServerAPIEndpoint: String, Sendable, Hashable, CaseIterable {
    case transaction, history, historyV1, lookup, notificationHistory, testNotification, testNotificationStatus
    case consumption, subscriptions, setAppAccountToken

    /// The HTTP method.
    package var method: String {
        switch self {
        case .transaction, .history, .historyV1, .lookup, .subscriptions, .testNotificationStatus: return "GET"
        case .notificationHistory, .testNotification: return "POST"
        case .consumption, .setAppAccountToken: return "PUT"
        }
    }

    /// The path as Apple's documentation writes it; `{name}` is the one argument.
    package var path: String {
        switch self {
        case .transaction: return "/inApps/v1/transactions/{transactionId}"
        case .history: return "/inApps/v2/history/{transactionId}"
        case .historyV1: return "/inApps/v1/history/{transactionId}"
        case .lookup: return "/inApps/v1/lookup/{orderId}"
        case .subscriptions: return "/inApps/v1/subscriptions/{transactionId}"
        case .notificationHistory: return "/inApps/v1/notifications/history"
        case .testNotification: return "/inApps/v1/notifications/test"
        case .testNotificationStatus: return "/inApps/v1/notifications/test/{testNotificationToken}"
        case .consumption: return "/inApps/v2/transactions/consumption/{transactionId}"
        case .setAppAccountToken: return "/inApps/v1/transactions/{originalTransactionId}/appAccountToken"
        }
    }

    /// Apple's name for it.
    package var appleName: String {
        switch self {
        case .transaction: return "Get Transaction Info"
        case .history: return "Get Transaction History"
        case .historyV1: return "Get Transaction History v1 (deprecated)"
        case .lookup: return "Look Up Order ID"
        case .subscriptions: return "Get All Subscription Statuses"
        case .notificationHistory: return "Get Notification History"
        case .testNotification: return "Request a Test Notification"
        case .testNotificationStatus: return "Get Test Notification Status"
        case .consumption: return "Send Consumption Information"
        case .setAppAccountToken: return "Set App Account Token"
        }
    }

    /// The rate limit's counter: the two history versions share one.
    package var rateLimitName: String {
        switch self {
        case .transaction: return "transactions"
        case .history, .historyV1: return "history"
        case .lookup: return "lookup"
        case .subscriptions: return "subscriptions"
        case .notificationHistory: return "notification-history"
        case .testNotification: return "test-notification"
        case .testNotificationStatus: return "test-notification-status"
        case .consumption: return "consumption"
        case .setAppAccountToken: return "app-account-token"
        }
    }

    /// Calls a second in production (the simulator's reading of Apple's "Identifying rate
    /// limits": Apple does not publish the whole table); the sandbox allows a tenth, at least 1.
    package var perSecondInProduction: Int {
        switch self {
        case .testNotification, .testNotificationStatus: return 1
        case .transaction, .history, .historyV1, .lookup, .subscriptions, .notificationHistory, .consumption,
            .setAppAccountToken:
            return 50
        }
    }

    /// The calls a second allowed in `environment`.
    package func perSecond(in environment: StoreEnvironment) -> Int {
        environment == .production ? perSecondInProduction : max(1, perSecondInProduction / 10)
    }

    /// The endpoint `method` and `segments` (the path split at `/`, without empty parts) name,
    /// with its argument; nil for any other request.
    package static func match(method: String, segments: [String]) -> (ServerAPIEndpoint, String?)? {
        for endpoint in allCases where endpoint.method == method {
            let pattern = endpoint.path.split(separator: "/").map(String.init)
            guard pattern.count == segments.count else { continue }
            var argument: String?
            var matches = true
            for (p, s) in zip(pattern, segments) {
                if p.hasPrefix("{") {
                    argument = s
                } else if p != s {
                    matches = false
                    break
                }
            }
            if matches { return (endpoint, argument) }
        }
        return nil
    }
}

extension ServerAPIEndpoint {
    /// What it answers, as docs/server-api.md's endpoint table says it.
    package var answer: String {
        switch self {
        case .transaction: return "`{\"signedTransactionInfo\"}`"
        case .history:
            return "20 transactions a page, oldest first (`sort=DESCENDING` reverses), `revision`, `hasMore`, "
                + "`bundleId`, `appAppleId`, `environment`; filters `productId`, `productType`, `startDate`, "
                + "`endDate`, `revoked`, `inAppOwnershipType`, `subscriptionGroupIdentifier`"
        case .historyV1:
            return "the default of Apple's Python client's `get_transaction_history`: v2's answer, paging and "
                + "filters, without the consumables the app finished (its documented difference, which "
                + "`server-history v1` teaches in the simulated world)"
        case .lookup: return "`{\"status\": 0, \"signedTransactions\"}`; an unknown order id `{\"status\": 1}`"
        case .notificationHistory:
            return "the notifications sent, with their attempts; `paginationToken`, `onlyFailures`, "
                + "`notificationType` (with `notificationSubtype`) or `transactionId`, not both; a 180-day "
                + "window (30 days in the sandbox); refused as Apple refuses (below)"
        case .testNotification: return "`{\"testNotificationToken\"}`"
        case .testNotificationStatus: return "the test notification's payload and its attempts"
        case .consumption:
            return "202 to a complete `ConsumptionRequest` within 12 h of its `CONSUMPTION_REQUEST`; refused as "
                + "Apple refuses (below)"
        case .setAppAccountToken:
            return "200 with no body to `{\"appAccountToken\": UUID}` for an original transaction; from then on it "
                + "and the transactions of the same original (renewals) are signed with the token, and a "
                + "subscription's renewal info and later renewals and notifications carry it; refused as Apple "
                + "refuses (below)"
        case .subscriptions:
            return "`environment`, `bundleId`, `appAppleId`, `data` per subscription group (`pro`): "
                + "`lastTransactions` with `originalTransactionId`, `status` (1 active, 2 expired, 3 billing "
                + "retry, 4 grace, 5 revoked), `signedTransactionInfo` and `signedRenewalInfo`, signed now; "
                + "`status` in the query (repeatable) filters; a bad status is 400 `4000031`"
        }
    }
}
