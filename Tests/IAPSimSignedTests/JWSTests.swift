import Crypto
import Foundation
import IAPSimSigned
import Testing
import X509

/// base64url without padding back to bytes.
func base64URLDecoded(_ text: some StringProtocol) throws -> [UInt8] {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Array(try #require(Data(base64Encoded: standard), "not base64url: \(text)"))
}

@Suite struct JWSTests {
    /// base64url written byte by byte is RFC 7515's: Foundation's base64, URL alphabet, no padding.
    @Test func base64URLIsFoundationsBase64WithTheURLAlphabetAndNoPadding() throws {
        var seed: UInt64 = 7
        for length in 0..<70 {
            let bytes = (0..<length).map { _ -> UInt8 in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: seed >> 33)
            }
            let reference = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(JWSSigner.base64URL(bytes) == reference, "\(length) bytes")
            #expect(try base64URLDecoded(JWSSigner.base64URL(bytes)) == bytes)
        }
    }

    let signer: JWSSigner

    init() throws { signer = JWSSigner(chain: try SigningChain.appStore()) }

    @Test func jwsIsHeaderPayloadAndSignatureInBase64URL() throws {
        let jws = try signer.sign(Samples.consumable)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        for part in parts { #expect(!part.contains("=") && !part.contains("+") && !part.contains("/")) }
        let payload = String(decoding: try base64URLDecoded(parts[1]), as: UTF8.self)
        #expect(payload == Samples.consumable.json.text)
        #expect(try base64URLDecoded(parts[2]).count == 64)
    }

    @Test func headerIsES256WithTheChainAsPaddedStandardBase64() throws {
        let jws = try signer.sign(Samples.withToken)
        let header = String(decoding: try base64URLDecoded(jws.split(separator: ".")[0]), as: UTF8.self)
        let x5c = signer.chain.certificates.map { "\"" + Data($0).base64EncodedString() + "\"" }
        #expect(header == #"{"alg":"ES256","x5c":["# + x5c.joined(separator: ",") + "]}")
        #expect(x5c.allSatisfy { $0.hasSuffix("=\"") || ($0.count - 2) % 4 == 0 })
    }

    @Test func signatureVerifiesWithTheLeafCertificatesKey() throws {
        let jws = try signer.sign(Samples.refunded)
        let parts = jws.split(separator: ".")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try base64URLDecoded(parts[2]))
        let leaf = try Certificate(derEncoded: signer.chain.certificates[0])
        let key = try #require(P256.Signing.PublicKey(leaf.publicKey))
        #expect(key.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!key.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])x".utf8)))
    }

    @Test func samePayloadGivesTheSamePayloadBytesAndAFreshSignature() throws {
        let first = try signer.sign(Samples.consumable).split(separator: ".")
        let second = try signer.sign(Samples.consumable).split(separator: ".")
        #expect(first[0] == second[0] && first[1] == second[1])
        #expect(first[2] != second[2])  // ECDSA nonces: the signature bytes differ
    }
}
