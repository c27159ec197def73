import Crypto
import Foundation
import Testing

@testable import IAPSimStoreKit

/// Promotional offers signed by Apple's own app-store-server-library (both forms: the older
/// `PromotionalOfferSignatureCreator` and the compact JWS of
/// `PromotionalOfferV2SignatureCreator`), fed to the simulated App Store through StoreKit 2's
/// `PurchaseOption`s: accepted ones apply the offer (its transaction signed with `offerType`
/// 2 and `offerIdentifier`, judged by the same library), tampered, expired, reused,
/// other-account and unknown ones are refused with StoreKit's errors and charge nothing.
@Suite(.serialized) struct PromotionalOfferTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python: String? = {
        if let path = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] { return path }
        let local = root.appendingPathComponent(".venv-apple/bin/python").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }()
    static let skip: Comment =
        "Apple's app-store-server-library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"

    /// The weekly pass with a promotional offer: 0.99 a week for two weeks.
    static let offer = """
        "adHocOffers" : [{"displayPrice" : "0.99", "internalID" : "P1", "numberOfPeriods" : 2, "offerID" : "comeback", "paymentMode" : "payAsYouGo", "referenceName" : "Come back", "subscriptionPeriod" : "P1W"}],
        """

    static func catalog() throws -> StoreCatalog { try dungeon([("\"adHocOffers\" : [],", offer)]) }

    /// A team's In-App Purchase key, PKCS#8 PEM (what App Store Connect lets you download).
    let key = P256.Signing.PrivateKey()
    let keyID = "PROMO12345"

    func sign(_ request: [String: Any]) throws -> String {
        let python = try #require(Self.python)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("promo-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try key.pemRepresentation.write(to: dir.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        var full = request
        full["keyId"] = full["keyId"] ?? keyID
        full["bundleId"] = SimulatedStore.bundleID
        try JSONSerialization.data(withJSONObject: full).write(to: dir.appendingPathComponent("request.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Self.root.appendingPathComponent("tools/sign_promotional_offer.py").path,
            dir.appendingPathComponent("key.pem").path, dir.appendingPathComponent("request.json").path,
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A store with the offer, the team's key registered, and a launched app.
    func store() async throws -> (SimulatedStore, ListeningApp) {
        let store = try SimulatedStore(catalog: try Self.catalog())
        try store.registerPromotionalOfferKey(keyID: keyID, pem: key.pemRepresentation)
        let app = await store.launch { ListeningApp() }
        return (store, app)
    }

    /// The older form's options for `product`, signed by the library for `account`.
    func fieldsOptions(
        _ store: SimulatedStore, product: String = "pass_weekly", offer: String = "comeback", account: UUID,
        signedFor: UUID? = nil, nonce: UUID = UUID(), ageMs: Int = 0, keyID: String? = nil
    ) throws -> Set<Product.PurchaseOption> {
        let timestamp = Int(store.date.timeIntervalSince1970 * 1000) - ageMs
        let base64 = try sign([
            "form": "v1", "product": product, "offer": offer, "account": (signedFor ?? account).uuidString.lowercased(),
            "nonce": nonce.uuidString.lowercased(), "timestamp": timestamp, "keyId": keyID ?? self.keyID,
        ])
        let signature = try #require(Data(base64Encoded: base64))
        return [
            .appAccountToken(account),
            .promotionalOffer(
                offerID: offer, keyID: keyID ?? self.keyID, nonce: nonce, signature: signature, timestamp: timestamp),
        ]
    }

    /// Buys `product` with `options`: the transaction, or the error StoreKit threw.
    func buy(
        _ store: SimulatedStore, _ options: Set<Product.PurchaseOption>, product: String = "pass_weekly"
    ) async throws -> Result<Transaction, Error> {
        let task = await store.user { () -> Result<Transaction, Error> in
            do {
                let p = try #require(try await Product.products(for: [product]).first)
                guard case .success(let v) = try await p.purchase(options: options) else {
                    return .failure(StoreKitError.unknown)
                }
                let t = v.unsafePayloadValue
                await t.finish()
                return .success(t)
            } catch { return .failure(error) }
        }
        await store.settle()
        return try await task.value
    }

    func refusal(_ r: Result<Transaction, Error>) -> Product.PurchaseError? {
        if case .failure(let e) = r { return e as? Product.PurchaseError }
        return nil
    }

    @Test func theCatalogsPromotionalOfferIsListedWithItsTerms() async throws {
        let store = try SimulatedStore(catalog: try Self.catalog())
        let p = try await store.user { try await Product.products(for: ["pass_weekly"]).first }.value
        let offers = try #require(p?.subscription?.promotionalOffers)
        #expect(offers.count == 1)
        let o = try #require(offers.first)
        #expect(o.id == "comeback" && o.type == .promotional && o.paymentMode == .payAsYouGo)
        #expect(o.price == Decimal(string: "0.99") && o.displayPrice == "£0.99" && o.periodCount == 2)
    }

    @Test(.enabled(if: python != nil, skip))
    func anOfferSignedByAppleLibraryIsAppliedAndItsTransactionVerifies() async throws {
        let (store, _) = try await store()
        let account = UUID()
        let bought = try await buy(store, try fieldsOptions(store, account: account)).get()
        #expect(bought.offer == Transaction.Offer(id: "comeback", type: .promotional, paymentMode: .payAsYouGo))
        #expect(bought.appAccountToken == account)
        // One week at the offer's price, then the second offer week, then the full price.
        #expect(bought.expirationDate == bought.purchaseDate.addingTimeInterval(7 * 86_400))
        await store.advance(by: .seconds(7 * 86_400))
        await store.settle()
        let second = try await store.user { await Transaction.latest(for: "pass_weekly")?.unsafePayloadValue }.value
        #expect(second?.offer?.id == "comeback" && second?.reason == .renewal)
        await store.advance(by: .seconds(7 * 86_400))
        await store.settle()
        let full = try await store.user { await Transaction.latest(for: "pass_weekly")?.unsafePayloadValue }.value
        #expect(full?.offer == nil && full?.reason == .renewal)
        // Apple's SignedDataVerifier decodes the offer's transaction: offerType 2, its id, 0.99 paid.
        let judged = try judge(bought, expect: ["offerType": 2, "offerIdentifier": "comeback", "price": 990])
        #expect(judged.status == 0, "\(judged.output)")
    }

    @Test(.enabled(if: python != nil, skip))
    func aCompactJWSFromAppleLibraryIsAccepted() async throws {
        let (store, _) = try await store()
        let jws = try sign([
            "form": "jws", "product": "pass_weekly", "offer": "comeback",
            "issuer": "57246542-96fe-1a63-e053-0824d011072a",
            "transactionId": "705000000000000001",
        ])
        let bought = try await buy(store, Set(Product.PurchaseOption.promotionalOffer("comeback", compactJWS: jws)))
        #expect(try bought.get().offer?.id == "comeback")
        // Its nonce is used: the same JWS again is refused.
        let again = try await buy(
            store, Set(Product.PurchaseOption.promotionalOffer("comeback", compactJWS: jws)), product: "pass_yearly")
        #expect(refusal(again) == .invalidOfferSignature)
    }

    @Test(.enabled(if: python != nil, skip))
    func badSignaturesAreRefusedAndChargeNothing() async throws {
        let (store, _) = try await store()
        let account = UUID()
        // Tampered: one byte of the signature changed.
        var options = try fieldsOptions(store, account: account)
        let tampered = try fieldsOptions(store, account: account)
        var changed: Set<Product.PurchaseOption> = [.appAccountToken(account)]
        for o in tampered {
            if case .fields(let id, let s)? = o.promotional {
                var bytes = s.signature
                bytes[bytes.count - 1] ^= 1
                changed.insert(
                    .promotionalOffer(
                        offerID: id, keyID: s.keyID, nonce: s.nonce, signature: bytes, timestamp: s.timestamp))
            }
        }
        #expect(refusal(try await buy(store, changed)) == .invalidOfferSignature)
        // Signed for another account than the purchase's appAccountToken.
        #expect(
            refusal(try await buy(store, try fieldsOptions(store, account: account, signedFor: UUID())))
                == .invalidOfferSignature)
        // More than 24 hours old.
        #expect(
            refusal(try await buy(store, try fieldsOptions(store, account: account, ageMs: 25 * 3_600_000)))
                == .invalidOfferSignature)
        // Signed with a key App Store Connect does not know.
        #expect(
            refusal(try await buy(store, try fieldsOptions(store, account: account, keyID: "UNKNOWN")))
                == .invalidOfferSignature)
        // An offer the product does not have.
        #expect(
            refusal(try await buy(store, try fieldsOptions(store, offer: "nope", account: account)))
                == .invalidOfferIdentifier)
        // Nothing was charged: no transaction at all.
        let none = try await store.user { await Transaction.latest(for: "pass_weekly") }.value
        #expect(none == nil)
        // The good one goes through once; its nonce cannot be used again.
        let nonce = UUID()
        options = try fieldsOptions(store, account: account, nonce: nonce)
        #expect(try await buy(store, options).get().offer?.id == "comeback")
        let reused = try fieldsOptions(store, product: "pass_yearly", account: account, nonce: nonce)
        let yearly = try await store.user { try await Product.products(for: ["pass_yearly"]).first }.value
        #expect(yearly?.subscription?.promotionalOffers.first?.id == "comeback")
        #expect(refusal(try await buy(store, reused, product: "pass_yearly")) == .invalidOfferSignature)
    }

    /// Apple's SignedDataVerifier on `t`'s JWS, with `expect` the fields its payload must hold.
    func judge(_ t: Transaction, expect: [String: Any]) throws -> (status: Int32, output: String) {
        let python = try #require(Self.python)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("judge-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(try Signing.shared().signer.chain.root).write(to: dir.appendingPathComponent("root.cer"))
        let line: [String: Any] = [
            "t": 0, "kind": "transaction", "txn": String(t.id), "environment": t.environment.rawValue, "jws": t.jws,
        ]
        try JSONSerialization.data(withJSONObject: line).write(to: dir.appendingPathComponent("signed.jsonl"))
        try JSONSerialization.data(withJSONObject: expect).write(to: dir.appendingPathComponent("expect.jsonl"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Self.root.appendingPathComponent("tools/verify_signed.py").path, dir.path, "--expect",
            dir.appendingPathComponent("expect.jsonl").path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
