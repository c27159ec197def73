import Crypto
import Foundation
import IAPSimApplePayload
import IAPSimCore
import IAPSimSigned
import X509

/// The JWS of the simulated App Store: signed with the simulator's chain (as `iapsim run
/// --signed`), and checked against the simulator's root, as your app's `VerificationResult`.
struct Signing: Sendable {
    let signer: JWSSigner
    let root: [UInt8]
    /// The chains already checked, by their `x5c` header: each is checked once a process.
    let checkedChains = LockedBox<[String: P256.Signing.PublicKey]>([:])

    static func shared() throws -> Signing { try built.get() }
    private static let built = Result { () throws -> Signing in
        let chain = try SigningChain.appStore()
        return Signing(signer: JWSSigner(chain: chain), root: chain.root)
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
        let key: P256.Signing.PublicKey
        if let known = checkedChains.withLock({ $0[x5c.joined()] }) {
            key = known
        } else {
            guard let found = chainKey(x5c) else { return .invalidCertificateChain }
            checkedChains.withLock { $0[x5c.joined()] = found }
            key = found
        }
        guard let sig = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(sig, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return .invalidSignature }
        return nil
    }

    /// The leaf's key when the chain ends at the simulator's root and each link is signed
    /// by the next.
    func chainKey(_ x5c: [String]) -> P256.Signing.PublicKey? {
        let ders = x5c.compactMap { Data(base64Encoded: $0) }
        guard ders.count == 3, [UInt8](ders[2]) == root,
            let certs = try? ders.map({ try Certificate(derEncoded: [UInt8]($0)) }),
            certs[2].publicKey.isValidSignature(certs[1].signature, for: certs[1]),
            certs[1].publicKey.isValidSignature(certs[0].signature, for: certs[0])
        else { return nil }
        return P256.Signing.PublicKey(certs[0].publicKey)
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
