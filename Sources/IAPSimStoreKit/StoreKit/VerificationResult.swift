import Foundation

/// A signed value and whether its JWS verifies: `.verified` only when the signature and its
/// certificate chain check out against the simulated App Store's root (StoreKit 2's
/// `VerificationResult`).
public enum VerificationResult<SignedType: Sendable>: Sendable {
    /// The JWS checks out against the simulator's root.
    case verified(SignedType)
    /// The JWS does not: the value as decoded, and why.
    case unverified(SignedType, VerificationError)

    /// Why a JWS did not verify: the simulated store tells `invalidEncoding`,
    /// `invalidCertificateChain` and `invalidSignature` apart.
    public enum VerificationError: Error, Sendable, Equatable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// The value, verified or not.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let v), .unverified(let v, _): return v
        }
    }

    /// The value if it verified; otherwise throws the reason.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let v): return v
            case .unverified(_, let error): throw error
            }
        }
    }
}

extension VerificationResult where SignedType == Transaction {
    /// The transaction's JWS, as StoreKit received it: what your server checks (send this,
    /// never a decoded field).
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// The renewal info's JWS, as StoreKit received it.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}
