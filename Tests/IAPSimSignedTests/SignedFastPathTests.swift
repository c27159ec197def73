import Foundation
import IAPSimSigned
import Testing

/// The `--signed` writer's fast paths (issue 34, item 9, round 3) against the plain way of
/// writing the same bytes: base64url two characters at a time from a table, a line of
/// `signed.jsonl` written as bytes around the JWS, a long string checked for escapes four
/// words at a time.
@Suite struct SignedFastPathTests {
    /// Every 12-bit value in both halves of three bytes: each of the table's 4,096 pairs
    /// written where the reference (Foundation's base64, URL alphabet, no padding) has it.
    @Test func base64URLWritesEveryPairOfCharactersAsFoundationDoes() {
        var bytes: [UInt8] = []
        for n in 0..<4096 {
            let v = n << 12 | (4095 - n)
            bytes += [UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        for tail in 0..<3 {
            let input = bytes + Array(bytes.prefix(tail))
            let reference = Data(input).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(JWSSigner.base64URL(input) == reference)
        }
    }

    /// What is signed (`jsonBytes`, written straight) is the payload's `json` text (whose
    /// bytes the golden tests of PayloadTests and SubscriptionPayloadTests hold): for every
    /// sample, every optional field set and none, a nested object, strings to escape.
    @Test func eachPayloadSignsTheBytesOfItsJSON() {
        var odd = Samples.refunded
        odd.transactionId = "tx \"1\"\\\u{1}é"
        odd.isUpgraded = false
        odd.revocationType = "REFUND_PRORATED"
        odd.revocationPercentage = 50_000
        odd.appTransactionId = "705"
        let transactions = [
            Samples.consumable, Samples.withToken, Samples.refunded, odd, SubscriptionSamples.purchase,
            SubscriptionSamples.renewal, SubscriptionSamples.refundedRenewal,
        ]
        for t in transactions { #expect(t.jsonBytes == t.json.bytes) }
        let renewals = [SubscriptionSamples.active, SubscriptionSamples.inGrace]
        for r in renewals { #expect(r.jsonBytes == r.json.bytes) }
        var notification = NotificationPayload(
            notificationType: .didChangeRenewalPref, subtype: .downgrade, notificationUUID: "n\"1",
            signedDate: -1, signedTransactionInfo: "a.b.c", signedRenewalInfo: "d.e.f", status: .gracePeriod)
        #expect(notification.jsonBytes == notification.json.bytes)
        notification.consumptionRequestReason = "LEGAL"
        notification.subtype = nil
        notification.signedRenewalInfo = nil
        notification.status = nil
        #expect(notification.jsonBytes == notification.json.bytes)
        #expect(notification.json.text.contains(#""data":{"appAppleId":6450000001,"bundleId""#))
    }

    /// A line as it was written before (a `JSONText` object made a string) with the line's
    /// own JWS, for each kind of line, a transaction id that needs escapes and one that does
    /// not, and an environment of the run's.
    @Test func eachLineIsTheObjectJSONTextWrites() throws {
        for txn in ["2000000001", "tx \"1\"\\\u{1}\u{7F}é\u{2028}"] {
            let writer = try SignedDataWriter(environment: "Production")
            var transaction = Samples.consumable
            transaction.transactionId = txn
            try writer.transaction(transaction, at: -5)
            try writer.renewalInfo(SubscriptionSamples.active, at: 0)
            try writer.notification(
                .subscribed, subtype: .initialBuy, uuid: "n-1", signedDate: Samples.t0, transaction: transaction,
                renewalInfo: SubscriptionSamples.active, status: .active, at: Int64.max)
            try writer.forged(transaction, at: Int64.min)
            let text = writer.takeJSONLines()
            #expect(writer.jsonLines.isEmpty)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            try #require(lines.count == 5 && lines[4].isEmpty)
            let expected: [(Int64, String, String)] = [
                (-5, "transaction", txn), (0, "renewal", SubscriptionSamples.active.originalTransactionId),
                (.max, "notification", txn), (.min, "forged", txn),
            ]
            for (line, (t, kind, id)) in zip(lines, expected) {
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let jws = try #require(object["jws"] as? String)
                let before = JSONText.members([
                    ("t", .integer(t)), ("kind", .string(kind)), ("txn", .string(id)),
                    ("environment", .string("Production")), ("jws", .string(jws)),
                ]).text
                #expect(String(line) == before)
            }
        }
    }

    /// Long strings with one byte to escape at each place of a 32-byte turn and of the
    /// words after it: escaped (the text is not the string between quotes, and reads back as
    /// the string); a string with none is copied as it is.
    @Test func aLongStringWithOneEscapeAnywhereIsEscaped() throws {
        let plain = String(repeating: "abcdefghij", count: 10)
        for length in [31, 32, 33, 40, 64, 71, 100] {
            for place in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1}", "é"] {
                    var scalars = Array(plain.prefix(length).unicodeScalars)
                    scalars[place] = special.unicodeScalars.first!
                    var s = ""
                    s.unicodeScalars.append(contentsOf: scalars)
                    let text = JSONText.string(s).text
                    let read = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
                    #expect(read as? String == s, "\(length) \(place)")
                    #expect((text == "\"" + s + "\"") == (special == "é"), "\(length) \(place)")
                }
            }
        }
    }
}
