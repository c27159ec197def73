import IAPSimSigned
import Testing

@Suite struct PayloadTests {
    @Test func virtualTimeZeroIsNewYear2026() {
        #expect(VirtualTime.unixMilliseconds(virtual: 0) == 1_767_225_600_000)
        #expect(VirtualTime.unixMilliseconds(virtual: 90_000) == 1_767_225_690_000)
    }

    @Test func consumableTransactionIsAppleFieldsInAFixedOrder() {
        #expect(
            Samples.consumable.json.text == """
                {"transactionId":"2000000001","originalTransactionId":"2000000001",\
                "bundleId":"com.example.iapsim","productId":"coins100","purchaseDate":1767225660000,\
                "originalPurchaseDate":1767225660000,"quantity":1,"type":"Consumable",\
                "inAppOwnershipType":"PURCHASED","signedDate":1767225660500,"environment":"Sandbox",\
                "transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":990,\
                "currency":"USD"}
                """)
    }

    @Test func tokenAndRevocationAppearOnlyWhenSet() {
        #expect(
            Samples.withToken.json.text.hasSuffix(
                #""type":"Non-Consumable","inAppOwnershipType":"PURCHASED","signedDate":1767225720000,"#
                    + #""environment":"Sandbox","transactionReason":"PURCHASE","storefront":"USA","#
                    + #""storefrontId":"143441","price":2990,"currency":"USD","#
                    + #""appAccountToken":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}"#))
        #expect(
            Samples.refunded.json.text.hasSuffix(
                #""price":4990,"currency":"USD","revocationDate":1767232800000,"revocationReason":0}"#))
        #expect(!Samples.consumable.json.text.contains("revocation"))
        #expect(!Samples.refunded.json.text.contains("appAccountToken"))
    }

    @Test func notificationIsResponseBodyV2InAFixedOrder() {
        let payload = NotificationPayload(
            notificationType: .refund, notificationUUID: "uuid-1",
            signedDate: 1_767_232_800_000, signedTransactionInfo: "a.b.c")
        #expect(
            payload.json.text == """
                {"notificationType":"REFUND","notificationUUID":"uuid-1","data":{"appAppleId":6450000001,\
                "bundleId":"com.example.iapsim","bundleVersion":"1.0","environment":"Sandbox",\
                "signedTransactionInfo":"a.b.c"},"version":"2.0","signedDate":1767232800000}
                """)
    }

    @Test func refundedShareAndAppTransactionAppearOnlyWhenSet() {
        var p = Samples.refunded
        p.revocationType = "REFUND_PRORATED"
        p.revocationPercentage = 40_000
        p.appTransactionId = "705000000000000001"
        #expect(
            p.json.text.hasSuffix(
                #""revocationReason":0,"revocationType":"REFUND_PRORATED","revocationPercentage":40000,"#
                    + #""appTransactionId":"705000000000000001"}"#))
        #expect(!Samples.refunded.json.text.contains("revocationType"))
    }

    @Test func stringsAreEscapedAsJSON() {
        let text = JSONText.string("a\"b\\c\nd\u{1}é").text
        #expect(text == #""a\"b\\c\nd\u0001é""#)
        // Checked a word at a time: a special byte in the second word or the tail, and the
        // bytes that are not escaped (DEL, non-ASCII, U+2028).
        #expect(JSONText.string("0123456789abcdef\"ghij").text == #""0123456789abcdef\"ghij""#)
        #expect(JSONText.string("abcdefghijklmno\u{1F}").text == #""abcdefghijklmno\u001f""#)
        #expect(JSONText.string("abcdefgh\u{7F}\u{2028}ijklmnop\\").text == "\"abcdefgh\u{7F}\u{2028}ijklmnop\\\\\"")
        #expect(JSONText.string("").text == #""""#)
    }
}
