import Foundation
import IAPSimCore

/// The StoreKit configuration file's `_storeKitErrors`, as StoreKit Test's
/// `setSimulatedError(_:forAPI:)` applies them: the API throws (or, for verification, returns
/// `.unverified` with) the error chosen for it. `Manage Subscriptions Sheet`, `Refund Request
/// Sheet` and `Offer Code Redeem Sheet` have no call in the harness: the catalog lists them
/// as not modelled.
extension SimulatedStore {
    /// The error chosen for `api`, as StoreKit's own type, or nil.
    func configuredError(_ api: StoreKitAPI) -> (any Error)? {
        catalog.settings.storeKitErrors[api].map(Self.thrown)
    }

    /// The verification error chosen for `api` (`Verification`, or `App Transaction` failed
    /// with a verification error), or nil.
    func configuredVerificationError<T: Sendable>(_ api: StoreKitAPI, as: T.Type) -> VerificationResult<T>
        .VerificationError?
    {
        guard let c = catalog.settings.storeKitErrors[api], c.kind == .verification else { return nil }
        return Self.verificationErrors(c.index)
    }

    /// `c` as the value StoreKit throws.
    static func thrown(_ c: ConfiguredStoreKitError) -> any Error {
        switch c.kind {
        case .generic: return genericErrors[c.index]
        case .purchase: return purchaseErrors[c.index]
        case .verification:
            let error: VerificationResult<Transaction>.VerificationError = verificationErrors(c.index)
            return error
        case .refundRequest: return StoreKitError.unknown
        }
    }

    /// `StoreKitErrorKind.generic.cases`, in that order.
    static let genericErrors: [StoreKitError] = [
        .unknown, .userCancelled, .networkError(URLError(.notConnectedToInternet)),
        .systemError(URLError(.cannotLoadFromNetwork)), .notAvailableInStorefront, .notEntitled, .unsupported,
    ]

    /// `StoreKitErrorKind.purchase.cases`, in that order.
    static let purchaseErrors: [Product.PurchaseError] = [
        .invalidQuantity, .productUnavailable, .purchaseNotAllowed, .ineligibleForOffer, .invalidOfferIdentifier,
        .invalidOfferPrice, .invalidOfferSignature, .missingOfferParameters,
    ]

    /// `StoreKitErrorKind.verification.cases`, in that order, for any signed type.
    static func verificationErrors<T: Sendable>(_ index: Int) -> VerificationResult<T>.VerificationError {
        let all: [VerificationResult<T>.VerificationError] = [
            .revokedCertificate, .invalidCertificateChain, .invalidDeviceVerification, .invalidEncoding,
            .invalidSignature, .missingRequiredProperties,
        ]
        return all[index]
    }
}
