import Foundation
import Testing

/// The payloads of price increases, judged by Apple's app-store-server-library: each
/// `PRICE_INCREASE` decodes with its subtype and a renewal info whose `priceIncreaseStatus`
/// and `renewalPrice` are the increase's; `EXPIRED` / `PRICE_INCREASE` with
/// `expirationIntent` 3; the renewal at the new price with that `price`.
@Suite(.serialized) struct PriceIncreaseSignedTests {
    typealias V = SignedVerificationTests

    /// Adds `extra` to the expectation of each notification line whose type is `type` (and
    /// whose expectation `matching` accepts).
    static func expecting(
        _ type: String, _ extra: [String: Any], in lines: [String], matching: (String) -> Bool = { _ in true }
    ) -> [String] {
        lines.map { line in
            guard line.contains("\"notificationType\":\"\(type)\""), matching(line),
                var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return line }
            object.merge(extra) { _, b in b }
            return (try? V.json(object)) ?? line
        }
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func aPendingIncreaseAndTheExpiryWithoutConsentAreVerified() throws {
        let python = try #require(V.applePython)
        let judged = try V.judge("sub-price-increase-hardened.yaml", python: python) { lines in
            let pending = Self.expecting(
                "PRICE_INCREASE",
                ["subtype": "PENDING", "renewalInfo": ["priceIncreaseStatus": 0, "renewalPrice": 6_990]], in: lines)
            return Self.expecting(
                "EXPIRED", ["subtype": "PRICE_INCREASE", "renewalInfo": ["expirationIntent": 3]], in: pending)
        }
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        #expect(judged.expected.contains { $0.contains("\"subtype\":\"PENDING\"") })
        #expect(judged.expected.contains { $0.contains("\"expirationIntent\":3") })
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func consentAndAnIncreaseWithoutConsentAreVerifiedWithTheirRenewals() throws {
        let python = try #require(V.applePython)
        let judged = try V.judge("Tests/Fixtures/subscriptions/price-increase-sk2.yaml", python: python) { lines in
            // The three PRICE_INCREASE, in order: pending at 6.99, accepted at 6.99, accepted at 7.99 (no consent).
            var seen = 0
            return lines.map { line in
                guard line.contains("\"notificationType\":\"PRICE_INCREASE\"") else { return line }
                seen += 1
                let extra: [[String: Any]] = [
                    ["subtype": "PENDING", "renewalInfo": ["priceIncreaseStatus": 0, "renewalPrice": 6_990]],
                    ["subtype": "ACCEPTED", "renewalInfo": ["priceIncreaseStatus": 1, "renewalPrice": 6_990]],
                    ["subtype": "ACCEPTED", "renewalInfo": ["priceIncreaseStatus": 1, "renewalPrice": 7_990]],
                ]
                return Self.expecting("PRICE_INCREASE", extra[min(seen, 3) - 1], in: [line])[0]
            }
        }
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        let all = judged.expected.joined(separator: "\n")
        #expect(all.contains("\"price\":6990") && all.contains("\"price\":7990"))
        #expect(judged.expected.filter { $0.contains("\"subtype\":\"ACCEPTED\"") }.count == 2)
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func aStatusThatDecodesOtherwiseFailsTheJudge() throws {
        let python = try #require(V.applePython)
        let judged = try V.judge("sub-price-increase-hardened.yaml", python: python) { lines in
            Self.expecting("PRICE_INCREASE", ["renewalInfo": ["priceIncreaseStatus": 1]], in: lines)
        }
        #expect(judged.verifier.status == 1)
        #expect(
            judged.verifier.stdout.contains("renewalInfo.priceIncreaseStatus: expected 1, decoded 0"),
            "\(judged.verifier.stdout)")
    }

    /// The app defers the price increase message; the customer never consents; her new
    /// purchase after the expiry and its renewal are signed at the new price (6990), the
    /// first purchase at the old (4990): the prices set here, not read from the run's log.
    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func aNewPurchaseAfterAnIncreaseIsSignedAtTheNewPrice() throws {
        let python = try #require(V.applePython)
        var ids: [String] = []
        let judged = try V.judge("Tests/Fixtures/subscriptions/price-increase-defer-sk2.yaml", python: python) {
            lines in
            lines.map { line in
                guard var object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    return line
                }
                func priced(_ t: [String: Any]) -> [String: Any] {
                    guard let id = t["transactionId"] as? String else { return t }
                    if !ids.contains(id) { ids.append(id) }
                    var t = t
                    t["price"] = ids.first == id ? 4_990 : 6_990
                    return t
                }
                if let t = object["transaction"] as? [String: Any] {
                    object["transaction"] = priced(t)
                } else if object["transactionId"] != nil {
                    object = priced(object)
                }
                return (try? V.json(object)) ?? line
            }
        }
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        #expect(ids.count == 3, "\(ids)")
        #expect(judged.verifier.stdout.hasSuffix("\(judged.expected.count) passed, 0 failed\n"))
    }
}
