/// A promotional offer's signature as the App Store receives it with a payment: what the
/// merchant server signed for one purchase. The crypto itself is checked at the edge (the
/// StoreKit library verifies the ES256 signature with the team's key); the App Store here
/// judges what the signature says.
///
/// Apple: the server signs the app's bundle id, the key id, the product, the offer, the
/// account (`appAccountToken` / `applicationUsername`, lowercased), a one-time nonce and a
/// timestamp; "the timestamp keeps the offer active for 24 hours" (App Store Server
/// Library, `PromotionalOfferSignatureCreator`); the compact-JWS form signs the product, the
/// offer and optionally one of the customer's transactions (`PromotionalOfferV2SignatureCreator`).
package struct OfferSignature: Sendable, Hashable {
    /// The offer the signature names (`offerIdentifier`).
    package var offerId: String
    /// The product the signature names.
    package var productId: String
    /// Whether the signature verified with a key of the app (App Store Connect's
    /// In-App Purchase key) over exactly these fields.
    package var verified: Bool
    /// The account the signature was made for, lowercased (`appAccountToken`); nil when
    /// the form signs none (the compact JWS).
    package var account: String?
    /// The one-time nonce.
    package var nonce: String
    /// When the server signed it (virtual milliseconds).
    package var signedAt: VirtualTime
    /// The compact JWS's `transactionId`, if it names one: it must be the customer's.
    package var transactionId: String?

    package init(
        offerId: String, productId: String, verified: Bool, account: String?, nonce: String,
        signedAt: VirtualTime, transactionId: String? = nil
    ) {
        self.offerId = offerId
        self.productId = productId
        self.verified = verified
        self.account = account
        self.nonce = nonce
        self.signedAt = signedAt
        self.transactionId = transactionId
    }
}

/// Why the App Store refused a promotional offer: the purchase fails before any charge.
package enum OfferRefusal: Error, Sendable, Hashable, CaseIterable {
    /// The product has no promotional offer with that id.
    case unknownOffer
    /// The signature names another product than the one bought.
    case otherProduct
    /// The signature does not verify with any key of the app.
    case badSignature
    /// Signed for another account than the purchase's `appAccountToken`.
    case otherAccount
    /// Signed more than 24 hours ago.
    case expired
    /// Its nonce was used by an earlier purchase.
    case reusedNonce
    /// Its `transactionId` is not one of this customer's.
    case otherCustomer
    /// A win-back offer the customer is not eligible for (`ineligibleForOffer`).
    case ineligible

    /// What the refusal is, in words.
    package var words: String {
        switch self {
        case .unknownOffer: return "the product has no promotional offer with that id"
        case .otherProduct: return "the signature names another product"
        case .badSignature: return "the signature does not verify with the app's key"
        case .otherAccount: return "the signature was made for another account"
        case .expired: return "the signature is more than 24 hours old"
        case .reusedNonce: return "the signature's nonce was already used"
        case .otherCustomer: return "the signature's transactionId is not this customer's"
        case .ineligible: return "the customer is not eligible for the offer"
        }
    }

    /// StoreKit 2's error (`Product.PurchaseError`).
    package var storeKit2Error: String {
        switch self {
        case .unknownOffer: return "invalidOfferIdentifier"
        case .ineligible: return "ineligibleForOffer"
        case .otherProduct, .badSignature, .otherAccount, .expired, .reusedNonce, .otherCustomer:
            return "invalidOfferSignature"
        }
    }

    /// StoreKit 1's error (`SKError.Code`).
    package var storeKit1Error: String {
        self == .unknownOffer ? "invalidOfferIdentifier" : "invalidSignature"
    }
}

extension AppStore {
    /// A signature is good for 24 hours from its timestamp (Apple).
    package static let offerSignatureLifeMs: VirtualTime = 24 * 3_600_000

    /// The promotional offer `signature` gives a purchase of `product` for `account` (the
    /// payment's `appAccountToken`, lowercased), or why the App Store refuses it. A
    /// signature it accepts uses up its nonce.
    package mutating func redeem(
        _ signature: OfferSignature, product: String, account: String?, now: VirtualTime
    ) -> Result<IntroductoryOffer, OfferRefusal> {
        guard let terms = catalog.product(product)?.subscription,
            let offer = terms.promotional.first(where: { $0.promotionalId == signature.offerId })
        else { return .failure(.unknownOffer) }
        guard signature.productId == product else { return .failure(.otherProduct) }
        guard signature.verified else { return .failure(.badSignature) }
        if let signed = signature.account, signed != (account ?? "") { return .failure(.otherAccount) }
        guard now - signature.signedAt <= Self.offerSignatureLifeMs else { return .failure(.expired) }
        guard !book.offerNonces.contains(signature.nonce) else { return .failure(.reusedNonce) }
        if let txn = signature.transactionId, txn != Self.appTransactionId, transaction(txn) == nil {
            return .failure(.otherCustomer)
        }
        book.offerNonces.insert(signature.nonce)
        return .success(offer)
    }

    /// The promotional offer the payment `txn` carries, if the App Store accepted one.
    func promotionalOffer(of txn: String) -> IntroductoryOffer? {
        book.buyers.first { $0.txn == txn }?.promotional
    }
}

extension AppStore {
    /// `redeem`, with the App Store's word on it in the Events.
    mutating func redeemLogged(
        _ signature: OfferSignature, product: String, account: String?, _ out: inout Outbox
    ) -> Result<IntroductoryOffer, OfferRefusal> {
        let r = redeem(signature, product: product, account: account, now: out.now)
        switch r {
        case .success(let offer):
            out.log(
                .appStore,
                .noted(
                    "promotional offer \(signature.offerId) of \(product): signature accepted (\(offer.summary);"
                        + " nonce \(signature.nonce) used)"))
        case .failure(let refusal):
            out.log(
                .appStore,
                .noted(
                    "promotional offer \(signature.offerId) of \(product) refused: \(refusal.words)"
                        + " (Product.PurchaseError.\(refusal.storeKit2Error)); purchase() throws, nothing is charged"))
        }
        return r
    }
}

extension MerchantServer {
    /// The server signs promotional offer `offer` of `product` for the order `order` of `user`
    /// (its `appAccountToken` `token`), with the order's answer (`POST /orders` with the offer
    /// the user chose); nil when it refuses (`server-offer-signing subscribers` and `user`
    /// never subscribed in the group: promotional offers are for existing or previous
    /// subscribers, Apple, Developer Forums 758078).
    func signPromotionalOffer(
        _ offer: String, product: String, order: String, user: String, token: String, catalog: Catalog,
        _ out: inout Outbox
    ) -> OfferSignature? {
        if out.policy.serverOfferSigning == .subscribers {
            let group = catalog.product(product)?.subscription?.group
            let subscribed = subscriberAccess.contains {
                $0.user == user && catalog.product($0.productId)?.subscription?.group == group
            }
            guard subscribed else {
                out.log(
                    .server,
                    .noted(
                        "no signature for promotional offer \(offer) of \(product): \(user) never subscribed in its"
                            + " group (server-offer-signing subscribers); the app buys it without the offer"))
                return nil
            }
        }
        out.log(.server, .noted("promotional offer \(offer) of \(product) signed for \(user) (order \(order))"))
        // A team whose app sends no appAccountToken signs an empty one (Apple: "may be an
        // empty string").
        return OfferSignature(
            offerId: offer, productId: product, verified: true, account: out.policy.accountToken ? token : "",
            nonce: "nonce-\(order)", signedAt: out.now)
    }
}
