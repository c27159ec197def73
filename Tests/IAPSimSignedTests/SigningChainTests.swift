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

    @Test func rootIsThePinnedBytesEveryBuild() throws {
        let built = try SigningChain.appStore().root
        #expect(
            Data(built).base64EncodedString() == SigningChain.pinnedAppStoreRoot,
            "the root changed: pin its new DER, \(Data(built).base64EncodedString())")
        #expect(try SigningChain.appStore().root == built)
    }

    @Test func aPinThatIsNotThisRootIsIgnored() throws {
        let forgerRoot = Data(try SigningChain.forger().root).base64EncodedString()
        #expect(try SigningChain.pinned(forgerRoot, standingFor: root) == nil)
        #expect(try SigningChain.pinned(SigningChain.pinnedAppStoreRoot, standingFor: root) != nil)
    }

    @Test func forgerChainLooksTheSameButHasOtherKeys() throws {
        let forged = try SigningChain.forger().certificates.map { try Certificate(derEncoded: $0) }
        #expect(forged[2].subject == root.subject)
        #expect(forged[2].publicKey != root.publicKey)
        #expect(forged[0].publicKey != leaf.publicKey)
        #expect(!root.publicKey.isValidSignature(forged[1].signature, for: forged[1]))
    }
}
