import Crypto
import Foundation
import IAPSimSigned

/// The App Store Server API's bearer token (docs/server-api.md, "Keys"): an ES256 JWT signed by
/// `api-key.p8`, header `kid` = the key id, claims `iss` (issuer), `aud`
/// `appstoreconnect-v1`, `bid` (bundle id) and `exp` (checked against the wall clock, the one
/// date of the API that is not virtual); `iat` optional. Anything else is 401.
package struct APIAuth: Sendable {
    let key: P256.Signing.PublicKey
    let keyId: String
    let issuerId: String
    let bundleId: String

    package init() throws {
        key = try APIKey.publicKey()
        keyId = APIKey.keyId
        issuerId = APIKey.issuerId
        bundleId = APIKey.bundleId
    }

    /// Whether an `Authorization` header value is a valid token at `wallSeconds`.
    package func accepts(_ authorization: String?, wallSeconds: Double) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.base64URL(parts[0]), let claimBytes = Self.base64URL(parts[1]),
            let signatureBytes = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerBytes) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimBytes) as? [String: Any]
        else { return false }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyId,
            claims["iss"] as? String == issuerId, claims["bid"] as? String == bundleId,
            Self.audience(claims["aud"]).contains("appstoreconnect-v1"),
            let exp = (claims["exp"] as? NSNumber)?.doubleValue, exp > wallSeconds
        else { return false }
        if let iat = claims["iat"] {
            guard let issued = (iat as? NSNumber)?.doubleValue, issued <= wallSeconds + 60 else { return false }
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes) else { return false }
        return key.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8))
    }

    static func audience(_ value: Any?) -> [String] {
        if let one = value as? String { return [one] }
        return (value as? [Any])?.compactMap { $0 as? String } ?? []
    }

    static func base64URL(_ text: Substring) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }
}
