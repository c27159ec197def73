import Crypto
import Foundation
import IAPSimApplePayload
import IAPSimCore
import IAPSimSigned

/// The JWS of the simulated App Store: signed with the simulator's chain (as `iapsim run
/// --signed`), and checked against the simulator's root, as your app's `VerificationResult`.
struct Signing: Sendable {
    let signer: JWSSigner

    static func shared() throws -> Signing { try built.get() }
    private static let built = Result { () throws -> Signing in
        let chain = try SigningChain.appStore()
        return Signing(signer: JWSSigner(chain: chain))
    }

    func sign(_ s: SignedTransaction) -> String {
        (try? signer.sign(ApplePayload.transaction(s))) ?? ""
    }

    func sign(_ r: RenewalInfo) -> String {
        (try? signer.sign(ApplePayload.renewalInfo(r))) ?? ""
    }

    /// Why `jws` does not verify against the simulator's root, or nil when it does.
    func failure(of jws: String) -> VerificationResult<Transaction>.VerificationError? {
        failure(of: jws, as: Transaction.self)
    }

    /// Why `jws`, a signed `T`, does not verify against the simulator's root, or nil when it does.
    func failure<T: Sendable>(of jws: String, as: T.Type) -> VerificationResult<T>.VerificationError? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decode(parts[0]),
            let json = try? JSONSerialization.jsonObject(with: header) as? [String: Any],
            let x5c = json["x5c"] as? [String], x5c.count == 3,
            let signature = Self.decode(parts[2])
        else { return .invalidEncoding }
        guard let key = chainKey(x5c) else { return .invalidCertificateChain }
        guard let sig = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return .invalidSignature }
        return nil
    }

    /// The leaf's key when `x5c` is the simulated App Store's chain, byte for byte: its
    /// certificates are pinned (`SigningChain`), so every JWS it signs, in any process, carries
    /// exactly these; any other chain (the forger's, a changed certificate) is not its chain.
    func chainKey(_ x5c: [String]) -> P256.Signing.PublicKey? {
        let ders = x5c.map { Data(base64Encoded: $0).map { [UInt8]($0) } }
        guard ders == signer.chain.certificates.map({ Optional($0) }) else { return nil }
        return signer.chain.leafKey.publicKey
    }

    /// Base64url, unpadded, as JWS writes it.
    static func decode(_ part: Substring) -> Data? {
        var bytes = [UInt8](part.utf8)
        for i in bytes.indices {
            if bytes[i] == UInt8(ascii: "-") { bytes[i] = UInt8(ascii: "+") }
            if bytes[i] == UInt8(ascii: "_") { bytes[i] = UInt8(ascii: "/") }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(bytes))
    }
}
