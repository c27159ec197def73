import Foundation
import IAPSimSigned
import Testing

@testable import IAPSimStoreKit

/// The harness checks a JWS as a device does against Apple's root: only the simulated App
/// Store's chain, whose certificates are pinned bytes (no X.509 code in the library), with a
/// signature by its leaf over the exact header and payload.
@Suite struct HarnessSigningTests {
    static let payload = JSONText.members([("transactionId", .string("1000000000001"))])

    @Test func theAppStoresOwnJWSVerifies() throws {
        let signing = try Signing.shared()
        let jws = try signing.signer.sign(Self.payload)
        #expect(signing.failure(of: jws) == nil)
    }

    /// Same names and markers, other keys: the certificate chain is not the App Store's.
    @Test func aForgersChainIsAnInvalidCertificateChain() throws {
        let jws = try JWSSigner(chain: SigningChain.forger()).sign(Self.payload)
        #expect(try Signing.shared().failure(of: jws) == .invalidCertificateChain)
    }

    /// The App Store's header over a changed payload: its signature no longer holds.
    @Test func aChangedPayloadIsAnInvalidSignature() throws {
        let signing = try Signing.shared()
        let parts = try signing.signer.sign(Self.payload).split(separator: ".").map(String.init)
        let other = JWSSigner.base64URL(Array(#"{"transactionId":"1000000000002"}"#.utf8))
        #expect(signing.failure(of: [parts[0], other, parts[2]].joined(separator: ".")) == .invalidSignature)
    }

    /// One certificate of the chain changed by a byte: not the App Store's chain.
    @Test func aChangedCertificateIsAnInvalidCertificateChain() throws {
        let signing = try Signing.shared()
        var chain = signing.signer.chain.certificates.map { Data($0).base64EncodedString() }
        var leaf = [UInt8](Data(base64Encoded: chain[0])!)
        leaf[leaf.count - 1] ^= 1
        chain[0] = Data(leaf).base64EncodedString()
        #expect(signing.chainKey(chain) == nil)
        #expect(signing.chainKey(signing.signer.chain.certificates.map { Data($0).base64EncodedString() }) != nil)
    }
}
