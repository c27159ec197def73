import Foundation
import IAPSimSigned
import Testing

/// Apple's library judges a subscription's signed data: its transactions, its renewal info
/// (`verify_and_decode_renewal_info`) and every subscription notification type of
/// App Store Server Notifications V2, each carrying both.
@Suite(.serialized) struct ExternalJudgeSubscriptionTests {
    typealias S = SubscriptionSamples
    typealias Notification = (
        type: NotificationPayload.NotificationType, subtype: NotificationPayload.Subtype?,
        transaction: TransactionPayload, renewal: RenewalInfoPayload, status: NotificationPayload.SubscriptionStatus
    )

    /// The fields Apple's model may leave out of renewal info: an expectation names them with
    /// null where the sample leaves them out, so that the judge checks they are absent.
    static let optionalRenewalFields = [
        "expirationIntent", "gracePeriodExpiresDate", "renewalDate", "renewalPrice", "currency", "offerType",
    ]

    static let notifications: [Notification] = [
        (.subscribed, .initialBuy, S.purchase, S.active, .active),
        (.didRenew, nil, S.renewal, S.active, .active),
        (.didFailToRenew, .gracePeriod, S.purchase, S.inGrace, .gracePeriod),
        (.gracePeriodExpired, nil, S.purchase, S.inGrace, .billingRetry),
        (.didRenew, .billingRecovery, S.renewal, S.active, .active),
        (.expired, .billingRetry, S.purchase, S.expiredBilling, .expired),
        (.didChangeRenewalStatus, .autoRenewDisabled, S.purchase, S.expiredVoluntarily, .active),
        (.didChangeRenewalStatus, .autoRenewEnabled, S.purchase, S.active, .active),
        (.expired, .voluntary, S.purchase, S.expiredVoluntarily, .expired),
        (.subscribed, .resubscribe, S.renewal, S.active, .active),
        (.didChangeRenewalPref, .upgrade, S.renewal, S.active, .active),
        (.didChangeRenewalPref, .downgrade, S.purchase, S.downgradePending, .active),
        (.refund, nil, S.refundedRenewal, S.active, .revoked),
    ]

    static func object(_ json: JSONText, nulls: [String] = []) throws -> [String: Any] {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        for key in nulls where object[key] == nil { object[key] = NSNull() }
        return object
    }

    static func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Writes transactions, renewal info and notifications; returns the expectations, a line each.
    static func writeSample(into directory: String) throws -> [String] {
        let writer = try SignedDataWriter(directory: directory)
        var expected: [String] = []
        for (t, payload) in [(60_000, S.purchase), (2_678_460_000, S.renewal), (2_937_660_000, S.refundedRenewal)] {
            try writer.transaction(payload, at: Int64(t))
            expected.append(try line(object(payload.json, nulls: ["isUpgraded", "offerType"])))
        }
        for renewal in [S.active, S.inGrace, S.expiredVoluntarily, S.expiredBilling, S.downgradePending] {
            try writer.renewalInfo(renewal, at: renewal.signedDate - S.t0)
            expected.append(try line(object(renewal.json, nulls: optionalRenewalFields)))
        }
        for (index, n) in notifications.enumerated() {
            let uuid = "00000000-0000-0000-0000-0000000000\(10 + index)"
            try writer.notification(
                n.type, subtype: n.subtype, uuid: uuid, signedDate: n.renewal.signedDate,
                transaction: n.transaction, renewalInfo: n.renewal, status: n.status,
                at: n.renewal.signedDate - S.t0)
            expected.append(
                try line([
                    "notificationType": n.type.rawValue, "subtype": n.subtype?.rawValue ?? NSNull(),
                    "notificationUUID": uuid, "signedDate": n.renewal.signedDate,
                    "data": ["status": n.status.rawValue, "bundleId": "com.example.iapsim"],
                    "transaction": try object(n.transaction.json),
                    "renewalInfo": try object(n.renewal.json, nulls: optionalRenewalFields),
                ]))
        }
        try writer.finish()
        return expected
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func applesLibraryVerifiesTheSubscriptionsTransactionsRenewalInfoAndNotifications() throws {
        let directory = scratchDirectory("apple-subscription")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expected = try Self.writeSample(into: directory)
        try ExternalJudgeTests.writeExpectations(expected, to: directory + "/expect.jsonl")
        let result = try Judges.verify(directory, expect: directory + "/expect.jsonl")
        print("verify_signed.py (\(try #require(Judges.applePython))):\n" + result.stdout, terminator: "")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n21 passed, 0 failed\n"), "\(result.stdout)")
        #expect(result.stdout.contains("ok      4 renewal 2000000010\n"))
        #expect(result.stdout.contains("ok     21 notification 2000000011\n"))
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func theJudgeFailsAWrongRenewalFieldAndASubscriptionNotificationWithoutRenewalInfo() throws {
        let directory = scratchDirectory("apple-subscription-wrong")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try SignedDataWriter(directory: directory)
        try writer.renewalInfo(S.inGrace, at: 0)
        try writer.notification(.didRenew, uuid: "u-1", signedDate: S.renewed, transaction: S.renewal, at: 1)
        try writer.notification(.subscribed, uuid: "u-2", signedDate: S.bought, transaction: Samples.consumable, at: 2)
        var noGroup = S.purchase
        noGroup.subscriptionGroupIdentifier = nil
        try writer.transaction(noGroup, at: 3)
        try writer.finish()
        try ExternalJudgeTests.writeExpectations(
            [#"{"isInBillingRetryPeriod":false,"gracePeriodExpiresDate":null}"#, "{}", "{}", "{}"],
            to: directory + "/expect.jsonl")
        let result = try Judges.verify(directory, expect: directory + "/expect.jsonl")
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "FAIL    1 renewal 2000000010: isInBillingRetryPeriod: expected False, decoded True; "
                    + "gracePeriodExpiresDate: expected None, decoded 1771286460000\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "FAIL    2 notification 2000000011: a subscription's notification without data.signedRenewalInfo\n"))
        #expect(
            result.stdout.contains(
                "FAIL    3 notification 2000000001: SUBSCRIBED about a transaction of type 'Consumable'\n"))
        #expect(
            result.stdout.contains(
                "FAIL    4 transaction 2000000010: a subscription transaction without subscriptionGroupIdentifier\n"))
        #expect(result.stdout.hasSuffix("\n0 passed, 4 failed\n"), "\(result.stdout)")
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func inProductionTheVerifierChecksTheAppsAppleIdOfASubscriptionsNotification() throws {
        let directory = scratchDirectory("apple-subscription-production")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try SignedDataWriter(directory: directory, environment: "Production")
        var transaction = S.renewal, renewal = S.inGrace
        transaction.environment = "Production"
        renewal.environment = "Production"
        try writer.transaction(transaction, at: 0)
        try writer.renewalInfo(renewal, at: 0)
        try writer.notification(
            .didFailToRenew, subtype: .gracePeriod, uuid: "u-3", signedDate: S.renewed, transaction: transaction,
            renewalInfo: renewal, status: .gracePeriod, at: 0)
        // Renewal info signed for the sandbox is refused by a production verifier.
        try writer.renewalInfo(S.inGrace, at: 0)
        try writer.finish()
        let result = try Judges.verify(directory)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "ok      1 transaction 2000000011\nok      2 renewal 2000000010\nok      3 notification 2000000011\n"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains("FAIL    4 renewal 2000000010: refused by Apple's verifier: INVALID_ENVIRONMENT"),
            "\(result.stdout)")
    }
}
