import Crypto
import Foundation
import IAPSimApplePayload
import IAPSimCore
import IAPSimSigned

extension Product.SubscriptionOffer {
    /// A promotional offer's signature in its older form (StoreKit's
    /// `Product.SubscriptionOffer.Signature`): what your server signed with your In-App
    /// Purchase key (App Store Server Library: `PromotionalOfferSignatureCreator`).
    public struct Signature: Sendable, Hashable {
        /// The id of the key your server signed with (App Store Connect's key id).
        public let keyID: String
        /// The one-time nonce your server made.
        public let nonce: UUID
        /// When your server signed it, Unix milliseconds.
        public let timestamp: Int
        /// The ECDSA P-256 SHA-256 signature (DER, as the library's Base64 decodes to).
        public let signature: Data

        /// A signature your server made.
        public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
            self.keyID = keyID
            self.nonce = nonce
            self.timestamp = timestamp
            self.signature = signature
        }
    }
}

/// A promotional offer a purchase carries, as your server signed it.
enum PromotionalSignature: Sendable, Hashable {
    /// The older form: key id, nonce, timestamp, signature over the offer's fields.
    case fields(offerID: String, Product.SubscriptionOffer.Signature)
    /// The compact JWS (`PromotionalOfferV2SignatureCreator`).
    case compactJWS(offerID: String, jws: String)
}

extension Product.PurchaseOption {
    /// Applies a promotional offer signed in the older form (StoreKit's
    /// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`).
    public static func promotionalOffer(
        offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
    ) -> Product.PurchaseOption {
        promotionalOffer(
            offerID: offerID,
            signature: Product.SubscriptionOffer.Signature(
                keyID: keyID, nonce: nonce, timestamp: timestamp, signature: signature))
    }

    /// Applies a promotional offer signed in the older form (StoreKit's
    /// `promotionalOffer(offerID:signature:)`).
    public static func promotionalOffer(
        offerID: String, signature: Product.SubscriptionOffer.Signature
    ) -> Product.PurchaseOption {
        Product.PurchaseOption(promotional: .fields(offerID: offerID, signature))
    }

    /// Applies a promotional offer with your server's compact JWS (StoreKit's
    /// `promotionalOffer(_:compactJWS:)`, which returns the options to pass).
    public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] {
        [Product.PurchaseOption(promotional: .compactJWS(offerID: offerID, jws: compactJWS))]
    }
}

extension Product.PurchaseError {
    /// StoreKit's error for the App Store's refusal of a promotional offer.
    init(_ refusal: OfferRefusal) {
        switch refusal {
        case .unknownOffer: self = .invalidOfferIdentifier
        case .ineligible: self = .ineligibleForOffer
        case .otherProduct, .badSignature, .otherAccount, .expired, .reusedNonce, .otherCustomer:
            self = .invalidOfferSignature
        }
    }
}

/// The keys your server signs promotional offers with: App Store Connect holds the public
/// half of each In-App Purchase key; so does the simulated App Store, once you register it.
extension SimulatedStore {
    /// Registers your In-App Purchase key `keyID` (App Store Connect's key id), from its PEM:
    /// the private key you downloaded (`SubscriptionKey_….p8`, PKCS#8) or its public key. A
    /// promotional offer signed with a key not registered here is refused
    /// (`Product.PurchaseError.invalidOfferSignature`), as the App Store refuses one signed
    /// with a revoked or unknown key.
    public func registerPromotionalOfferKey(keyID: String, pem: String) throws {
        let key: P256.Signing.PublicKey
        if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            key = privateKey.publicKey
        } else {
            key = try P256.Signing.PublicKey(pemRepresentation: pem)
        }
        locked { offerKeys[keyID] = key }
    }

    /// The app's bundle id, which your server signs into every promotional offer.
    public static var bundleID: String { SignedDataDefaults.bundleId }

    /// The virtual clock as a date: the time your server puts in an offer's signature
    /// (`timestamp`, Unix milliseconds) when it runs beside this store.
    public var date: Date { Transaction.date(locked { sim.now }) }

    /// What `promotional` says, checked against the registered keys (under the lock): the
    /// App Store then judges the offer, account, age and nonce (`AppStore.redeem`).
    func offerSignature(_ promotional: PromotionalSignature, product: String, account: String?) -> OfferSignature {
        switch promotional {
        case .fields(let offerID, let s):
            // The purchase's own appAccountToken is in the signed text: a signature made for
            // another account does not verify.
            let account = account ?? ""
            let message = [
                Self.bundleID, s.keyID, product, offerID, account, s.nonce.uuidString.lowercased(), String(s.timestamp),
            ].joined(separator: "\u{2063}")
            let verified =
                offerKeys[s.keyID].map { key in
                    (try? P256.Signing.ECDSASignature(derRepresentation: s.signature)).map {
                        key.isValidSignature($0, for: Data(message.utf8))
                    } ?? false
                } ?? false
            return OfferSignature(
                offerId: offerID, productId: product, verified: verified, account: account,
                nonce: s.nonce.uuidString.lowercased(),
                signedAt: VirtualTime(Int64(s.timestamp) - ApplePayload.unix(0)))
        case .compactJWS(let offerID, let jws):
            return jwsSignature(offerID: offerID, jws: jws, product: product)
        }
    }

    /// The compact JWS form: ES256 by a registered key (`kid`), audience
    /// `promotional-offer`, this app's bundle id, and claims naming the product and the
    /// offer; its nonce is one-time. Its `iat` is your server's wall clock, which the
    /// simulated App Store's virtual clock cannot judge: the JWS's age is not checked.
    private func jwsSignature(offerID: String, jws: String, product: String) -> OfferSignature {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        var claims: [String: Any] = [:]
        var verified = false
        if parts.count == 3, let headerData = Signing.decode(parts[0]), let bodyData = Signing.decode(parts[1]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let body = (try? JSONSerialization.jsonObject(with: bodyData)) as? [String: Any],
            let raw = Signing.decode(parts[2])
        {
            claims = body
            if header["alg"] as? String == "ES256", let kid = header["kid"] as? String, let key = offerKeys[kid],
                let sig = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
            {
                verified =
                    key.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8))
                    && body["aud"] as? String == "promotional-offer" && body["bid"] as? String == Self.bundleID
                    && body["offerIdentifier"] as? String == offerID
            }
        }
        return OfferSignature(
            offerId: offerID, productId: claims["productId"] as? String ?? "", verified: verified, account: nil,
            nonce: claims["nonce"] as? String ?? "", signedAt: sim.now,
            transactionId: claims["transactionId"] as? String)
    }
}
