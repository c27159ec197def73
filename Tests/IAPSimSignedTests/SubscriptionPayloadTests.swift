import IAPSimSigned
import Testing

@Suite struct SubscriptionPayloadTests {
    @Test func aSubscriptionPurchaseHasApplesSubscriptionFieldsInApplesOrder() {
        #expect(
            SubscriptionSamples.purchase.json.text == """
                {"transactionId":"2000000010","originalTransactionId":"2000000010",\
                "webOrderLineItemId":"900000001","bundleId":"com.example.iapsim","productId":"pro_monthly",\
                "subscriptionGroupIdentifier":"pro","purchaseDate":1767225660000,\
                "originalPurchaseDate":1767225660000,"expiresDate":1769904060000,"quantity":1,\
                "type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED",\
                "signedDate":1767225660500,"environment":"Sandbox","transactionReason":"PURCHASE",\
                "storefront":"USA","storefrontId":"143441","price":4990,"currency":"USD",\
                "appAccountToken":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}
                """)
        #expect(!SubscriptionSamples.purchase.json.text.contains("offerType"))
    }

    @Test func aRenewalKeepsItsOriginalAndHasANewLineItemAndReasonRenewal() {
        let text = SubscriptionSamples.renewal.json.text
        #expect(
            text.hasPrefix(
                #"{"transactionId":"2000000011","originalTransactionId":"2000000010","#
                    + #""webOrderLineItemId":"900000002","#))
        #expect(text.contains(#""purchaseDate":1769904060000,"originalPurchaseDate":1767225660000,"#))
        #expect(text.contains(#""expiresDate":1772323260000,"#))
        #expect(text.contains(#""transactionReason":"RENEWAL","#))
        #expect(!text.contains("revocation") && !text.contains("appAccountToken"))
        #expect(
            SubscriptionSamples.refundedRenewal.json.text.hasSuffix(
                #""currency":"USD","revocationDate":1770163260000,"revocationReason":0}"#))
    }

    @Test func anUpgradedTransactionSaysSoAsABoolean() {
        var p = SubscriptionSamples.purchase
        p.isUpgraded = true
        #expect(p.json.text.contains(#""signedDate":1767225660500,"isUpgraded":true,"environment":"Sandbox""#))
    }

    @Test func theOtherTypesAreUnchangedByTheSubscriptionFields() {
        for sample in [Samples.consumable, Samples.withToken, Samples.refunded] {
            for field in ["webOrderLineItemId", "subscriptionGroupIdentifier", "expiresDate", "isUpgraded"] {
                #expect(!sample.json.text.contains(field))
            }
        }
    }

    @Test func renewalInfoIsApplesModelInItsOrder() {
        #expect(
            SubscriptionSamples.active.json.text == """
                {"originalTransactionId":"2000000010","autoRenewProductId":"pro_monthly",\
                "productId":"pro_monthly","autoRenewStatus":1,"isInBillingRetryPeriod":false,\
                "signedDate":1767225660500,"environment":"Sandbox",\
                "recentSubscriptionStartDate":1767225660000,"renewalDate":1769904060000}
                """)
        #expect(
            SubscriptionSamples.inGrace.json.text.contains(
                #""autoRenewStatus":1,"isInBillingRetryPeriod":true,"gracePeriodExpiresDate":1771286460000,"#))
        #expect(
            SubscriptionSamples.expiredVoluntarily.json.text.hasPrefix(
                #"{"expirationIntent":1,"originalTransactionId":"2000000010","#))
        #expect(SubscriptionSamples.expiredVoluntarily.json.text.contains(#""autoRenewStatus":0,"#))
        #expect(SubscriptionSamples.expiredBilling.json.text.hasPrefix(#"{"expirationIntent":2,"#))
        #expect(
            SubscriptionSamples.downgradePending.json.text.contains(
                #""autoRenewProductId":"pro_monthly","productId":"plus_monthly","#))
        #expect(
            SubscriptionSamples.downgradePending.json.text.hasSuffix(
                #""renewalDate":1769904060000,"currency":"USD","renewalPrice":4990}"#))
        #expect(!SubscriptionSamples.active.json.text.contains("offerType"))
    }

    @Test func aSubscriptionNotificationCarriesSubtypeRenewalInfoAndStatus() {
        let payload = NotificationPayload(
            notificationType: .didFailToRenew, subtype: .gracePeriod, notificationUUID: "uuid-2",
            signedDate: 1_769_904_060_000, signedTransactionInfo: "a.b.c", signedRenewalInfo: "d.e.f",
            status: .gracePeriod)
        #expect(
            payload.json.text == """
                {"notificationType":"DID_FAIL_TO_RENEW","subtype":"GRACE_PERIOD","notificationUUID":"uuid-2",\
                "data":{"appAppleId":6450000001,"bundleId":"com.example.iapsim","bundleVersion":"1.0",\
                "environment":"Sandbox","signedTransactionInfo":"a.b.c","signedRenewalInfo":"d.e.f",\
                "status":4},"version":"2.0","signedDate":1769904060000}
                """)
    }

    /// App Store Server Notifications V2's subscription types and subtypes, in its words: each parses, and the
    /// type allows the subtype.
    @Test(
        arguments: [
            ("SUBSCRIBED", "INITIAL_BUY"), ("SUBSCRIBED", "RESUBSCRIBE"), ("DID_RENEW", nil),
            ("DID_RENEW", "BILLING_RECOVERY"), ("DID_FAIL_TO_RENEW", nil), ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"),
            ("GRACE_PERIOD_EXPIRED", nil), ("EXPIRED", "VOLUNTARY"), ("EXPIRED", "BILLING_RETRY"),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"),
            ("DID_CHANGE_RENEWAL_PREF", "UPGRADE"), ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"), ("REFUND", nil),
        ] as [(String, String?)])
    func theContractsTypesAndSubtypes(type: String, subtype: String?) throws {
        let parsed = try #require(NotificationPayload.NotificationType(rawValue: type))
        let sub = try subtype.map { try #require(NotificationPayload.Subtype(rawValue: $0)) }
        #expect(parsed.subtypes.contains(sub))
    }

    @Test func everySubtypeBelongsToAType() {
        for subtype in NotificationPayload.Subtype.allCases {
            #expect(NotificationPayload.NotificationType.allCases.contains { $0.subtypes.contains(subtype) })
        }
        #expect(!NotificationPayload.NotificationType.oneTimeCharge.subtypes.contains(.initialBuy))
        #expect(!NotificationPayload.NotificationType.expired.subtypes.contains(nil))
    }

    @Test func statusesAreApplesNumbers() {
        #expect(NotificationPayload.SubscriptionStatus.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(RenewalInfoPayload.ExpirationIntent.customerCancelled.rawValue == 1)
        #expect(RenewalInfoPayload.ExpirationIntent.billingError.rawValue == 2)
        #expect(JSONText.bool(false).text == "false" && JSONText.bool(true).text == "true")
    }
}
