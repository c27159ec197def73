import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import IAPSimSigned

@Suite struct SigningChainTests {
    let leaf: Certificate, intermediate: Certificate, root: Certificate

    init() throws {
        let chain = try SigningChain.appStore().certificates.map { try Certificate(derEncoded: $0) }
        (leaf, intermediate, root) = (chain[0], chain[1], chain[2])
    }

    @Test func eachCertificateIsSignedByTheNextAndTheRootBySelf() {
        #expect(root.issuer == root.subject)
        #expect(intermediate.issuer == root.subject)
        #expect(leaf.issuer == intermediate.subject)
        #expect(root.publicKey.isValidSignature(root.signature, for: root))
        #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
        #expect(intermediate.publicKey.isValidSignature(leaf.signature, for: leaf))
        #expect(!root.publicKey.isValidSignature(leaf.signature, for: leaf))
    }

    @Test func authoritiesAreCriticalCAsWithKeyCertSignAndKeyIdentifiers() throws {
        for ca in [root, intermediate] {
            let constraints = try #require(ca.extensions[oid: .X509ExtensionID.basicConstraints])
            #expect(constraints.critical)
            #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
            #expect(try ca.extensions.keyUsage?.keyCertSign == true)
            #expect(try ca.extensions.subjectKeyIdentifier != nil)
        }
        #expect(try root.extensions.authorityKeyIdentifier == nil)
        #expect(
            try intermediate.extensions.authorityKeyIdentifier?.keyIdentifier
                == root.extensions.subjectKeyIdentifier?.keyIdentifier)
        #expect(
            try leaf.extensions.authorityKeyIdentifier?.keyIdentifier
                == intermediate.extensions.subjectKeyIdentifier?.keyIdentifier)
    }

    @Test func leafIsNotACAAndSignsDigitally() throws {
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try leaf.extensions.keyUsage == KeyUsage(digitalSignature: true))
        #expect(P256.Signing.PublicKey(leaf.publicKey) != nil)
    }

    @Test func appleMarkersHoldANullOnTheirCertificatesOnly() {
        let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
        let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
        #expect(intermediate.extensions[oid: intermediateMarker]?.value == [0x05, 0x00])
        #expect(leaf.extensions[oid: leafMarker]?.value == [0x05, 0x00])
        #expect(leaf.extensions[oid: intermediateMarker] == nil)
        #expect(root.extensions[oid: intermediateMarker] == nil && root.extensions[oid: leafMarker] == nil)
    }

    @Test func validFrom2025To2036WithPositiveSerials() throws {
        for certificate in [root, intermediate, leaf] {
            #expect(certificate.notValidBefore == Date(timeIntervalSince1970: 1_735_689_600))
            #expect(certificate.notValidAfter == Date(timeIntervalSince1970: 2_082_758_400))
            let serial = Array(certificate.serialNumber.bytes)
            #expect(serial.first.map { $0 & 0x80 == 0 } == true && serial.contains { $0 != 0 })
            #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        }
    }

    /// Each pinned certificate is what `ChainBuilder` makes from the labels but for the
    /// signature's nonce: the same to-be-signed bytes, signed by the issuer's key; and the
    /// chain's leaf key is the pinned leaf's. After a change to names, extensions or keys this
    /// fails and prints the new chain to pin.
    @Test(arguments: [SigningChain.appStoreLabel, SigningChain.forgerLabel])
    func pinnedChainIsTheBuiltChain(label: String) throws {
        let chain = try label == SigningChain.appStoreLabel ? SigningChain.appStore() : SigningChain.forger()
        let built = try ChainBuilder.build(labeled: label)
        let pinned = try chain.certificates.map { try Certificate(derEncoded: $0) }
        let fresh = try built.map { Data(try ChainBuilder.der($0)).base64EncodedString() }
        for (index, (p, b)) in zip(pinned, built).enumerated() {
            #expect(
                p.tbsCertificateBytes == b.tbsCertificateBytes,
                "\(label): certificate \(index) changed; pin \(fresh[index])")
        }
        #expect(pinned[2].publicKey.isValidSignature(pinned[2].signature, for: pinned[2]))
        #expect(pinned[2].publicKey.isValidSignature(pinned[1].signature, for: pinned[1]))
        #expect(pinned[1].publicKey.isValidSignature(pinned[0].signature, for: pinned[0]))
        #expect(
            P256.Signing.PublicKey(pinned[0].publicKey)?.rawRepresentation == chain.leafKey.publicKey.rawRepresentation)
    }

    /// The same bytes in every process: `root.cer` written once keeps trusting later runs.
    @Test func rootIsTheSameBytesEveryBuild() throws {
        #expect(try SigningChain.appStore().root == SigningChain.appStore().root)
        #expect(Data(try SigningChain.appStore().root).base64EncodedString().hasPrefix("MIIByDCCAW2gAwIBAgIBATAK"))
    }

    @Test func forgerChainLooksTheSameButHasOtherKeys() throws {
        let forged = try SigningChain.forger().certificates.map { try Certificate(derEncoded: $0) }
        #expect(forged[2].subject == root.subject)
        #expect(forged[2].publicKey != root.publicKey)
        #expect(forged[0].publicKey != leaf.publicKey)
        #expect(!root.publicKey.isValidSignature(forged[1].signature, for: forged[1]))
    }
}
