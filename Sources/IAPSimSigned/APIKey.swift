import Crypto

/// The App Store Connect API key a backend signs its App Store Server API calls with
/// (docs/server-api.md, "Keys"): `api-key.p8` (PKCS#8 PEM, P-256) and `api-key.json` (`keyId`,
/// `issuerId`, `bundleId`). Like the root's, the key comes from a fixed label, so the files
/// are the same on every machine and in every run, and the API iapsim serves accepts only
/// JWTs signed by this key with these ids.
package enum APIKey {
    /// The key's id: a JWT's `kid` header. Ten characters, as App Store Connect's.
    package static let keyId = "IAPSIMKEY1"
    /// The issuer: a JWT's `iss` claim (App Store Connect's is a UUID).
    package static let issuerId = "5f0c2a6e-1a95-4e1d-9c1a-1a95000c0de5"
    /// The app: a JWT's `bid` claim.
    package static let bundleId = SignedDataDefaults.bundleId

    /// The P-256 private key whose scalar is SHA-256("iapsim api key").
    package static func privateKey() throws -> P256.Signing.PrivateKey { try SigningChain.key("iapsim api key") }

    /// The public half, which checks a JWT's signature.
    package static func publicKey() throws -> P256.Signing.PublicKey { try privateKey().publicKey }

    /// `api-key.p8`: the private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), as App
    /// Store Connect hands it out.
    package static func pem() throws -> String { try privateKey().pemRepresentation + "\n" }

    /// `api-key.json`: `{"keyId","issuerId","bundleId"}`, one line.
    package static var json: String {
        JSONText.members([
            ("keyId", .string(keyId)), ("issuerId", .string(issuerId)), ("bundleId", .string(bundleId)),
        ]).text + "\n"
    }
}
