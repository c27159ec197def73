import Foundation
import Testing

/// The payloads of introductory offers, judged by Apple's app-store-server-library: each
/// transaction of an offer verifies and decodes with `offerType` 1, its `offerDiscountType`,
/// `offerPeriod` and the `price` paid; a regular period decodes with no `offerType`.
@Suite(.serialized) struct IntroOfferSignedTests {
    typealias V = SignedVerificationTests
    static var gbp: [String: Any] { ["currency": "GBP", "storefront": "GBR", "storefrontId": "143444"] }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func theDungeonPassTrialAndItsConversionAreVerified() throws {
        let python = try #require(V.applePython)
        for name in ["game-weekly-pass-renewal-hardened.yaml", "game-trial-card-declined-hardened.yaml"] {
            let judged = try V.judge(name, python: python, store: Self.gbp)
            #expect(judged.verifier.status == 0, "\(name): \(judged.verifier.stdout)\(judged.verifier.stderr)")
            #expect(
                judged.verifier.stdout.hasSuffix("\(judged.expected.count) passed, 0 failed\n"),
                "\(name): \(judged.verifier.stdout)")
            let trial = judged.expected.filter {
                $0.contains("\"offerDiscountType\":\"FREE_TRIAL\"") && $0.contains("\"offerPeriod\":\"P3D\"")
                    && $0.contains("\"offerType\":1") && $0.contains("\"price\":0")
            }
            #expect(!trial.isEmpty, "\(name): \(judged.expected)")
            // The conversion, at 1.99, names no offer (the judge checks offerType is absent).
            #expect(
                judged.expected.contains { $0.contains("\"price\":1990") && $0.contains("\"offerType\":null") },
                "\(name)")
        }
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func payAsYouGoAndPayUpFrontAreVerified() throws {
        let python = try #require(V.applePython)
        let judged = try V.judge("Tests/Fixtures/storekit/offers-sk2.yaml", python: python)
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        let all = judged.expected.joined(separator: "\n")
        #expect(all.contains("\"offerDiscountType\":\"PAY_AS_YOU_GO\""))
        #expect(all.contains("\"offerPeriod\":\"P3M\"") && all.contains("\"price\":990"))
        #expect(all.contains("\"offerDiscountType\":\"PAY_UP_FRONT\"") && all.contains("\"offerPeriod\":\"P6M\""))
        #expect(all.contains("\"price\":2990") && all.contains("\"offerPeriod\":\"P1W\""))
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func promotionalOffersAreVerifiedWithTheirIdentifier() throws {
        let python = try #require(V.applePython)
        for name in ["game-promo-offer-new-customer-naive.yaml", "game-promo-offer-new-customer-hardened.yaml"] {
            let judged = try V.judge(name, python: python, store: Self.gbp)
            #expect(judged.verifier.status == 0, "\(name): \(judged.verifier.stdout)\(judged.verifier.stderr)")
            let promo = judged.expected.filter {
                $0.contains("\"offerType\":2") && $0.contains("\"offerIdentifier\":\"comeback_half\"")
                    && $0.contains("\"offerDiscountType\":\"PAY_AS_YOU_GO\"") && $0.contains("\"price\":990")
            }
            #expect(!promo.isEmpty, "\(name): \(judged.expected)")
        }
        // A promotional offer that decodes under another identifier fails the judge.
        let changed = try V.judge("game-promo-offer-new-customer-naive.yaml", python: python, store: Self.gbp) {
            $0.map { $0.replacingOccurrences(of: "\"comeback_half\"", with: "\"other_offer\"") }
        }
        #expect(changed.verifier.status == 1, "\(changed.verifier.stdout)")
    }

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func aTrialThatDecodesAsAnotherOfferFailsTheJudge() throws {
        let python = try #require(V.applePython)
        let judged = try V.judge("game-weekly-pass-renewal-hardened.yaml", python: python, store: Self.gbp) { lines in
            lines.map { $0.replacingOccurrences(of: "\"FREE_TRIAL\"", with: "\"PAY_UP_FRONT\"") }
        }
        #expect(judged.verifier.status == 1)
        #expect(
            judged.verifier.stdout.contains("offerDiscountType: expected 'PAY_UP_FRONT', decoded 'FREE_TRIAL'"),
            "\(judged.verifier.stdout)")
    }
}

/// Offer codes and win-back offers, judged by Apple's app-store-server-library: the code's
/// transaction decodes with `offerType` 3 and its reference name, the win-back offer's with
/// `offerType` 4 and its id; both notifications are `OFFER_REDEEMED` (`INITIAL_BUY`,
/// `RESUBSCRIBE`), and the lapsed subscription's renewal info lists the win-back offer in
/// `eligibleWinBackOfferIds`.
@Suite(.serialized) struct OfferCodeSignedTests {
    typealias V = SignedVerificationTests

    @Test(.enabled(if: V.applePython != nil, V.skipReason))
    func codesAndWinBackOffersAreVerifiedWithTheirTypesAndTheEligibleOffers() throws {
        let python = try #require(V.applePython)
        let name = "Tests/Fixtures/subscriptions/offer-codes-win-back-sk2.yaml"
        let judged = try V.judge(name, python: python, store: IntroOfferSignedTests.gbp) { lines in
            let redeemed = PriceIncreaseSignedTests.expecting(
                "OFFER_REDEEMED", ["subtype": "INITIAL_BUY"], in: lines, matching: { $0.contains("\"offerType\":3") })
            let back = PriceIncreaseSignedTests.expecting(
                "OFFER_REDEEMED", ["subtype": "RESUBSCRIBE"], in: redeemed,
                matching: { $0.contains("\"offerType\":4") })
            return PriceIncreaseSignedTests.expecting(
                "EXPIRED", ["subtype": "VOLUNTARY", "renewalInfo": ["eligibleWinBackOfferIds": ["yearly_comeback"]]],
                in: back)
        }
        #expect(judged.verifier.status == 0, "\(judged.verifier.stdout)\(judged.verifier.stderr)")
        let code = judged.expected.filter {
            $0.contains("\"offerType\":3") && $0.contains("\"offerIdentifier\":\"Streamer month\"")
                && $0.contains("\"offerDiscountType\":\"PAY_UP_FRONT\"") && $0.contains("\"offerPeriod\":\"P1M\"")
                && $0.contains("\"price\":2990")
        }
        #expect(!code.isEmpty, "\(judged.expected)")
        let winBack = judged.expected.filter {
            $0.contains("\"offerType\":4") && $0.contains("\"offerIdentifier\":\"yearly_comeback\"")
                && $0.contains("\"price\":29990")
        }
        #expect(!winBack.isEmpty, "\(judged.expected)")
        #expect(judged.expected.contains { $0.contains("\"eligibleWinBackOfferIds\":[\"yearly_comeback\"]") })
        // A renewal info that decodes with other eligible offers fails the judge.
        let changed = try V.judge(name, python: python, store: IntroOfferSignedTests.gbp) { lines in
            PriceIncreaseSignedTests.expecting(
                "EXPIRED", ["renewalInfo": ["eligibleWinBackOfferIds": ["other_offer"]]], in: lines)
        }
        #expect(changed.verifier.status == 1, "\(changed.verifier.stdout)")
    }
}
